import StrideLedger

/// What the one-time upgrade of a ledger written by an earlier Stride found, as a note.
enum UpgradeSummary {
    static func text(_ report: IdentityUpgradeReport) -> String {
        var lines = [
            "Upgraded this ledger, written by an earlier Stride, in \(String(format: "%.1f", report.seconds)) s: "
                + "\(report.identitiesAdded.counted("sample or workout", plural: "samples and workouts")) now known by the identity "
                + "every export gives them (their device's memory address left out)."
        ]
        if report.sampleRepeats > 0 {
            lines.append(
                "  \(report.sampleRepeats.counted("sample")) had been appended twice (the same record in two exports): "
                    + "each now counts once, and `stride stats` lists them as repeats.")
        }
        if report.workoutRepeats > 0 {
            lines.append(
                "  \(report.workoutRepeats.counted("workout")) had been appended twice; each already counted once, as a copy of one run.")
        }
        if !report.stepAwards.reversed.isEmpty {
            let taken = report.stepAwards.reversed.reduce(0) { $0 + $1.takenBack }
            lines.append(
                "  \(report.stepAwards.reversed.count.counted("step award")) for doubled days reversed (\(taken.counted("point")) taken back; "
                    + "`stride points history` shows each).")
        }
        return lines.joined(separator: "\n")
    }
}
