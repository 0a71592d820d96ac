import ArgumentParser
import Foundation
import StrideContract
import StrideEvents
import StrideLedger

struct TokensCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tokens", abstract: "The access tokens of the devices that send to `stride serve`: add, list, revoke.",
        discussion: """
            A token is shown once, when it is added; the ledger keeps only its SHA-256. Every event a \
            device sends through the server names it, and the audits show it ("via marie-iphone").
            """,
        subcommands: [Add.self, List.self, Revoke.self], defaultSubcommand: List.self)

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Give a device a new token and print it, once, on standard output.")
        @OptionGroup var ledger: LedgerOptions
        @OptionGroup var time: ActionTime
        @Argument(help: "The device's name: letters, digits, -, _ or ., at most 64, e.g. marie-iphone.") var name: String

        func run() throws {
            let opened = try ledger.openExisting()
            var token = try opened.addToken(name: name, at: time.instant)
            // A runner's ledger on a shared server: the token names the runner, so that the
            // server knows whose ledger it opens.
            if let runner = RunnersFolder.runner(ofLedgerAt: opened.path) { token = RunnerToken.presented(token, runner: runner.name) }
            // The token alone on standard output (for `TOKEN=$(stride tokens add …)`); the
            // advice on standard error, without it.
            Console.print(token)
            let device = name.trimmingCharacters(in: .whitespacesAndNewlines)
            Console.note(
                "The token of \(device) is shown this once: Stride keeps only its hash. Give it to the device as "
                    + "`Authorization: Bearer TOKEN`; revoke it with `stride tokens revoke \(device)`.")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the devices' tokens: when each was added, and whether it is revoked.")
        @OptionGroup var ledger: LedgerOptions
        @OptionGroup var output: OutputOptions

        func run() throws {
            let document = try ledger.read { try TokensDocument($0) }
            if output.json {
                Console.print(document)
                return
            }
            guard !document.tokens.isEmpty else {
                Console.print("No tokens; give a device one with `stride tokens add NAME`.")
                return
            }
            var table = TextTable([.init(heading: "device"), .init(heading: "added"), .init(heading: "status")])
            for token in document.tokens {
                table.add([
                    token.name, document.time.format(token.addedAt),
                    token.revokedAt.map { "revoked \(document.time.format($0))" } ?? "active",
                ])
            }
            Console.print(table.text)
        }
    }

    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke", abstract: "Revoke a device's token: the server refuses it from now on.")
        @OptionGroup var ledger: LedgerOptions
        @OptionGroup var time: ActionTime
        @Argument(help: "The device's name, as `stride tokens list` shows it.") var name: String

        func run() throws {
            try ledger.openExisting().revokeToken(name: name, at: time.instant)
            Console.print("Revoked the token of \(name.trimmingCharacters(in: .whitespacesAndNewlines)).")
        }
    }
}
