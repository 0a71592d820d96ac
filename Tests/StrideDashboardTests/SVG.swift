import Foundation

/// Reads what a chart drew back out of a page's HTML: the tests compare drawn geometry (a
/// bar's height, a progress bar's fill) with the contract's numbers, so that a chart drawing
/// the wrong data fails.
struct DrawnChart {
    /// The `<svg>` element's attributes.
    let attributes: [String: String]
    /// Everything inside the `<svg>` element.
    let body: String

    /// The chart in the figure with this id, or nil when the page has no such drawn chart.
    init?(in html: String, figure id: String) {
        guard let figure = html.range(of: "<figure class=\"chart\" id=\"\(id)\"") else { return nil }
        let rest = html[figure.upperBound...]
        guard let open = rest.range(of: "<svg "), let close = rest.range(of: "</svg>") else { return nil }
        let tagEnd = rest[open.upperBound...].firstIndex(of: ">") ?? open.upperBound
        attributes = Self.attributes(String(rest[open.lowerBound..<tagEnd]))
        body = String(rest[rest.index(after: tagEnd)..<close.lowerBound])
    }

    /// The value a length drawn from the plot's bottom stands for, on the chart's value axis.
    func value(ofHeight height: Double) -> Double {
        let low = Double(attributes["data-value-min"] ?? "") ?? .nan
        let high = Double(attributes["data-value-max"] ?? "") ?? .nan
        let plot = Double(attributes["data-plot-height"] ?? "") ?? .nan
        return height / plot * (high - low)
    }

    /// The elements of a tag whose attributes include all of `matching`.
    func elements(_ tag: String, matching: [String: String] = [:]) -> [[String: String]] {
        Self.elements(tag, in: body).filter { element in matching.allSatisfy { element[$0.key] == $0.value } }
    }

    /// The attributes of every `<tag …>` in `text`.
    static func elements(_ tag: String, in text: String) -> [[String: String]] {
        var found: [[String: String]] = []
        var rest = Substring(text)
        while let start = rest.range(of: "<\(tag) ") {
            let end = rest[start.upperBound...].firstIndex(of: ">") ?? rest.endIndex
            found.append(attributes(String(rest[start.lowerBound..<end])))
            rest = rest[end...]
        }
        return found
    }

    /// `name="value"` pairs of one tag.
    static func attributes(_ tag: String) -> [String: String] {
        var result: [String: String] = [:]
        let pattern = #"([a-zA-Z-]+)="([^"]*)""#
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return result }
        let text = tag as NSString
        for match in expression.matches(in: tag, range: NSRange(location: 0, length: text.length)) {
            result[text.substring(with: match.range(at: 1))] = text.substring(with: match.range(at: 2))
        }
        return result
    }
}

extension Dictionary where Key == String, Value == String {
    /// An attribute as a number (NaN when absent).
    func number(_ name: String) -> Double { Double(self[name] ?? "") ?? .nan }
}
