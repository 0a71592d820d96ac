/// Bars, one per category (a day, a week), each coloured by a class: steps and distance
/// by the device class that won the day, runs per week.
struct BarChart {
    /// One bar.
    struct Bar {
        /// The category's key, written as `data-<keyName>` (`2024-05-01`).
        var key: String
        /// The category's label under the axis (`05-01`).
        var label: String
        /// The value as the contract holds it (steps, metres, runs); nil leaves the slot empty.
        var value: Double?
        /// The bar's CSS class (`watch`, `phone`…).
        var className: String
        /// What the class means, for the tooltip and the table (`watch`).
        var note: String = ""
    }

    var id: String
    var title: String
    var summary: String
    /// The value axis's unit (`steps`, `km`).
    var unit: String
    /// The category axis's name (`day`, `week starting`).
    var categoryUnit: String
    /// The data attribute naming a bar's category: `day` gives `data-day`.
    var keyName = "day"
    var bars: [Bar]
    /// Said instead of a chart when no bar has a value other than 0.
    var emptyMessage: String
    /// Contract value to axis value (metres to kilometres: 0.001).
    var scale = 1.0
    /// An axis value as a tick label.
    var tickText: (Double) -> String = { Format.count($0.wholeForDisplay) }
    /// A contract value as the table and tooltip show it.
    var valueText: (Double) -> String = { Format.count($0.wholeForDisplay) }
    /// The table's headings: the category, the value, and the note's column when there is one.
    var headings: [String]
    var legend: [(className: String, label: String)] = []

    func render() -> String {
        guard bars.contains(where: { ($0.value ?? 0) != 0 }) else { return ChartFigure.empty(id: id, title: title, message: emptyMessage) }
        let area = PlotArea()
        let axis = ValueAxis.covering(low: 0, high: (bars.compactMap(\.value).max() ?? 0) * scale)
        var body = Axes.render(
            area: area, axis: axis, unit: unit, tickText: tickText, categories: bars.map(\.label), categoryUnit: categoryUnit)
        body += "<g class=\"bars\">"
        for (index, bar) in bars.enumerated() {
            guard let value = bar.value else { continue }
            let slot = area.slot(index, of: bars.count)
            let width = max(1, slot.width * 0.72)
            let height = area.height(value * scale, on: axis)
            let note = bar.note.isEmpty ? "" : " (\(bar.note))"
            body += "<rect class=\"bar \(bar.className.html)\" data-\(keyName)=\"\(bar.key.html)\" data-value=\"\(Format.data(value))\""
            body += " x=\"\(Format.coordinate(slot.x + (slot.width - width) / 2))\" y=\"\(Format.coordinate(area.baseline - height))\""
            body += " width=\"\(Format.coordinate(width))\" height=\"\(Format.coordinate(height))\">"
            body += "<title>\((bar.key + ": " + valueText(value) + note).html)</title></rect>"
        }
        body += "</g>"
        let hasNotes = bars.contains { !$0.note.isEmpty }
        let numbers = NumbersTable(
            caption: title, headings: hasNotes ? headings : Array(headings.prefix(2)), numeric: [1],
            rows: bars.map { bar in
                let value = bar.value.map(valueText) ?? "–"
                return hasNotes ? [bar.key, value, bar.note] : [bar.key, value]
            })
        let figure = ChartFigure(id: id, title: title, summary: summary, legend: legend, numbers: numbers)
        return figure.render(svgAttributes: Self.scaleAttributes(area: area, axis: axis, scale: scale), body: body)
    }

    /// The attributes that let a reader (and the tests) map a drawn height back to a value:
    /// the value at the top of the plot in the contract's unit, and the plot's height.
    static func scaleAttributes(area: PlotArea, axis: ValueAxis, scale: Double) -> String {
        "data-value-min=\"\(Format.data(axis.minimum / scale))\" data-value-max=\"\(Format.data(axis.maximum / scale))\" "
            + "data-plot-top=\"\(Format.coordinate(area.top))\" data-plot-height=\"\(Format.coordinate(area.plotHeight))\""
    }
}
