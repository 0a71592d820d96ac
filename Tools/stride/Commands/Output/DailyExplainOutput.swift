import DailyHealth
import StrideContract
import StrideEvents
import StrideLedger

/// `daily explain` as readable text: for each measure, its figure, its samples with a
/// running total, and the stretches each device class won.
enum DailyExplainOutput {
    static func text(_ document: DailyExplainDocument) -> String {
        let report = document.report
        var lines = ["\(report.date), a local day in \(document.timeZone): every figure down to its samples."]
        if let lived = report.lived {
            lines[0] = "\(report.date), lived in \(lived.place), \(lived.hoursShown) hours long: every figure down to its samples."
            lines.append("(Its zone and length: `stride travel explain \(report.date)` says why.)")
        }
        for measure in report.measures {
            let explanation = measure.explanation
            let kind = explanation.measure
            lines.append("")
            var heading = "\(ExplainWording.title(of: kind)): \(ExplainWording.amount(explanation.figure, of: kind))"
            let parts = explanation.parts.compactMap { part in
                part.value.map { "\(part.name) \(kind == .sleep ? ExplainWording.hoursAndMinutes($0.wholeForDisplay) : ExplainWording.number($0))" }
            }
            if !parts.isEmpty { heading += " (" + parts.joined(separator: ", ") + ")" }
            lines.append(heading + (explanation.figure == nil ? "" : " — the figure `stride daily` prints."))
            guard measure.samplesTotal > 0 else {
                lines.append("  No sample touched the day.")
                continue
            }
            var table = TextTable([
                .init(heading: "  sample"), .init(heading: "source (class)"), .init(heading: "from"), .init(heading: "to"),
                .init(heading: "value", isNumeric: true), .init(heading: "in day", isNumeric: true), .init(heading: "counted", isNumeric: true),
                .init(heading: "total", isNumeric: true), .init(heading: "how it counted"),
            ])
            for line in measure.samples {
                let sample = line.explained
                let value =
                    kind == .sleep ? (sample.fact.sleep.map { DailyExplainDocument.name(of: $0) } ?? "?") : ExplainWording.number(sample.fact.value)
                let inDay = kind == .sleep ? ExplainWording.hoursAndMinutes(sample.inDay.wholeForDisplay) : ExplainWording.number(sample.inDay)
                let counted = kind == .sleep ? ExplainWording.hoursAndMinutes(sample.counted.wholeForDisplay) : ExplainWording.number(sample.counted)
                let total =
                    sample.runningTotal.map { kind == .sleep ? ExplainWording.hoursAndMinutes($0.wholeForDisplay) : ExplainWording.number($0) } ?? "–"
                table.add([
                    "  " + line.id, "\(line.sourceName) (\(sample.fact.deviceClass))",
                    ExplainWording.clock(sample.fact.start, on: report.date, time: document.time),
                    ExplainWording.clock(sample.fact.end, on: report.date, time: document.time), value, inDay, counted, total,
                    ExplainWording.outcome(sample.outcome, reason: line.reason),
                ])
            }
            lines.append(table.text)
            let shown = measure.samples.count
            if measure.offset > 0 || measure.offset + shown < measure.samplesTotal {
                lines.append(
                    "  Samples \(measure.offset + 1)–\(measure.offset + shown) of \(Format.count(measure.samplesTotal)); "
                        + "--offset \(measure.offset + shown) shows the next ones (the totals are the whole day's).")
            }
            if !explanation.stretches.isEmpty {
                let stretches = explanation.stretches.map { stretch in
                    "\(ExplainWording.clock(stretch.start, on: report.date, time: document.time).suffix(8).prefix(5))–"
                        + "\(ExplainWording.clock(stretch.end, on: report.date, time: document.time).suffix(8).prefix(5)) "
                        + "\(stretch.deviceClass) \(ExplainWording.number(stretch.amount))"
                }
                lines.append("  Stretches won: " + stretches.joined(separator: " · "))
            }
        }
        return lines.joined(separator: "\n")
    }
}
