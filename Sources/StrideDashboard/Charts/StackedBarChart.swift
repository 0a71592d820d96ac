/// Columns of stacked segments, one column per category: sleep per night by stage.
struct StackedBarChart {
    /// One series of segments (a sleep stage): its key, label and CSS class.
    struct Series {
        var key: String
        var label: String
        var className: String
    }

    /// One column: its category and a value per series (nil or 0 draws nothing).
    struct Column {
        var key: String
        var label: String
        /// Values by series key, as the contract holds them (seconds).
        var values: [String: Double]
        /// A remark for the table (`watch`, `in bed only`).
        var note: String = ""
    }

    var id: String
    var title: String
    var summary: String
    var unit: String
    var categoryUnit: String
    var keyName = "day"
    /// Bottom to top.
    var series: [Series]
    var columns: [Column]
    var emptyMessage: String
    var scale = 1.0
    var tickText: (Double) -> String = { Format.count($0.wholeForDisplay) }
    var valueText: (Double) -> String = { Format.count($0.wholeForDisplay) }
    /// The table's first heading (the category) and last (the note's).
    var categoryHeading: String
    var noteHeading: String

    func render() -> String {
        let totals = columns.map { column in series.reduce(0.0) { $0 + (column.values[$1.key] ?? 0) } }
        guard totals.contains(where: { $0 > 0 }) else { return ChartFigure.empty(id: id, title: title, message: emptyMessage) }
        let area = PlotArea()
        let axis = ValueAxis.covering(low: 0, high: (totals.max() ?? 0) * scale)
        var body = Axes.render(
            area: area, axis: axis, unit: unit, tickText: tickText, categories: columns.map(\.label), categoryUnit: categoryUnit)
        body += "<g class=\"bars\">"
        for (index, column) in columns.enumerated() {
            let slot = area.slot(index, of: columns.count)
            let width = max(1, slot.width * 0.72)
            let x = Format.coordinate(slot.x + (slot.width - width) / 2)
            var stacked = 0.0
            for entry in series {
                guard let value = column.values[entry.key], value > 0 else { continue }
                let bottom = area.y(stacked * scale, on: axis)
                stacked += value
                let top = area.y(stacked * scale, on: axis)
                body += "<rect class=\"segment \(entry.className.html)\" data-\(keyName)=\"\(column.key.html)\" data-series=\"\(entry.key.html)\""
                body += " data-value=\"\(Format.data(value))\" x=\"\(x)\" y=\"\(Format.coordinate(top))\" width=\"\(Format.coordinate(width))\""
                body +=
                    " height=\"\(Format.coordinate(bottom - top))\"><title>\((column.key + " " + entry.label + ": " + valueText(value)).html)</title></rect>"
            }
        }
        body += "</g>"
        let used = series.filter { entry in columns.contains { ($0.values[entry.key] ?? 0) > 0 } }
        let numbers = NumbersTable(
            caption: title, headings: [categoryHeading] + used.map(\.label) + [noteHeading], numeric: Set(1...max(1, used.count)),
            rows: columns.map { column in
                [column.key] + used.map { entry in column.values[entry.key].map(valueText) ?? "–" } + [column.note]
            })
        let figure = ChartFigure(
            id: id, title: title, summary: summary, legend: used.map { ($0.className, $0.label) }, numbers: numbers)
        return figure.render(svgAttributes: BarChart.scaleAttributes(area: area, axis: axis, scale: scale), body: body)
    }
}
