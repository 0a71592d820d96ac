/// A band from minimum to maximum per category, with a line through the averages and a
/// dashed line through a second measure: heart rate with its resting rate.
struct RangeChart {
    /// One category's figures; any may be missing.
    struct Point {
        var key: String
        var label: String
        var minimum: Double?
        var maximum: Double?
        var average: Double?
        /// The second line's value (resting heart rate).
        var marker: Double?
    }

    var id: String
    var title: String
    var summary: String
    var unit: String
    var categoryUnit: String
    var keyName = "day"
    var points: [Point]
    var emptyMessage: String
    /// The table's headings: category, minimum, maximum, average, marker.
    var headings: [String]
    /// Legend labels of the band, the average line and the marker line.
    var bandLabel: String
    var averageLabel: String
    var markerLabel: String
    var valueText: (Double) -> String = { String($0.wholeForDisplay) }

    func render() -> String {
        let values = points.flatMap { [$0.minimum, $0.maximum, $0.average, $0.marker].compactMap { $0 } }
        guard let low = values.min(), let high = values.max() else {
            return ChartFigure.empty(id: id, title: title, message: emptyMessage)
        }
        let area = PlotArea()
        // Heart rates sit far from 0: the axis starts a round step below the lowest value.
        let axis = ValueAxis.covering(low: max(0, low - 5), high: high + 5, fromZero: false)
        var body = Axes.render(
            area: area, axis: axis, unit: unit, tickText: { String($0.wholeForDisplay) }, categories: points.map(\.label),
            categoryUnit: categoryUnit)
        body += "<g class=\"bands\">"
        for (index, point) in points.enumerated() {
            guard let minimum = point.minimum, let maximum = point.maximum else { continue }
            let slot = area.slot(index, of: points.count)
            let width = max(1, slot.width * 0.56)
            let top = area.y(maximum, on: axis)
            let height = max(1, area.y(minimum, on: axis) - top)
            body +=
                "<rect class=\"band\" data-\(keyName)=\"\(point.key.html)\" data-min=\"\(Format.data(minimum))\" data-max=\"\(Format.data(maximum))\""
            body += " x=\"\(Format.coordinate(slot.x + (slot.width - width) / 2))\" y=\"\(Format.coordinate(top))\""
            body += " width=\"\(Format.coordinate(width))\" height=\"\(Format.coordinate(height))\" rx=\"2\">"
            body += "<title>\((point.key + ": " + valueText(minimum) + "–" + valueText(maximum) + " " + unit).html)</title></rect>"
        }
        body += "</g>"
        body += line(area: area, axis: axis, className: "average", label: averageLabel) { $0.average }
        body += line(area: area, axis: axis, className: "marker", label: markerLabel) { $0.marker }
        let numbers = NumbersTable(
            caption: title, headings: headings, numeric: [1, 2, 3, 4],
            rows: points.map { point in
                [point.key] + [point.minimum, point.maximum, point.average, point.marker].map { $0.map(valueText) ?? "–" }
            })
        let figure = ChartFigure(
            id: id, title: title, summary: summary, legend: [("band", bandLabel), ("average", averageLabel), ("marker", markerLabel)],
            numbers: numbers)
        return figure.render(svgAttributes: BarChart.scaleAttributes(area: area, axis: axis, scale: 1), body: body)
    }

    /// A polyline through the categories that have the value (broken where one has none),
    /// with a dot on each.
    private func line(area: PlotArea, axis: ValueAxis, className: String, label: String, value: (Point) -> Double?) -> String {
        var svg = "<g class=\"line \(className)\">"
        var run: [String] = []
        var dots = ""
        func flush() {
            if run.count > 1 { svg += "<polyline fill=\"none\" points=\"\(run.joined(separator: " "))\"/>" }
            run = []
        }
        for (index, point) in points.enumerated() {
            guard let current = value(point) else {
                flush()
                continue
            }
            let slot = area.slot(index, of: points.count)
            let x = Format.coordinate(slot.x + slot.width / 2)
            let y = Format.coordinate(area.y(current, on: axis))
            run.append(x + "," + y)
            dots +=
                "<circle class=\"dot\" data-\(keyName)=\"\(point.key.html)\" data-value=\"\(Format.data(current))\" cx=\"\(x)\" cy=\"\(y)\" r=\"2.2\">"
            dots += "<title>\((point.key + " " + label + ": " + valueText(current) + " " + unit).html)</title></circle>"
        }
        flush()
        return svg + dots + "</g>"
    }
}
