/// Lines over categories (days), one per series: fitness, fatigue and form over time. The
/// axis covers every value, below zero too (form is often negative).
struct LineChart {
    /// One line: its key, label and CSS class, and a value per category.
    struct Series {
        var key: String
        var label: String
        var className: String
        var values: [Double]
    }

    var id: String
    var title: String
    var summary: String
    var unit: String
    var categoryUnit: String
    /// The categories' keys (`2024-05-01`) and labels under the axis (`05-01`).
    var keys: [String]
    var labels: [String]
    var series: [Series]
    var emptyMessage: String
    var valueText: (Double) -> String = { Format.count($0.wholeForDisplay) }

    func render() -> String {
        let all = series.flatMap(\.values)
        guard !keys.isEmpty, all.contains(where: { $0 != 0 }) else { return ChartFigure.empty(id: id, title: title, message: emptyMessage) }
        let area = PlotArea()
        let axis = ValueAxis.covering(low: all.min() ?? 0, high: all.max() ?? 0)
        var body = Axes.render(
            area: area, axis: axis, unit: unit, tickText: { Format.count($0.wholeForDisplay) }, categories: labels, categoryUnit: categoryUnit)
        if axis.minimum < 0 {
            let zero = Format.coordinate(area.y(0, on: axis))
            body +=
                "<line class=\"baseline\" x1=\"\(Format.coordinate(area.left))\" x2=\"\(Format.coordinate(area.left + area.plotWidth))\" y1=\"\(zero)\" y2=\"\(zero)\"/>"
        }
        for line in series {
            let points = line.values.enumerated().map { index, value in
                let slot = area.slot(index, of: keys.count)
                return Format.coordinate(slot.x + slot.width / 2) + "," + Format.coordinate(area.y(value, on: axis))
            }
            body += "<g class=\"line \(line.className.html)\" data-series=\"\(line.key.html)\">"
            body += "<polyline fill=\"none\" points=\"\(points.joined(separator: " "))\"/></g>"
        }
        let numbers = NumbersTable(
            caption: title, headings: [categoryUnit] + series.map(\.label), numeric: Set(1...series.count),
            rows: keys.indices.map { index in [keys[index]] + series.map { valueText($0.values[index]) } })
        let figure = ChartFigure(id: id, title: title, summary: summary, legend: series.map { ($0.className, $0.label) }, numbers: numbers)
        return figure.render(svgAttributes: BarChart.scaleAttributes(area: area, axis: axis, scale: 1), body: body)
    }
}
