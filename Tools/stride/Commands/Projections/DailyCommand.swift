import ArgumentParser
import StrideContract
import StrideEvents
import StrideLedger

struct DailyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daily", abstract: "Show daily health records, or explain one day's figures down to their samples.",
        subcommands: [DailyShowCommand.self, DailyExplainCommand.self], defaultSubcommand: DailyShowCommand.self)
}

struct DailyShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show daily health records: sleep, heart rate, steps, distance, energy.",
        discussion: """
            Days are local days in the ledger's time zone. Sleep is the night before each day (18:00 to \
            18:00), with watch samples preferred; steps, distance and energy take the best device \
            class of each stretch of time. Both dates are inclusive; days with no data are left out.
            """)

    @OptionGroup var ledger: LedgerOptions
    @OptionGroup var output: OutputOptions

    @Option(help: "The first day, yyyy-MM-dd.")
    var from: String?

    @Option(help: "The last day, yyyy-MM-dd.")
    var to: String?

    func validate() throws {
        for (name, value) in [("--from", from), ("--to", to)] {
            if let value, CivilDate(value) == nil { throw ValidationError("\(name) \"\(value.shownInMessage)\" is not a date like 2024-05-01") }
        }
        if let from = from.flatMap(CivilDate.init), let to = to.flatMap(CivilDate.init), to < from {
            throw ValidationError("--to \(to) comes before --from \(from)")
        }
    }

    func run() throws {
        let document = try ledger.read { try DailyDocument($0, from: from.flatMap(CivilDate.init), through: to.flatMap(CivilDate.init)) }
        if output.json {
            Console.print(document)
        } else if document.days.isEmpty {
            Console.print("No daily records in that range.")
        } else {
            Console.print("Daily records, local days in \(document.timeZone); sleep is the night before each day.\n")
            Console.print(DailyOutput.table(document.days))
        }
    }
}
