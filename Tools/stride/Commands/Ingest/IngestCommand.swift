import ArgumentParser
import Foundation
import StrideContract
import StrideEvents
import StrideIngest
import StrideLedger

struct IngestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest",
        abstract: "Read Apple Health exports, FIT and TCX workouts, GPX tracks, NDJSON samples or Health Auto Export documents into the ledger.",
        discussion: """
            Formats are told apart by content, never by name: the Health app's export (export.zip, read \
            in place, or its export.xml), FIT files (plain, .fit.gz, or a zip of them, as Garmin Connect \
            and Strava export), TCX, GPX, NDJSON (one sample or workout a line) and Health Auto Export's \
            JSON. Each batch is committed as it is read: an ingest that \
            stops (an error, a kill) keeps what it committed, and running it again adds only what is \
            missing. The same sample from any export is added once.
            """)

    @OptionGroup var ledger: LedgerOptions

    @Argument(help: "The files to ingest.")
    var files: [String]

    @Flag(name: .long, help: "Show no progress bar.")
    var quiet = false

    @Flag(name: .long, help: "Print the summary as one JSON document.")
    var json = false

    @Option(name: .long, help: "The most events committed per write transaction (the first few batches are smaller, so appending starts at once).")
    var batchSize = IngestReader.defaultBatchSize

    @Option(
        name: .long,
        help:
            "The time grouping of Health Auto Export documents (seconds, minutes, hours, days, weeks, months or years; inferred per metric when not given)."
    )
    var grouping: String?

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("name at least one file to ingest") }
        guard batchSize >= 1 else { throw ValidationError("--batch-size must be at least 1") }
        if let grouping, HealthAutoExportGrouping(header: grouping) == nil {
            throw ValidationError(
                "--grouping \"\(grouping)\" is not one of \(HealthAutoExportGrouping.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    func run() throws {
        let opened = try ledger.openExisting()
        var reports: [FileIngestReport] = []
        for file in files {
            let bar = ProgressBar(label: (file as NSString).lastPathComponent, quiet: quiet || json)
            defer { bar.finish() }
            let context = HealthAutoExportContext(grouping: grouping.flatMap(HealthAutoExportGrouping.init(header:)))
            let report = try opened.ingest(file: file, batchSize: batchSize, options: IngestOptions(healthAutoExport: context)) {
                bar.update($0)
            }
            bar.finish()
            reports.append(report)
            if !json { Console.print(IngestSummary.text(report)) }
        }
        if json { Console.print(IngestSummaryDocument(reports: reports)) }
        let rejected = reports.reduce(0) { $0 + $1.counts.rejectedLines }
        if rejected > 0 {
            throw CommandFailure(
                "\(rejected.counted("line")) could not be read (listed above); fix them and run the same `stride ingest` again: what is already in is skipped"
            )
        }
    }
}
