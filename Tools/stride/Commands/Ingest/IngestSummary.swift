import ShoeMileage
import StrideContract
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
        if let archive = counts.archive { lines += Self.archiveLines(archive, settled: report.archive) }
        var read: [String] = []
        if counts.samples > 0 { read.append(counts.samples.counted("sample")) }
        if counts.workouts > 0 {
            read.append(
                counts.workouts.counted("workout")
                    + (counts.streams > 0
                        ? " (\(counts.streams == counts.workouts ? "each" : Format.count(counts.streams)) with its readings over time: \(counts.streamReadings.counted("reading")))"
                        : ""))
        }
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
            let types = SummaryList.cut(counts.samplesByType.sorted(by: { $0.key < $1.key }))
            for (type, count) in types.named { table.add(["    " + type, Format.count(count)]) }
            lines.append(table.text)
            if types.notNamed > 0 { lines.append("    … and \(types.notNamed.counted("more type")).") }
        }
        let leftOut = SummaryList.cut(counts.leftOut.sorted(by: { $0.key < $1.key }))
        for (reason, leftOut) in leftOut.named {
            lines.append(
                "  Kept but left out of figures: \(Format.count(leftOut.count)) — \(reason) (first at \(leftOut.examples.joined(separator: ", "))).")
        }
        if leftOut.notNamed > 0 { lines.append("  … and \(leftOut.notNamed.counted("more reason")) for leaving content out.") }
        if !report.stepAwards.isEmpty {
            let days = Set(report.stepAwards.map(\.day)).count
            lines.append("  Steps earned \(report.stepAwards.reduce(0) { $0 + $1.points }) points over \(days.counted("day")).")
        }
        if report.zones.observations > 0 {
            let moved = report.zones.daysMoved.sorted()
            lines.append(
                "  Where you were: \(report.zones.observations.counted("new reading")) of the clocks"
                    + (moved.isEmpty
                        ? "; no day moved."
                        : "; \(moved.count.counted("day")) from \(moved[0]) to \(moved[moved.count - 1]) now cut in the zone lived (`stride travel`).")
            )
        }
        for reversal in report.stepReversals {
            lines.append("  The \(reversal.rule) award of \(reversal.day) is reversed (\(reversal.takenBack) taken back): \(reversal.reason).")
        }
        let notRead = SummaryList.cut(counts.notRead.sorted(by: { $0.key < $1.key }))
        for (what, count) in notRead.named where counts.archive == nil {
            // Health Auto Export's are members of its `data` beside the two Stride reads; others
            // (a FIT file's, a zip's, the Health app's routes) say what they are themselves.
            lines.append(
                report.format == .healthAutoExport
                    ? "  Not read: \(Format.count(count)) \(what) \(count == 1 ? "entry" : "entries") (Stride reads its metrics and workouts)."
                    : "  Not read: \(Format.count(count)) \(what).")
        }
        if notRead.notNamed > 0, counts.archive == nil { lines.append("  … and \(notRead.notNamed.counted("more kind")) not read.") }
        for rejection in counts.rejections { lines.append("  Not read: \(rejection).") }
        if counts.rejectedLines > counts.rejections.count {
            lines.append("  … and \(Format.count(counts.rejectedLines - counts.rejections.count)) more lines not read.")
        }
        return lines.joined(separator: "\n")
    }

    /// Each archive shoe beside its rack shoe: the two totals, and the differences by reason,
    /// the unexplained ones named.
    private static func reconciliationLines(_ shoes: [ArchiveReconciliation.ReconciledShoe]) -> [String] {
        guard !shoes.isEmpty else { return [] }
        var lines = ["  Each shoe against the archive's own total:"]
        let listed = SummaryList.cut(shoes)
        for shoe in listed.named {
            let rack = shoe.rackShoe.map { "\($0) on the rack \(Format.kilometers(shoe.rackKilometers))" } ?? "on no rack shoe"
            let count = shoe.differences.count
            let verdict =
                count == 0
                ? "equal" : "\(count.counted("difference")), " + (shoe.unexplained == 0 ? "all explained" : "\(shoe.unexplained) unexplained")
            lines.append("    \(shoe.archiveShoe): archive \(Format.kilometers(shoe.archiveKilometers)), \(rack) — \(verdict).")
            for reason in ArchiveReconciliation.Reason.allCases where reason != .unexplained {
                let of = shoe.differences.filter { $0.reason == reason }
                guard !of.isEmpty else { continue }
                let kilometers = of.reduce(0) { $0 + $1.kilometers }
                let what = reason == .notOnRack ? "\(reason.summary(count: of.count)): \(of[0].detail)" : reason.summary(count: of.count)
                lines.append("      \(Format.signedKilometers(kilometers)): \(what)")
            }
            for difference in shoe.differences.filter({ $0.reason == .unexplained }).prefix(5) {
                let which = [difference.place, difference.workout.map { "workout \(Ledger.workoutID($0))" }].compactMap { $0 }.joined(separator: ", ")
                lines.append(
                    "      \(Format.signedKilometers(difference.kilometers)) unexplained: \(which.isEmpty ? "" : which + ": ")\(difference.detail)")
            }
        }
        if listed.notNamed > 0 {
            let differing = shoes.dropFirst(SummaryList.named).count { !$0.differences.isEmpty }
            lines.append("    … and \(listed.notNamed.counted("more shoe")), \(Format.count(differing)) of them with differences.")
        }
        return lines
    }

    /// What an account archive held and did to the rack: activities by type, runs new and
    /// known, shoes added and matched, runs put on shoes, what was not read and why.
    private static func archiveLines(_ archive: AccountArchive, settled: ArchiveSettlement?) -> [String] {
        let activities = archive.activitiesByType.values.reduce(0, +)
        let byType = SummaryList.cut(archive.activitiesByType.sorted { ($1.value, $0.key) < ($0.value, $1.key) })
        let types =
            byType.named.map { "\($0.key) \(Format.count($0.value))" } + (byType.notNamed > 0 ? ["\(byType.notNamed.counted("other type"))"] : [])
        var lines = [
            "  \(archive.title)\(archive.asOf.map { ", newest activity \($0.description.prefix(10))" } ?? ""): "
                + "\(activities.counted("activity", plural: "activities"))" + (types.isEmpty ? "" : " (\(types.joined(separator: ", ")))") + "."
        ]
        let known = settled?.runsAlreadyFromElsewhere ?? 0
        lines.append(
            "  Runs: \(Format.count(archive.runs))"
                + (known > 0
                    ? ", of which \(Format.count(known)) already in the ledger from another source (counted once, from the archive's copy)" : "")
                + ".")
        if let settled {
            var shoes: [String] = []
            if !settled.shoesAdded.isEmpty { shoes.append("\(Format.count(settled.shoesAdded.count)) added (\(named(settled.shoesAdded)))") }
            if !settled.shoesMatched.isEmpty {
                let matched = settled.shoesMatched.sorted { $0.key < $1.key }.map { $0.key == $0.value ? $0.key : "\($0.key) as \($0.value)" }
                shoes.append("\(Format.count(settled.shoesMatched.count)) already on the rack (\(named(matched)))")
            }
            if !settled.shoesRetired.isEmpty { shoes.append("\(Format.count(settled.shoesRetired.count)) retired (\(named(settled.shoesRetired)))") }
            if let chosen = settled.defaultShoe { shoes.append("\(chosen) the default for new runs") }
            if !shoes.isEmpty { lines.append("  Shoes: " + shoes.joined(separator: "; ") + ".") }
            lines.append(
                "  Runs put on shoes: \(Format.count(settled.runsPutOnShoes))"
                    + (settled.runsAlreadyOnTheirShoe > 0 ? " (\(Format.count(settled.runsAlreadyOnTheirShoe)) already on theirs)" : "")
                    + (settled.runsTakenOffShoes > 0
                        ? "; \(Format.count(settled.runsTakenOffShoes)) taken off the shoe an earlier archive put them on" : "")
                    + ".")
            let notes = SummaryList.cut(settled.notes)
            for note in notes.named { lines.append("  Note: \(note).") }
            if notes.notNamed > 0 { lines.append("  … and \(notes.notNamed.counted("more note")).") }
            lines += reconciliationLines(settled.reconciliation)
        }
        if archive.filesRead > 0 || archive.unreadFileCount > 0 {
            lines.append(
                "  Activity files: \(Format.count(archive.filesRead)) read"
                    + (archive.unreadFileCount > 0
                        ? ", \(Format.count(archive.unreadFileCount)) could not be read (their activities kept, from the archive's row or summary alone)"
                        : "") + ".")
            for unread in archive.unreadFiles { lines.append("    \(unread)") }
            if archive.unreadFileCount > archive.unreadFiles.count {
                lines.append("    … and \(Format.count(archive.unreadFileCount - archive.unreadFiles.count)) more.")
            }
        }
        if archive.dailyTotals > 0 || archive.nights > 0 {
            lines.append(
                "  Daily totals of \(archive.dailyTotals.counted("day")) and \(archive.nights.counted("night")) of sleep, as summaries: "
                    + "the watch's own samples in the ledger count first, the totals fill in what they leave.")
        }
        let notRead = SummaryList.cut(archive.notRead.sorted(by: { $0.key < $1.key }))
        for (what, count) in notRead.named { lines.append("  Not read: \(Format.count(count)) \(what).") }
        if notRead.notNamed > 0 { lines.append("  … and \(notRead.notNamed.counted("more kind")) not read.") }
        return lines
    }

    /// `A, B, C`: the first ``SummaryList/named`` names, then how many more.
    private static func named(_ names: [String]) -> String {
        let cut = SummaryList.cut(names)
        return cut.named.joined(separator: ", ") + (cut.notNamed > 0 ? ", and \(Format.count(cut.notNamed)) more" : "")
    }
}
