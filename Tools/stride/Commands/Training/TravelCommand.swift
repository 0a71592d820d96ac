import ArgumentParser
import Foundation
import StrideContract
import StrideEvents
import StrideLedger

struct TravelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "travel", abstract: "Where the runner lived: the zone each day is cut in.",
        discussion: """
            A day runs from its midnight in the zone lived in that day to the next day's midnight in \
            that day's zone: a day of flying east is shorter, west longer. Stride learns the zones from \
            what the inputs say (HKTimeZone in a Health export, a FIT file's local time, Garmin's local \
            times, Health Auto Export's offsets): a zone seen on two or more local dates in a row is a \
            stay; a lone reading is not a move. The periods set here win over what any file implies. \
            The ledger's own zone holds wherever nothing else is known.
            """,
        subcommands: [Show.self, Add.self, Remove.self, Explain.self], defaultSubcommand: Show.self)

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "The periods set, those learned, and the timeline.")
        @OptionGroup var ledger: LedgerOptions
        @OptionGroup var output: OutputOptions

        func run() throws {
            let document = try ledger.read { try TravelDocument($0) }
            if output.json { return Console.print(document) }
            let plan = document.plan
            Console.print(
                "Home: \(plan.home). Learned from \(plan.observations) observation\(plan.observations == 1 ? "" : "s") of the inputs' clocks.")
            if plan.runner.isEmpty {
                Console.print("\nNo period set: `stride travel add Asia/Bangkok --from 2024-03-01 --to 2024-03-15`.")
            } else {
                var table = TextTable([.init(heading: "seq", isNumeric: true), .init(heading: "zone"), .init(heading: "from"), .init(heading: "to")])
                for entry in plan.runner {
                    table.add([String(entry.sequence), entry.period.zone, entry.period.from.description, entry.period.to?.description ?? "for good"])
                }
                Console.print("\nSet by the runner:\n")
                Console.print(table.text)
            }
            guard !plan.timeline.isEmpty else { return Console.print("\nEvery day is cut in \(plan.home).") }
            var table = TextTable([.init(heading: "zone"), .init(heading: "from"), .init(heading: "until"), .init(heading: "days", isNumeric: true)])
            for period in plan.timeline {
                let days = period.to.map { String($0.daysSince1970 - period.from.daysSince1970) } ?? ""
                table.add([period.zone.identifier, period.from.description, period.to?.description ?? "for good", days])
            }
            Console.print("\nDays cut away from home (until: the first date back):\n")
            Console.print(table.text)
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Say where you lived from a date (until a date, or for good).",
            discussion: "--to names the first date no longer there: a stay of 1 to 14 March is --from 2024-03-01 --to 2024-03-15.")
        @OptionGroup var ledger: LedgerOptions
        @Argument(help: "An IANA time zone, such as Asia/Bangkok.") var zone: String
        @Option(help: "The first local date lived there, yyyy-MM-dd.") var from: String
        @Option(help: "The first local date no longer there, yyyy-MM-dd; without it, for good.") var to: String?

        func validate() throws {
            if CivilDate(from) == nil { throw ValidationError("--from \"\(from.shownInMessage)\" is not a date like 2024-05-01") }
            if let to, CivilDate(to) == nil { throw ValidationError("--to \"\(to.shownInMessage)\" is not a date like 2024-05-01") }
        }

        func run() throws {
            let (sequence, period) = try ledger.openExisting().addTravel(
                zone: zone, from: CivilDate(from) ?? CivilDate(daysSince1970: 0), to: to.flatMap(CivilDate.init))
            Console.print(
                "Set (event \(sequence)): lived in \(period.zone) from \(period.from)" + (period.to.map { " until \($0) (back that day)." } ?? " on.")
                    + " Those days are now cut there; undo with `stride travel remove \(sequence)`.")
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Take back a period you set (its seq in `stride travel`).")
        @OptionGroup var ledger: LedgerOptions
        @Argument(help: "The sequence of the event that set it.") var sequence: UInt64

        func run() throws {
            try ledger.openExisting().removeTravel(period: sequence)
            Console.print("Removed the period set by event \(sequence); its days are cut as the inputs show, or at home.")
        }
    }

    struct Explain: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "explain", abstract: "The zone a date is cut in, and the events behind it.")
        @OptionGroup var ledger: LedgerOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "A local date, yyyy-MM-dd.") var date: String

        func validate() throws {
            if CivilDate(date) == nil { throw ValidationError("\"\(date.shownInMessage)\" is not a date like 2024-05-01") }
        }

        func run() throws {
            let day = CivilDate(date) ?? CivilDate(daysSince1970: 0)
            let document = try ledger.read { try TravelExplainDocument($0, date: day) }
            if output.json { return Console.print(document) }
            let explanation = document.explanation
            Console.print(
                "\(explanation.date) is cut in \(explanation.zone) (\(ClockText.offset(explanation.offsetSeconds))), \(ClockText.hours(explanation.hours)) hours long."
            )
            switch explanation.reason {
            case .runner(let sequence, let period):
                Console.print("You said so: event \(sequence) set \(period.zone) from \(period.from)" + (period.to.map { " until \($0)." } ?? " on."))
            case .inputs(let period):
                Console.print(
                    "The inputs' clocks show a stay in \(period.zone.identifier) from \(period.from)" + (period.to.map { " until \($0)" } ?? "")
                        + " (two or more local dates in a row make a stay; a lone reading does not).")
            case .home:
                Console.print("Nothing says otherwise: the ledger's home zone, \(explanation.home).")
            }
            guard !explanation.observations.isEmpty else { return Console.print("No observation within a week of it.") }
            var table = TextTable([
                .init(heading: "at"), .init(heading: "clock showed"), .init(heading: "from"), .init(heading: "event", isNumeric: true),
            ])
            for entry in explanation.observations {
                table.add([
                    document.time.format(entry.observation.instant), entry.observation.reading.description, entry.observation.source.rawValue,
                    String(entry.sequence),
                ])
            }
            Console.print("\nWhat the inputs' clocks showed within a week of it:\n")
            Console.print(table.text)
        }
    }
}
