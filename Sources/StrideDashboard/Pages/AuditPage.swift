import ShoeMileage
import StrideContract
import StrideEvents
import StrideLedger

/// A shoe's audit, `mileage explain` in a page: every event that moved its kilometres, as a
/// table and as a cumulative line, each step linked to its event in the log.
enum AuditPage {
    /// What the page reads.
    struct Content {
        /// The shoe as it stood (nil when it was not on the rack yet).
        var shoe: ShoeView?
        /// The shoe's name now (for a shoe that did not exist yet in the past shown).
        var name: String
        var id: String
        var steps: [ShoeAuditDocument.Step]
        var time: LocalTime
    }

    /// - Throws: ``ShoeError/unknownShoe(_:known:)`` for a shoe the ledger does not know
    ///   (an id or a name), or a storage failure.
    static func read(_ reader: PageReader, shoe text: String) throws -> Content {
        let found = try reader.ledger.shoe(named: text)
        let view = try reader.shoes().first { $0.shoe.id == found.id }
        let steps = try view.map { try reader.audit(of: $0) } ?? []
        return Content(shoe: view, name: found.name, id: ShoeID.text(found.id), steps: steps, time: reader.time)
    }

    static func render(_ content: Content, _ render: RenderContext) -> String {
        var html = Shell.heading(render.level, "How \(content.shoe?.shoe.name ?? content.name) reached its kilometres")
        guard let view = content.shoe else {
            return html + "<p class=\"note\">This shoe was not on the rack yet at that point.</p>"
        }
        let shoe = view.shoe
        let total = content.steps.last?.runningTotal ?? 0
        let matches = abs(total - shoe.kilometers) < 0.0005
        html += "<p class=\"lead\">Every event that moved the figure, in order, with the running total. "
        html += "The figure: <strong>\(Format.kilometers(shoe.kilometers))</strong> "
        html +=
            matches
            ? "<span class=\"badge ok\">the last total equals it</span>"
            : "<span class=\"badge bad\">the last total is \(Format.kilometers(total))</span>"
        html += " · <a href=\"\(render.links.shoes.html)\">the rack</a></p>"
        html += ProgressBar.render(kilometers: shoe.kilometers, goal: shoe.goalKilometers, label: shoe.name)
        let shown = Array(content.steps.suffix(shownSteps))
        if shown.count < content.steps.count {
            html += "<p class=\"note\">The latest \(shown.count) of \(content.steps.count) events; the whole audit is "
            html += "<code>stride mileage explain</code>, or <code>GET /v1/mileage/explain</code>.</p>"
        }
        let chart = CumulativeChart(
            id: render.idPrefix + "audit-line-" + content.id, title: "Kilometres of \(shoe.name), event by event",
            summary: "The running total of \(shoe.name)'s kilometres after each event of its audit; the last point is the shoe's figure.",
            unit: "km",
            steps: shown.map { step in
                .init(
                    sequence: step.entry.sequence, total: step.runningTotal, change: signed(step.entry.kilometers), note: step.entry.kindName,
                    href: render.links.event(step.entry.sequence))
            },
            emptyMessage: "No event has moved this shoe's kilometres.", tickText: { Format.fixed($0, 0) }, valueText: { Format.fixed($0, 2) + " km" },
            headings: ["Event", "Change (km)", "Total", "What"])
        html += "<div class=\"charts\">" + chart.render() + "</div>"
        html += table(content, shown, render)
        return html
    }

    /// The most steps the chart draws and the table lists (the latest): a shoe worn for
    /// years has thousands, and a page stays small and quick.
    static let shownSteps = 200

    /// `+5.02`, `-5.02`.
    static func signed(_ kilometers: Double) -> String {
        (kilometers >= 0 ? "+" : "-") + Format.fixed(abs(kilometers), 2)
    }

    private static func table(_ content: Content, _ steps: [ShoeAuditDocument.Step], _ render: RenderContext) -> String {
        var html = "<div class=\"table-wrap\"><table><caption>The audit of \(content.shoe?.shoe.name.html ?? "")</caption><thead><tr>"
        for heading in ["Event", "Recorded", "What", "Detail", "Km", "Total"] { html += "<th scope=\"col\">\(heading)</th>" }
        html += "</tr></thead><tbody>"
        for step in steps {
            let entry = step.entry
            let sequence = "#\(entry.sequence)"
            let link = render.links.event(entry.sequence).map { "<a href=\"\($0.html)\">\(sequence)</a>" } ?? sequence
            var what = entry.kindName.html
            if let workout = entry.workout { what += "<br><code>\(Ledger.workoutID(workout))</code>" }
            var detail = entry.detail.html
            if let sentBy = entry.sentBy { detail += (detail.isEmpty ? "" : ", ") + "via \(sentBy.html)" }
            html += "<tr><th scope=\"row\">\(link)</th><td class=\"when\">\(Shell.short(content.time.format(entry.recordedAt)))</td><td>\(what)</td>"
            html +=
                "<td class=\"detail\">\(detail)</td><td class=\"num\">\(signed(entry.kilometers))</td><td class=\"num\">\(Format.fixed(step.runningTotal, 2))</td></tr>"
        }
        if content.steps.isEmpty { html += "<tr><td colspan=\"6\">No event has moved this shoe's kilometres.</td></tr>" }
        return html + "</tbody></table></div>"
    }
}
