import StrideEvents

/// A running total as a step line, one step per event: a shoe's kilometres through its
/// audit, the points balance through its history. Each step's dot links to its event.
struct CumulativeChart {
    /// One step: the event and the total after it.
    struct Step {
        /// The event's sequence (`data-sequence`).
        var sequence: UInt64
        /// The total after the event, as the contract holds it.
        var total: Double
        /// What the event changed, for the table.
        var change: String
        /// What the event was, for the table and tooltip.
        var note: String
        /// Where the dot links (the event in the log), if anywhere.
        var href: String?
    }

    var id: String
    var title: String
    var summary: String
    var unit: String
    var steps: [Step]
    var emptyMessage: String
    var tickText: (Double) -> String = { Format.count($0.wholeForDisplay) }
    var valueText: (Double) -> String = { Format.count($0.wholeForDisplay) }
    /// The table's headings: sequence, change, total, what.
    var headings: [String]

    func render() -> String {
        guard !steps.isEmpty else { return ChartFigure.empty(id: id, title: title, message: emptyMessage) }
        let area = PlotArea()
        let totals = steps.map(\.total)
        let axis = ValueAxis.covering(low: totals.min() ?? 0, high: totals.max() ?? 0)
        var body = Axes.render(
            area: area, axis: axis, unit: unit, tickText: tickText, categories: steps.map { "#\($0.sequence)" }, categoryUnit: "event")
        var path = ""
        var dots = ""
        for (index, step) in steps.enumerated() {
            let slot = area.slot(index, of: steps.count)
            let x = Format.coordinate(slot.x + slot.width / 2)
            let y = Format.coordinate(area.y(step.total, on: axis))
            path += index == 0 ? "M\(x) \(y)" : " H\(x) V\(y)"
            var dot =
                "<circle class=\"dot\" data-sequence=\"\(step.sequence)\" data-value=\"\(Format.data(step.total))\" cx=\"\(x)\" cy=\"\(y)\" r=\"3\">"
            dot += "<title>\(("#\(step.sequence) " + step.note + ": " + valueText(step.total)).html)</title></circle>"
            dots += step.href.map { "<a href=\"\($0.html)\">" + dot + "</a>" } ?? dot
        }
        body += "<g class=\"line cumulative\"><path fill=\"none\" d=\"\(path)\"/>\(dots)</g>"
        let numbers = NumbersTable(
            caption: title, headings: headings, numeric: [0, 1, 2],
            rows: steps.map { ["\($0.sequence)", $0.change, valueText($0.total), $0.note] })
        let figure = ChartFigure(id: id, title: title, summary: summary, numbers: numbers)
        return figure.render(svgAttributes: BarChart.scaleAttributes(area: area, axis: axis, scale: 1), body: body)
    }
}

/// A shoe's kilometres against its goal as a bar: the filled share is `km / goal`
/// (whole past the goal). A goal outside ``Plausible/shoeGoalKilometres`` — one an older
/// release accepted, such as 1e-300 km — is left out, and the page says so.
enum ProgressBar {
    static func render(kilometers: Double, goal: Double?, label: String) -> String {
        if let goal, !Plausible.shoeGoalKilometres.contains(goal) {
            let written = goal.isFinite ? PlausibleRange.number(goal) : "\(goal)"
            return "<p class=\"progress-none\">\(Format.kilometers(kilometers)) · goal of \(written.html) km left out: "
                + "outside \(Plausible.shoeGoalKilometres.text)</p>"
        }
        guard let goal else {
            return "<p class=\"progress-none\">\(Format.kilometers(kilometers)) · no goal set</p>"
        }
        let share = min(max(kilometers / goal, 0), 1)
        let percent = (kilometers * 100 / goal).wholeForDisplay
        let text = "\(Format.fixed(kilometers, 1)) of \(Format.fixed(goal, 0)) km (\(percent)%)"
        var html = "<div class=\"progress\"><svg class=\"progress-bar\" viewBox=\"0 0 100 8\" preserveAspectRatio=\"none\" role=\"img\" "
        html += "aria-label=\"\((label + ": " + text).html)\" data-value=\"\(Format.data(kilometers))\" data-goal=\"\(Format.data(goal))\">"
        html += "<rect class=\"track\" x=\"0\" y=\"0\" width=\"100\" height=\"8\" rx=\"4\"/>"
        html +=
            "<rect class=\"fill\(kilometers >= goal ? " over" : "")\" x=\"0\" y=\"0\" width=\"\(Format.coordinate(share * 100))\" height=\"8\" rx=\"4\"/>"
        html += "</svg><span class=\"progress-text\">\(text.html)</span></div>"
        return html
    }
}
