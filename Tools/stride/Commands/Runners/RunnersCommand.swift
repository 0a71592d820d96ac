import ArgumentParser
import Foundation
import StrideContract
import StrideEvents
import StrideLedger

/// `stride runners`: the runners of a shared server, one ledger each in a folder.
struct RunnersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "runners", abstract: "The runners a shared server serves, one ledger each: add, list, remove.",
        discussion: """
            A household's or a club's server keeps each runner's ledger as a folder inside one folder (--ledgers DIR, \
            or $STRIDE_LEDGERS) and serves them all with `stride serve --ledgers DIR`. Each ledger stays a plain \
            Stride ledger: `stride --ledger DIR/marie daily` works on it, while the server runs. A runner's devices \
            get tokens with `stride --ledger DIR/marie tokens add marie-iphone`, printed as marie.stride_…: the name \
            before the dot takes the request to marie's ledger, and the token opens that ledger only.
            """,
        subcommands: [Add.self, List.self, Remove.self], defaultSubcommand: List.self)

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Create a runner's ledger in the folder.")
        @OptionGroup var folder: RunnersFolderOptions
        @Argument(help: "The runner's name: 1 to 40 lowercase letters, digits, - or _, e.g. marie.") var name: String
        @Option(help: "The IANA time zone of the runner's local days, e.g. Europe/Paris (default: the machine's).") var timeZone: String?

        func run() throws {
            let ledger = try folder.runners().add(name: name, timeZone: timeZone, clock: LedgerOptions.clock)
            let added = name.trimmingCharacters(in: .whitespacesAndNewlines)
            Console.print("Added the runner \(added): a ledger at \(ledger.path) (time zone \(ledger.timeZoneIdentifier)).")
            Console.note("Give their devices tokens with `stride --ledger \(ledger.path) tokens add DEVICE`.")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the runners: time zone, events, size on disk, devices with a token.")
        @OptionGroup var folder: RunnersFolderOptions
        @OptionGroup var output: OutputOptions

        func run() throws {
            let document = try RunnersDocument(folder.runners(), clock: LedgerOptions.clock)
            if output.json {
                Console.print(document)
                return
            }
            guard !document.runners.isEmpty else {
                Console.print("No runners in \(document.folder); add one with `stride runners add NAME --ledgers \(document.folder)`.")
                return
            }
            var table = TextTable([
                .init(heading: "runner"), .init(heading: "time zone"), .init(heading: "events", isNumeric: true),
                .init(heading: "size", isNumeric: true), .init(heading: "devices"),
            ])
            for runner in document.runners {
                if let problem = runner.problem {
                    table.add([runner.name, "–", "–", "–", "cannot be opened: \(problem)"])
                    continue
                }
                table.add([
                    runner.name, runner.timeZone, String(runner.events), String(format: "%.1f MB", Double(runner.bytes) / 1_048_576),
                    runner.devices.isEmpty ? "none" : runner.devices.joined(separator: ", "),
                ])
            }
            Console.print(table.text)
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove", abstract: "Stop serving a runner: their ledger is moved aside, kept whole, unless --delete.",
            discussion: """
                The ledger moves to DIR/.removed/NAME-TIME, every event intact (move it back to serve it again); a \
                running server stops answering the runner's tokens and sessions at their next request. --delete \
                removes it from the disk for good.
                """)
        @OptionGroup var folder: RunnersFolderOptions
        @Argument(help: "The runner's name.") var name: String
        @Flag(help: "Delete the runner's ledger for good instead of keeping it aside.") var delete = false

        func run() throws {
            let folder = try folder.runners()
            let kept = try folder.remove(name: name, deleting: delete, at: LedgerOptions.clock.now())
            let removed = name.trimmingCharacters(in: .whitespacesAndNewlines)
            if let kept {
                Console.print("Removed the runner \(removed); their ledger is kept at \(kept).")
            } else {
                Console.print("Removed the runner \(removed) and deleted their ledger.")
            }
        }
    }
}

/// `--ledgers DIR`: the folder of runners' ledgers.
struct RunnersFolderOptions: ParsableArguments {
    @Option(name: .long, help: "The folder of runners' ledgers (default: $STRIDE_LEDGERS).")
    var ledgers: String?

    /// The folder named by the option, else by `STRIDE_LEDGERS`.
    /// - Throws: ``RunnersError/noFolder`` when neither names one.
    func runners() throws -> RunnersFolder {
        guard let path = Self.path(ledgers) else { throw RunnersError.noFolder }
        return RunnersFolder(path: path)
    }

    /// The option's value, else `STRIDE_LEDGERS`'s; nil when neither is given.
    static func path(_ option: String?) -> String? {
        if let option, !option.isEmpty { return option }
        if let fromEnvironment = ProcessInfo.processInfo.environment["STRIDE_LEDGERS"], !fromEnvironment.isEmpty { return fromEnvironment }
        return nil
    }
}
