import ArgumentParser
import StrideContract
import StrideEvents
import StrideLedger
import TrainingLog

struct AthleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "athlete", abstract: "The runner's heart-rate settings, which the training log's zones and load use.",
        subcommands: [Set.self, Show.self], defaultSubcommand: Show.self)

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set", abstract: "Set the maximum and resting heart rate.",
            discussion: """
                Without --from a change holds for all time until the next dated change; with --from DATE it \
                holds from that local day on, so a change dated 2023 leaves the 2021 runs as they were. \
                Give either figure or both; the other stays as it was.
                """)
        @OptionGroup var ledger: LedgerOptions
        @Option(name: .customLong("max-hr"), help: "The maximum heart rate, beats a minute (100 to 240).") var maximum: Double?
        @Option(name: .customLong("resting-hr"), help: "The resting heart rate, beats a minute (25 to 120).") var resting: Double?
        @Option(help: "The first local day it holds for, yyyy-MM-dd.") var from: String?

        func validate() throws {
            if maximum == nil, resting == nil { throw ValidationError("give --max-hr, --resting-hr or both") }
            if let from, CivilDate(from) == nil { throw ValidationError("--from \"\(from.shownInMessage)\" is not a date like 2024-05-01") }
        }

        func run() throws {
            let change = try ledger.openExisting().setAthlete(
                maximumHeartRate: maximum, restingHeartRate: resting, from: from.flatMap(CivilDate.init))
            var parts: [String] = []
            if let value = change.maximumHeartRate { parts.append("maximum heart rate \(PlausibleRange.number(value))") }
            if let value = change.restingHeartRate { parts.append("resting heart rate \(PlausibleRange.number(value))") }
            Console.print(
                "Set \(parts.joined(separator: " and ")) " + (change.from.map { "from \($0) on." } ?? "for all time (until a dated change)."))
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "The settings as changed, and what holds today.")
        @OptionGroup var ledger: LedgerOptions
        @OptionGroup var output: OutputOptions

        func run() throws {
            let document = try ledger.read { try AthleteDocument($0) }
            if output.json { return Console.print(document) }
            Console.print("Today: \(document.today.sentence)")
            guard !document.changes.isEmpty else {
                return Console.print("\nNo settings changed yet: `stride athlete set --max-hr 190 --resting-hr 50`.")
            }
            var table = TextTable([
                .init(heading: "seq", isNumeric: true), .init(heading: "recorded"), .init(heading: "from"), .init(heading: "max", isNumeric: true),
                .init(heading: "resting", isNumeric: true),
            ])
            for change in document.changes {
                table.add([
                    String(change.sequence), document.time.format(change.recordedAt), change.from?.description ?? "all time",
                    change.maximumHeartRate.map { PlausibleRange.number($0) } ?? "", change.restingHeartRate.map { PlausibleRange.number($0) } ?? "",
                ])
            }
            Console.print("\nChanges:\n")
            Console.print(table.text)
        }
    }
}
