import StrideEvents
import StrideIngest
import StrideLedger

/// The closing summary of an ingest, as text (its JSON is the contract's
/// `IngestSummaryDocument`).
enum IngestSummary {
    static func text(_ report: FileIngestReport) -> String {
        let counts = report.counts
        let rate = report.seconds > 0 ? Double(report.bytes) / report.seconds : 0
        var lines = [
            "Ingested \(report.file) (\(report.format)): \(Format.bytes(report.bytes)) in \(String(format: "%.2f", report.seconds)) s (\(Format.bytes(Int(rate)))/s).",
            "  \(Format.plural(report.appended, "new event")), \(Format.plural(report.duplicates, "duplicate")) skipped"
                + (report.autoAssigned > 0 ? ", \(Format.plural(report.autoAssigned, "new run")) assigned to the default shoe." : "."),
        ]
        var read: [String] = []
        if counts.samples > 0 { read.append(Format.plural(counts.samples, "sample")) }
        if counts.workouts > 0 { read.append(Format.plural(counts.workouts, "workout")) }
        if counts.activitySummaries > 0 { read.append(Format.plural(counts.activitySummaries, "activity summary", "activity summaries")) }
        if counts.nestedRecordsSkipped > 0 {
            read.append("\(Format.count(counts.nestedRecordsSkipped)) records inside correlations skipped (they repeat top-level ones)")
        }
        if counts.recordsInsideRecordsSkipped > 0 {
            read.append(
                "\(Format.plural(counts.recordsInsideRecordsSkipped, "record")) inside other records skipped (only top-level records are samples)")
        }
        lines.append("  Read " + (read.isEmpty ? "nothing" : read.joined(separator: ", ")) + ".")
        if !counts.samplesByType.isEmpty {
            var table = TextTable([.init(heading: "    samples by type"), .init(heading: "count", isNumeric: true)])
            for (type, count) in counts.samplesByType.sorted(by: { $0.key < $1.key }) { table.add(["    " + type, Format.count(count)]) }
            lines.append(table.text)
        }
        for (reason, leftOut) in counts.leftOut.sorted(by: { $0.key < $1.key }) {
            lines.append(
                "  Kept but left out of figures: \(Format.count(leftOut.count)) — \(reason) (first at \(leftOut.examples.joined(separator: ", "))).")
        }
        if !report.stepAwards.isEmpty {
            let days = Set(report.stepAwards.map(\.day)).count
            lines.append("  Steps earned \(report.stepAwards.reduce(0) { $0 + $1.points }) points over \(Format.plural(days, "day")).")
        }
        for (what, count) in counts.notRead.sorted(by: { $0.key < $1.key }) {
            lines.append("  Not read: \(Format.count(count)) \(what) \(count == 1 ? "entry" : "entries") (Stride reads its metrics and workouts).")
        }
        for rejection in counts.rejections { lines.append("  Not read: \(rejection).") }
        if counts.rejectedLines > counts.rejections.count {
            lines.append("  … and \(Format.count(counts.rejectedLines - counts.rejections.count)) more lines not read.")
        }
        return lines.joined(separator: "\n")
    }
}
