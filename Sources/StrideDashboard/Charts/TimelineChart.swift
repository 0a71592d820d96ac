import StrideEvents

/// A day (or a night's window) as lanes, one per device class: each sample a mark across its
/// span in its class's lane, faint where it counted nothing, and — for steps, distance and
/// energy — the stretches each class won as solid bars under its samples. The picture of
/// which device counted when; its numbers are the stretches (or the samples) in a table.
struct TimelineChart {
    /// One mark in a lane.
    struct Mark {
        var deviceClass: DeviceClass
        var start: Timestamp
        var end: Timestamp
        /// Whether it counted for something (drawn solid) or nothing (drawn faint).
        var counted: Bool
        /// Its tooltip.
        var title: String
    }

    var id: String
    var title: String
    var summary: String
    /// The span the axis covers.
    var span: Range<Timestamp>
    /// Labels of the axis's ticks, every few hours, with the instants they stand at.
    var ticks: [(instant: Timestamp, label: String)]
    /// The samples' marks.
    var samples: [Mark]
    /// The stretches won (solid, under the samples); empty for measures without them.
    var stretches: [Mark]
    var numbers: NumbersTable
    var emptyMessage: String

    static let laneNames: [(DeviceClass, String)] = [(.watch, "watch"), (.phone, "phone"), (.other, "other"), (.summary, "summary")]

    func render() -> String {
        guard !samples.isEmpty else { return ChartFigure.empty(id: id, title: title, message: emptyMessage) }
        let present = Self.laneNames.filter { lane in samples.contains { $0.deviceClass == lane.0 } }
        let area = PlotArea()
        let laneHeight = area.plotHeight / Double(max(present.count, 1))
        let length = Double(span.upperBound.millisecondsSince1970 - span.lowerBound.millisecondsSince1970)
        func x(_ instant: Timestamp) -> Double {
            let offset = Double(instant.millisecondsSince1970 - span.lowerBound.millisecondsSince1970)
            return area.left + min(max(offset / max(length, 1), 0), 1) * area.plotWidth
        }
        var body = "<g class=\"axis\">"
        for tick in ticks {
            let position = Format.coordinate(x(tick.instant))
            body +=
                "<line class=\"grid\" x1=\"\(position)\" x2=\"\(position)\" y1=\"\(Format.coordinate(area.top))\" y2=\"\(Format.coordinate(area.baseline))\"/>"
            body +=
                "<text class=\"tick\" x=\"\(position)\" y=\"\(Format.coordinate(area.baseline + 14))\" text-anchor=\"middle\">\(tick.label.html)</text>"
        }
        for (index, lane) in present.enumerated() {
            let middle = area.top + (Double(index) + 0.5) * laneHeight
            body +=
                "<text class=\"tick\" x=\"\(Format.coordinate(area.left - 4))\" y=\"\(Format.coordinate(middle))\" dy=\"0.32em\" text-anchor=\"end\">\(lane.1.html)</text>"
        }
        body += "</g><g class=\"lanes\">"
        for (index, lane) in present.enumerated() {
            let laneTop = area.top + Double(index) * laneHeight
            for stretch in stretches where stretch.deviceClass == lane.0 {
                body += rect(stretch, x: x, y: laneTop + laneHeight * 0.55, height: laneHeight * 0.35, className: "won \(lane.1)")
            }
            for sample in samples where sample.deviceClass == lane.0 {
                let className = "sample \(lane.1)" + (sample.counted ? "" : " faint")
                body += rect(sample, x: x, y: laneTop + laneHeight * 0.12, height: laneHeight * 0.35, className: className)
            }
        }
        body += "</g>"
        let legend =
            [("sample watch", "a sample (faint: it counted nothing)")] + (stretches.isEmpty ? [] : [("won watch", "a stretch its class won")])
        let figure = ChartFigure(id: id, title: title, summary: summary, legend: legend, numbers: numbers)
        return figure.render(
            svgAttributes: "data-span-start=\"\(span.lowerBound.millisecondsSince1970)\" data-span-end=\"\(span.upperBound.millisecondsSince1970)\"",
            body: body)
    }

    /// A mark as a rectangle, at least one unit wide (an instant is a tick).
    private func rect(_ mark: Mark, x: (Timestamp) -> Double, y: Double, height: Double, className: String) -> String {
        let left = x(mark.start)
        let width = max(1, x(mark.end) - left)
        return "<rect class=\"\(className.html)\" data-start=\"\(mark.start.millisecondsSince1970)\" data-end=\"\(mark.end.millisecondsSince1970)\""
            + " x=\"\(Format.coordinate(left))\" y=\"\(Format.coordinate(y))\" width=\"\(Format.coordinate(width))\" height=\"\(Format.coordinate(height))\">"
            + "<title>\(mark.title.html)</title></rect>"
    }
}
