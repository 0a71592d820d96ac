import ArgumentParser
import DailyHealth
import StrideContract
import StrideEvents
import StrideLedger

struct DailyExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain", abstract: "Explain a day's figures down to their samples.",
        discussion: """
            For each measure: every sample that touched the day (its id, source and device class, \
            span, value and the part of it in the day), how it counted — counted, outranked by a \
            better device class, a pushed summary the devices' own samples already account for, or \
            left out and why (odd content, withdrawn, a repeat of an earlier export) — and a running \
            total whose last line is the figure `stride daily` prints. For steps, distance and \
            energy, the stretches of the day each device class won. A sample's id is what \
            `stride samples withdraw` takes.
            """)

    @OptionGroup var ledger: LedgerOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "The day, yyyy-MM-dd.")
    var date: String

    @Option(help: ArgumentHelp("One measure: \(DailyExplainDocument.measureNames.joined(separator: ", ")) (default: every one)."))
    var measure: String?

    @Option(help: "The most samples listed per measure (up to 5000).")
    var limit = 200

    @Option(help: "Skip this many samples of each measure first: the next page.")
    var offset = 0

    func validate() throws {
        guard CivilDate(date) != nil else { throw ValidationError("\"\(date.shownInMessage)\" is not a date like 2024-05-01") }
        if let measure, DailyExplainDocument.measure(named: measure) == nil {
            throw ValidationError("--measure: " + DailyExplainDocument.measureRefusal(measure))
        }
        guard (1...Ledger.longestExplainPage).contains(limit) else { throw ValidationError("--limit must be from 1 to \(Ledger.longestExplainPage)") }
        guard offset >= 0 else { throw ValidationError("--offset must not be negative") }
    }

    func run() throws {
        guard let day = CivilDate(date) else { return }
        let measures = measure.flatMap(DailyExplainDocument.measure(named:)).map { [$0] } ?? []
        let document = try ledger.read { try DailyExplainDocument($0, day: day, measures: measures, offset: offset, limit: limit) }
        if output.json {
            Console.print(document)
        } else {
            Console.print(DailyExplainOutput.text(document))
        }
    }
}
