import StrideEvents
import StrideIngest
import StrideLedger

/// The closing summary of an ingest, as text (its JSON is the contract's
/// `IngestSummaryDocument`).
enum IngestSummary {
    static func text(_ report: FileIngestReport) -> String {
        let counts = report.counts
        let rate = report.seconds > 0 ? Double(report.bytes) / report.seconds : 0
        let assigned = report.autoAssigned > 0 ? ", \(report.autoAssigned.counted("new run")) assigned to the default shoe." : "."
        var lines = [
            "Ingested \(report.file) (\(report.format)): \(Format.bytes(report.bytes)) in \(String(format: "%.2f", report.seconds)) s (\(Format.bytes(Int(rate)))/s)."
        ]
        if let export = report.export {
            // What a runner checks first after exporting again: that nothing was doubled.
            let date = export.exportDate.description.prefix(10)
            let withdrawn = Format.count(export.withdrawn.count)
            let repeated = report.repeatedInFile > 0 ? " (\(Format.count(report.repeatedInFile)) written twice in the export, counted once)" : ""
            if let newer = export.newerExportRead {
                lines.append(
                    "  The export of \(date), older than the export of \(newer.description.prefix(10)) read before: "
                        + "\(Format.count(report.duplicates - report.repeatedInFile)) already in the ledger, \(Format.count(report.appended)) new"
                        + "\(repeated), of which \(withdrawn) the newer export no longer holds\(assigned)")
            } else {
                lines.append(
                    "  The export of \(date): \(Format.count(report.duplicates - report.repeatedInFile)) already in the ledger (from earlier exports), "
                        + "\(Format.count(report.appended)) new\(repeated), \(withdrawn) no longer in this export\(assigned)")
            }
            if !export.withdrawn.isEmpty {
                lines.append(
                    "  Withdrawn, deleted in Health: \(export.withdrawn.count.counted("sample")); they stay in the log and leave every figure "
                        + "(`stride samples withdrawn` lists them, `stride samples restore ID` counts one again).")
            }
        } else {
            lines.append("  \(report.appended.counted("new event")), \(report.duplicates.counted("duplicate")) skipped" + assigned)
        }
        var read: [String] = []
        if counts.samples > 0 { read.append(counts.samples.counted("sample")) }
        if counts.workouts > 0 { read.append(counts.workouts.counted("workout")) }
        if counts.activitySummaries > 0 { read.append(counts.activitySummaries.counted("activity summary", plural: "activity summaries")) }
        if counts.nestedRecordsSkipped > 0 {
            read.append("\(Format.count(counts.nestedRecordsSkipped)) records inside correlations skipped (they repeat top-level ones)")
        }
        if counts.recordsInsideRecordsSkipped > 0 {
            read.append(
                "\(counts.recordsInsideRecordsSkipped.counted("record")) inside other records skipped (only top-level records are samples)")
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
            lines.append("  Steps earned \(report.stepAwards.reduce(0) { $0 + $1.points }) points over \(days.counted("day")).")
        }
        for reversal in report.stepReversals {
            lines.append("  The \(reversal.rule) award of \(reversal.day) is reversed (\(reversal.takenBack) taken back): \(reversal.reason).")
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
