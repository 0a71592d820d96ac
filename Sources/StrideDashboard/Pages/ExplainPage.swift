import DailyHealth
import StrideContract
import StrideEvents
import StrideLedger

/// `daily explain` in a page: one measure of one day down to its samples — the day's
/// stretches by device class as a timeline, then every sample with how it counted and the
/// running total whose last line is the figure the daily page shows.
enum ExplainPage {
    /// What the page reads.
    struct Content {
        var document: DailyExplainDocument
        var measure: Measure
        /// The samples a page lists.
        var limit: Int
    }

    /// The samples one page lists.
    static let pageSize = 200

    static func read(_ reader: PageReader, day: CivilDate, measure: Measure?, offset: Int) throws -> Content {
        let measure = measure ?? .steps
        let document = try reader.explain(day: day, measure: measure, offset: offset, limit: pageSize)
        return Content(document: document, measure: measure, limit: pageSize)
    }

    static func render(_ content: Content, _ render: RenderContext) -> String {
        let report = content.document.report
        let day = report.date
        guard let measure = report.measures.first else { return Shell.heading(render.level, "\(day), explained") }
        let explanation = measure.explanation
        var html = Shell.heading(render.level, "\(ExplainWording.title(of: content.measure)) on \(day), explained")
        html += "<nav class=\"measures\" aria-label=\"Measures\"><p>"
        html += Measure.allCases.map { other in
            let current = other == content.measure ? " aria-current=\"page\"" : ""
            return
                "<a href=\"\(render.links.dailyExplain(date: day, measure: DailyExplainDocument.name(of: other)).html)\"\(current)>\(ExplainWording.title(of: other).html)</a>"
        }.joined(separator: " · ")
        html += "</p></nav>"
        if let lived = report.lived {
            html +=
                "<p class=\"lived\">Lived in <strong>\(lived.place.html)</strong>: a day of \(lived.hoursShown) hours, cut in \(lived.zone.html).</p>"
        }
        html += "<p class=\"lead\">The figure: <strong>\(ExplainWording.amount(explanation.figure, of: content.measure).html)</strong>"
        let parts = explanation.parts.compactMap { part in
            part.value.map {
                "\(part.name) \(content.measure == .sleep ? ExplainWording.hoursAndMinutes($0.wholeForDisplay) : ExplainWording.number($0))"
            }
        }
        if !parts.isEmpty { html += " (" + parts.joined(separator: ", ").html + ")" }
        let last = measure.samples.last { $0.explained.runningTotal != nil }?.explained.runningTotal
        if let figure = explanation.figure, let last, measure.offset + measure.samples.count >= measure.samplesTotal {
            html +=
                abs(last - figure) <= 1e-9 * max(1, abs(figure))
                ? " <span class=\"badge ok\">the last running total equals it</span>"
                : " <span class=\"badge bad\">the last running total differs</span>"
        }
        html += " · <a href=\"\(render.links.daily(from: day, through: day).html)\">the day's record</a></p>"
        html += "<div class=\"timeline\">" + timeline(content, measure, render) + "</div>"
        html += table(content, measure)
        html += pager(content, measure, render)
        return html
    }

    /// The day's samples in lanes by device class, and the stretches each class won.
    private static func timeline(_ content: Content, _ measure: ExplainedMeasure, _ render: RenderContext) -> String {
        let report = content.document.report
        let time = content.document.time
        let span = daySpan(of: measure)
        let samples = measure.samples.map { line in
            TimelineChart.Mark(
                deviceClass: line.explained.fact.deviceClass, start: line.explained.fact.start, end: line.explained.fact.end,
                counted: line.explained.counted > 0,
                title: "\(line.sourceName) \(ExplainWording.clock(line.explained.fact.start, on: report.date, time: time)): "
                    + ExplainWording.outcome(line.explained.outcome, reason: line.reason))
        }
        let stretches = measure.explanation.stretches.map { stretch in
            TimelineChart.Mark(
                deviceClass: stretch.deviceClass, start: stretch.start, end: stretch.end, counted: true,
                title: "\(stretch.deviceClass) won: \(ExplainWording.number(stretch.amount))")
        }
        let numbers =
            stretches.isEmpty
            ? NumbersTable(
                caption: "Samples by device class", headings: ["Device class", "Samples", "Counted"], numeric: [1, 2],
                rows: TimelineChart.laneNames.compactMap { lane in
                    let lines = measure.samples.filter { $0.explained.fact.deviceClass == lane.0 }
                    guard !lines.isEmpty else { return nil }
                    return [lane.1, String(lines.count), String(lines.filter { $0.explained.counted > 0 }.count)]
                })
            : NumbersTable(
                caption: "Stretches each device class won", headings: ["From", "To", "Device class", "Counted"], numeric: [3],
                rows: measure.explanation.stretches.map { stretch in
                    [
                        ExplainWording.clock(stretch.start, on: report.date, time: time),
                        ExplainWording.clock(stretch.end, on: report.date, time: time),
                        stretch.deviceClass.description, ExplainWording.number(stretch.amount),
                    ]
                })
        let chart = TimelineChart(
            id: render.idPrefix + "explain-timeline", title: "\(ExplainWording.title(of: content.measure)) by device class",
            summary: "Each sample of the day as a mark in its device class's lane, faint where it counted nothing"
                + (stretches.isEmpty ? "." : ", and under them the stretches of the day each class won."),
            span: span, ticks: ticks(span, time: time), samples: samples, stretches: stretches, numbers: numbers,
            emptyMessage: "No sample of this measure touched the day.")
        return chart.render()
    }

    /// The span of the samples shown, at least the hours they cover.
    private static func daySpan(of measure: ExplainedMeasure) -> Range<Timestamp> {
        let starts = measure.samples.map(\.explained.fact.start) + measure.explanation.stretches.map(\.start)
        let ends = measure.samples.map(\.explained.fact.end) + measure.explanation.stretches.map(\.end)
        guard let first = starts.min(), let last = ends.max() else {
            return Timestamp(millisecondsSince1970: 0)..<Timestamp(millisecondsSince1970: 1)
        }
        return first..<max(last, first.adding(milliseconds: 3_600_000))
    }

    /// A tick every few hours (at most eight), on the hour.
    private static func ticks(_ span: Range<Timestamp>, time: LocalTime) -> [(instant: Timestamp, label: String)] {
        let hour: Int64 = 3_600_000
        let length = span.upperBound.millisecondsSince1970 - span.lowerBound.millisecondsSince1970
        let step = max(1, (length / hour + 7) / 8) * hour
        var instant = (span.lowerBound.millisecondsSince1970 / hour + 1) * hour
        var ticks: [(instant: Timestamp, label: String)] = []
        while instant < span.upperBound.millisecondsSince1970, ticks.count < 12 {
            let text = time.format(Timestamp(millisecondsSince1970: instant))
            ticks.append((Timestamp(millisecondsSince1970: instant), String(text.dropFirst(11).prefix(5))))
            instant += step
        }
        return ticks
    }

    /// Every sample of the page with how it counted and the running total.
    private static func table(_ content: Content, _ measure: ExplainedMeasure) -> String {
        let report = content.document.report
        let time = content.document.time
        let isSleep = content.measure == .sleep
        func amount(_ value: Double) -> String { isSleep ? ExplainWording.hoursAndMinutes(value.wholeForDisplay) : ExplainWording.number(value) }
        var html = "<div class=\"table-wrap\"><table><caption>Every sample that touched the day, in the order the figure takes them in"
        html += "</caption><thead><tr>"
        for (heading, isNumber) in [
            ("Sample", false), ("Source", false), ("From", false), ("To", false), ("Value", true), ("In the day", true), ("Counted", true),
            ("Total", true), ("How it counted", false),
        ] {
            html += isNumber ? "<th scope=\"col\" class=\"num\">\(heading)</th>" : "<th scope=\"col\">\(heading)</th>"
        }
        html += "</tr></thead><tbody>"
        for line in measure.samples {
            let sample = line.explained
            let value = isSleep ? (sample.fact.sleep.map { DailyExplainDocument.name(of: $0) } ?? "?") : ExplainWording.number(sample.fact.value)
            html += "<tr><th scope=\"row\"><code>\(line.id.html)</code></th>"
            html += "<td>\(line.sourceName.html) (\(sample.fact.deviceClass.description))</td>"
            html += "<td class=\"when\">\(ExplainWording.clock(sample.fact.start, on: report.date, time: time).html)</td>"
            html += "<td class=\"when\">\(ExplainWording.clock(sample.fact.end, on: report.date, time: time).html)</td>"
            html +=
                "<td class=\"num\">\(value.html)</td><td class=\"num\">\(amount(sample.inDay))</td><td class=\"num\">\(amount(sample.counted))</td>"
            html += "<td class=\"num\">\(sample.runningTotal.map(amount) ?? "–")</td>"
            html += "<td>\(ExplainWording.outcome(sample.outcome, reason: line.reason).html)</td></tr>"
        }
        if measure.samples.isEmpty { html += "<tr><td colspan=\"9\">No sample of this measure touched the day.</td></tr>" }
        return html + "</tbody></table></div>"
    }

    /// Where the page sits among the day's samples, with links to the pages around it.
    private static func pager(_ content: Content, _ measure: ExplainedMeasure, _ render: RenderContext) -> String {
        guard measure.samplesTotal > content.limit else { return "" }
        let day = content.document.report.date
        let name = DailyExplainDocument.name(of: content.measure)
        var html =
            "<p class=\"note\">Samples \(measure.offset + 1)–\(measure.offset + measure.samples.count) of \(Format.count(measure.samplesTotal))"
        html += " (the running totals are the whole day's)."
        if measure.offset > 0 {
            let previous = render.links.dailyExplain(date: day, measure: name, offset: max(0, measure.offset - content.limit))
            html += " <a href=\"\(previous.html)\">Earlier samples</a>"
        }
        if measure.offset + measure.samples.count < measure.samplesTotal {
            let next = render.links.dailyExplain(date: day, measure: name, offset: measure.offset + measure.samples.count)
            html += " <a href=\"\(next.html)\">Later samples</a>"
        }
        return html + "</p>"
    }
}
