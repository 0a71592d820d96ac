import ArgumentParser
import StrideDashboard
import StrideEvents
import StrideLedger

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report", abstract: "Write every dashboard page into one HTML file that opens offline.",
        discussion: """
            The overview, the daily records of a range, the shoes and each shoe's audit, the points and \
            the latest events, as sections of one file: styles and charts inline, no script, nothing \
            fetched. The file is written whole (mode 0600: health data) or not at all. A ledger has two \
            times: --as-of TIME shows a moment of the runner's life, what had happened by then as the \
            ledger knows it now (runs by when they were run, however late they were ingested; daily \
            records through that day; points for days through then); --as-recorded SEQ|TIME shows what \
            the ledger said then, the events recorded by that point (folded from the nearest snapshot). A bare sequence \
            number is always "as recorded", so --as-of refuses one.
            """)

    @OptionGroup var ledger: LedgerOptions

    @Argument(help: "The HTML file to write; it must not exist yet unless --force is given.")
    var file: String

    @Option(help: "The daily range's first day, yyyy-MM-dd (default: thirty days to the last day with data).")
    var from: String?

    @Option(help: "The daily range's last day, yyyy-MM-dd.")
    var to: String?

    @OptionGroup var travel: TimeTravelOptions

    @Flag(help: "Replace the file if it exists.")
    var force = false

    func validate() throws {
        for (name, value) in [("--from", from), ("--to", to)] {
            if let value, CivilDate(value) == nil { throw ValidationError("\(name) \"\(value.shownInMessage)\" is not a date like 2024-05-01") }
        }
        if let from = from.flatMap(CivilDate.init), let to = to.flatMap(CivilDate.init), to < from {
            throw ValidationError("--to \(to) comes before --from \(from)")
        }
        guard !file.isEmpty, !file.hasSuffix("/") else { throw ValidationError("give the report a file name, such as report.html") }
    }

    func run() throws {
        let opened = try ledger.openExisting()
        let html = try Dashboard.report(
            opened, from: from.flatMap(CivilDate.init), through: to.flatMap(CivilDate.init),
            timeTravel: travel.timeTravel)
        try ReportFile.write(html, to: file, replacing: force)
        Console.print("Wrote the report to \(file) (\(Format.bytes(html.utf8.count))); open it in a browser, no network needed.")
    }
}
