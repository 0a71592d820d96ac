import ArgumentParser
import Foundation
import StrideContract
import StrideEvents
import StrideIngest
import StrideLedger

struct IngestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest",
        abstract:
            "Read Apple Health exports, FIT and TCX workouts, GPX tracks, NDJSON samples, Health Auto Export documents, or Strava and Garmin Connect archives into the ledger.",
        discussion: """
            Formats are told apart by content, never by name: the Health app's export (export.zip, read \
            in place, or its export.xml), FIT files (plain, .fit.gz, or a zip of them, as Garmin Connect \
            and Strava export), TCX, GPX, NDJSON (one sample or workout a line) and Health Auto Export's \
            JSON; and the account archives of Strava (the zip as downloaded, its folder or its \
            activities.csv) and Garmin Connect (the zip as downloaded), with the runner's shoes: each \
            shoe joins the rack (or is found there by name), each run goes on the shoe it was on there, \
            and a run already in the ledger from another source is counted once. A decision made in \
            Stride (an assignment, a retirement, an exclusion, the default shoe) is never overturned: \
            the summary says where the archive disagreed. Each batch is committed as it is read: an ingest that \
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

    @Option(
        name: .customLong("shoe"),
        help: ArgumentHelp(
            "Which rack shoe an archive's shoe is, where the names differ (repeatable): NAME is the archive's name for it, or its gear id.",
            valueName: "NAME=RACK_NAME"))
    var shoes: [String] = []

    /// `--shoe NAME=RACK_NAME`, as a map.
    private var shoeNames: [String: String] {
        Dictionary(
            shoes.compactMap { pair in
                guard let equals = pair.firstIndex(of: "=") else { return nil }
                return (
                    String(pair[..<equals]).trimmingCharacters(in: .whitespaces),
                    String(pair[pair.index(after: equals)...]).trimmingCharacters(in: .whitespaces)
                )
            }, uniquingKeysWith: { _, last in last })
    }

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("name at least one file to ingest") }
        guard batchSize >= 1 else { throw ValidationError("--batch-size must be at least 1") }
        if let grouping, HealthAutoExportGrouping(header: grouping) == nil {
            throw ValidationError(
                "--grouping \"\(grouping.shownInMessage)\" is not one of \(HealthAutoExportGrouping.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        for pair in shoes {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw ValidationError(
                    "--shoe \"\(pair.shownInMessage)\" is not NAME=RACK_NAME (the archive's name for the shoe or its gear id, then the rack shoe's name)"
                )
            }
        }
    }

    func run() throws {
        let opened = try ledger.openExisting()
        var reports: [FileIngestReport] = []
        for file in files {
            let bar = ProgressBar(label: (file as NSString).lastPathComponent, quiet: quiet || json)
            defer { bar.finish() }
            let context = HealthAutoExportContext(grouping: grouping.flatMap(HealthAutoExportGrouping.init(header:)))
            var options = IngestOptions(healthAutoExport: context)
            options.shoeNames = shoeNames
            let report = try opened.ingest(file: file, batchSize: batchSize, options: options) {
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
