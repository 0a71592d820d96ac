import ArgumentParser
import Foundation
import StrideContract
import StrideEvents
import StrideLedger
import StrideReplica

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
        subcommands: [Add.self, List.self, Remove.self, Promote.self], defaultSubcommand: List.self)

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
        @Option(
            name: .customLong("replica"),
            help: "Also ask PostgreSQL at this address which server writes each runner's log and how much of it it holds (default: $STRIDE_REPLICA)."
        ) var address: String?

        func run() throws {
            var document = try RunnersDocument(folder.runners(), clock: LedgerOptions.clock)
            if let address = try ReplicaOptions.address(address) {
                do {
                    let copies = try Waiting.on { try await ReplicaCopy.runners(at: address, logger: ReplicaOptions.quietLogger) }
                    for index in document.runners.indices {
                        document.runners[index].copy = copies[document.runners[index].name].map { .init(writer: $0.writer, events: $0.lastSequence) }
                    }
                } catch {
                    document.copyProblem = "\(error)"
                }
            }
            if output.json {
                Console.print(document)
                return
            }
            guard !document.runners.isEmpty else {
                Console.print("No runners in \(document.folder); add one with `stride runners add NAME --ledgers \(document.folder)`.")
                return
            }
            let copied = document.runners.contains { $0.copiedThrough != nil || $0.copy != nil }
            var table = TextTable(
                [
                    .init(heading: "runner"), .init(heading: "time zone"), .init(heading: "events", isNumeric: true),
                    .init(heading: "size", isNumeric: true), .init(heading: "devices"),
                ] + (copied ? [.init(heading: "in PostgreSQL")] : []))
            for runner in document.runners {
                if let problem = runner.problem {
                    table.add([runner.name, "–", "–", "–", "cannot be opened: \(problem)"])
                    continue
                }
                table.add(
                    [
                        runner.name, runner.timeZone, String(runner.events), String(format: "%.1f MB", Double(runner.bytes) / 1_048_576),
                        runner.devices.isEmpty ? "none" : runner.devices.joined(separator: ", "),
                    ] + (copied ? [Self.copyText(runner)] : []))
            }
            Console.print(table.text)
            if let problem = document.copyProblem { Console.note("stride: the copy could not be asked: \(problem)") }
        }

        /// How much of the runner's log PostgreSQL holds, and who writes it.
        static func copyText(_ runner: RunnersDocument.Runner) -> String {
            if let copy = runner.copy {
                let behind =
                    runner.events > copy.events
                    ? " (\(runner.events - copy.events) not yet copied)"
                    : copy.events > runner.events ? " (\(copy.events - runner.events) not yet here)" : ""
                return "\(copy.events) events, written by \(copy.writer)\(behind)"
            }
            guard let through = runner.copiedThrough else { return "never copied" }
            return through >= runner.events ? "all, last seen" : "through \(through), \(runner.events - through) behind when last seen"
        }
    }

    struct Promote: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "promote", abstract: "Make this server the writer of a runner's log in PostgreSQL (a follower taking over).",
            discussion: """
                Run it beside a server started with --follow (or --replica) on the same --ledgers folder, once its copy                 of the runner is caught up (`stride runners list --replica ADDRESS` shows it): the table names this                 server as the runner's writer, the server takes the runner's writes, and the former writer, if it comes                 back, is refused at its next copy and stops writing for the runner. Then point the proxy's map at this                 server (docs/SERVING.md).
                """)
        @OptionGroup var folder: RunnersFolderOptions
        @Argument(help: "The runner's name.") var name: String
        @Option(name: .customLong("replica"), help: "The PostgreSQL address (default: $STRIDE_REPLICA).") var address: String?

        func run() throws {
            guard let address = try ReplicaOptions.address(address) else {
                throw ValidationError("name the copy with --replica postgresql://… (or set STRIDE_REPLICA)")
            }
            let (folder, name) = (try folder.runners(), name)
            let promotion = try Waiting.on { try await ReplicaCopy.promote(name, in: folder, address: address, logger: ReplicaOptions.quietLogger) }
            switch promotion {
            case .alreadyWriter:
                Console.print("This server (\(try ServerName.of(folder))) already writes \(name)'s log.")
            case .promoted(let after, let former):
                Console.print(
                    "This server (\(try ServerName.of(folder))) now writes \(name)'s log, from event \(after + 1) on; \(former) is refused if it writes again."
                )
                Console.note("Route \(name)'s requests here: change the proxy's map (docs/SERVING.md) and reload it.")
            }
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
