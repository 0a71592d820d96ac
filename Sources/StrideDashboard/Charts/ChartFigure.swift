import Foundation

/// What every chart is wrapped in: a figure with its caption, the SVG, a legend, and its
/// numbers as a table a click away — or, with no data, a sentence saying so.
struct ChartFigure {
    /// Unique on the page: the SVG's title and description ids derive from it.
    var id: String
    /// The caption and the SVG's `<title>`.
    var title: String
    /// A sentence describing what the chart shows, for screen readers (`<desc>`).
    var summary: String
    /// The colour key: CSS class and label.
    var legend: [(className: String, label: String)] = []
    /// The numbers behind the chart.
    var numbers: NumbersTable

    /// The figure around an SVG body (everything inside `<svg>` after the title).
    func render(svgAttributes: String, body: String) -> String {
        var html = "<figure class=\"chart\" id=\"\(id.html)\">"
        html += "<figcaption>\(title.html)</figcaption>"
        html += "<svg class=\"chart-svg\" viewBox=\"0 0 \(Int(PlotArea.width)) \(Int(PlotArea.height))\" width=\"100%\" role=\"img\" "
        html += "aria-labelledby=\"\(id.html)-title \(id.html)-desc\" \(svgAttributes)>"
        html += "<title id=\"\(id.html)-title\">\(title.html)</title><desc id=\"\(id.html)-desc\">\(summary.html)</desc>"
        html += body
        html += "</svg>"
        html += Self.legend(legend)
        html += "<details><summary>Numbers</summary>\(numbers.render())</details>"
        html += "</figure>"
        return html
    }

    /// The legend as a list of swatches.
    static func legend(_ items: [(className: String, label: String)]) -> String {
        guard !items.isEmpty else { return "" }
        var html = "<ul class=\"legend\">"
        for item in items {
            html += "<li><span class=\"swatch \(item.className)\" aria-hidden=\"true\"></span>\(item.label.html)</li>"
        }
        return html + "</ul>"
    }

    /// A chart with nothing to draw: its caption and a sentence saying so, never an empty box.
    static func empty(id: String, title: String, message: String) -> String {
        "<figure class=\"chart empty\" id=\"\(id.html)\"><figcaption>\(title.html)</figcaption><p class=\"empty-note\">\(message.html)</p></figure>"
    }
}

/// A table of a chart's numbers (or any figures): a caption, headings, rows of text.
struct NumbersTable {
    var caption: String
    var headings: [String]
    /// Which columns hold numbers (aligned right).
    var numeric: Set<Int> = []
    var rows: [[String]]

    func render() -> String {
        var html = "<div class=\"table-wrap\"><table><caption>\(caption.html)</caption><thead><tr>"
        for (index, heading) in headings.enumerated() {
            html += numeric.contains(index) ? "<th scope=\"col\" class=\"num\">\(heading.html)</th>" : "<th scope=\"col\">\(heading.html)</th>"
        }
        html += "</tr></thead><tbody>"
        for row in rows {
            html += "<tr>"
            for (index, cell) in row.enumerated() {
                let tag = index == 0 ? "th scope=\"row\" class=\"when\"" : "td"
                let close = index == 0 ? "th" : "td"
                html += numeric.contains(index) ? "<\(tag) class=\"num\">\(cell.html)</\(close)>" : "<\(tag)>\(cell.html)</\(close)>"
            }
            html += "</tr>"
        }
        return html + "</tbody></table></div>"
    }
}

/// The axes: gridlines with value labels on the left, the unit above them, category labels
/// under the baseline, and the baseline's unit at its right end.
enum Axes {
    /// A tick of an axis whose ticks are `step` apart (less than 1), with as many decimals as
    /// the step needs (0.25 apart: two; at most six).
    static func fractional(_ value: Double, step: Double) -> String {
        guard step > 0, step.isFinite else { return Format.count(value.wholeForDisplay) }
        var decimals = max(0, Int((-log10(step)).rounded(.up)))
        if decimals < 6, ((step * pow(10, Double(decimals))) - (step * pow(10, Double(decimals))).rounded()).magnitude > 1e-9 { decimals += 1 }
        return Format.fixed(value, min(decimals, 6))
    }

    static func render(
        area: PlotArea, axis: ValueAxis, unit: String, tickText: (Double) -> String, categories: [String], categoryUnit: String
    ) -> String {
        var svg = "<g class=\"axis\">"
        // Ticks less than one apart (a total of 0 km spans 0 to 1) are labelled with the
        // decimals that tell them apart; whole numbers would print 0, 0, 0, 1, 1.
        let step = axis.ticks.count > 1 ? axis.ticks[1] - axis.ticks[0] : 1
        let tickText = step >= 1 ? tickText : { Axes.fractional($0, step: step) }
        for tick in axis.ticks {
            let y = Format.coordinate(area.y(tick, on: axis))
            svg +=
                "<line class=\"grid\" x1=\"\(Format.coordinate(area.left))\" x2=\"\(Format.coordinate(area.left + area.plotWidth))\" y1=\"\(y)\" y2=\"\(y)\"/>"
            svg +=
                "<text class=\"tick\" x=\"\(Format.coordinate(area.left - 4))\" y=\"\(y)\" dy=\"0.32em\" text-anchor=\"end\">\(tickText(tick).html)</text>"
        }
        svg += "<text class=\"unit\" x=\"\(Format.coordinate(area.left - 4))\" y=\"11\" text-anchor=\"end\">\(unit.html)</text>"
        let base = Format.coordinate(area.baseline)
        svg +=
            "<line class=\"baseline\" x1=\"\(Format.coordinate(area.left))\" x2=\"\(Format.coordinate(area.left + area.plotWidth))\" y1=\"\(base)\" y2=\"\(base)\"/>"
        svg +=
            "<line class=\"baseline\" x1=\"\(Format.coordinate(area.left))\" x2=\"\(Format.coordinate(area.left))\" y1=\"\(Format.coordinate(area.top))\" y2=\"\(base)\"/>"
        // As many labels as fit side by side (about 7 units a character), the last always
        // named, each kept inside the view box.
        let longest = Double(categories.map(\.count).max() ?? 1)
        let capacity = max(2, Int(area.plotWidth / (longest * 7 + 10)))
        let every = max(1, Int((Double(categories.count) / Double(capacity)).rounded(.up)))
        let last = categories.count - 1
        for (index, label) in categories.enumerated() where index == last || (index % every == 0 && last - index >= every) {
            let slot = area.slot(index, of: categories.count)
            let half = Double(label.count) * 3.5
            let x = min(max(slot.x + slot.width / 2, half + 2), PlotArea.width - half - 1)
            svg +=
                "<text class=\"tick\" x=\"\(Format.coordinate(x))\" y=\"\(Format.coordinate(area.baseline + 14))\" text-anchor=\"middle\">\(label.html)</text>"
        }
        svg +=
            "<text class=\"unit\" x=\"\(Format.coordinate(area.left + area.plotWidth))\" y=\"\(Format.coordinate(PlotArea.height - 2))\" text-anchor=\"end\">\(categoryUnit.html)</text>"
        return svg + "</g>"
    }
}
