import Foundation

/// A value axis: a range from `minimum` to `maximum` with round ticks between.
struct ValueAxis: Equatable {
    /// The value at the bottom of the plot.
    var minimum: Double
    /// The value at the top of the plot.
    var maximum: Double
    /// The tick values, bottom to top.
    var ticks: [Double]

    /// The largest magnitude an axis reaches: no figure comes near it, and a value a ledger
    /// of an older release holds beyond it (a heart rate of 1e17) is drawn at the edge.
    static let largestMagnitude = 1e12
    /// The smallest step between ticks: below it, the ticks of a range of subnormal numbers
    /// would all print 0 anyway.
    static let smallestStep = 1e-6
    /// The most ticks an axis has.
    static let mostTicks = 12

    /// An axis from `low` (0 unless the data goes below it, or `fromZero` is false) up to a
    /// round value at or above `high`, with about four ticks. A range of nothing gets 0–1.
    /// Any value is taken — infinities and values past ``largestMagnitude`` are held at it,
    /// NaN is 0 — and the axis always has a few finite ticks.
    static func covering(low: Double, high: Double, fromZero: Bool = true) -> ValueAxis {
        let (low, high) = (plottable(low), plottable(high))
        var bottom = fromZero ? min(0, low) : low
        var top = max(high, bottom)
        if top - bottom <= 0 { top = bottom + 1 }
        let step = roundStep((top - bottom) / 4)
        bottom = (bottom / step).rounded(.down) * step
        top = (top / step).rounded(.up) * step
        let count = min(max(1, Int(((top - bottom) / step).rounded())), mostTicks)
        let ticks = (0...count).map { bottom + Double($0) * step }
        return ValueAxis(minimum: bottom, maximum: ticks.last ?? top, ticks: ticks)
    }

    /// `value` as an axis can hold it.
    static func plottable(_ value: Double) -> Double {
        value.isNaN ? 0 : min(max(value, -largestMagnitude), largestMagnitude)
    }

    /// 1, 2, 2.5 or 5 times a power of ten, at or above `raw` (at least ``smallestStep``).
    static func roundStep(_ raw: Double) -> Double {
        guard raw.isFinite, raw > smallestStep else { return raw.isFinite ? smallestStep : 1 }
        let raw = min(raw, largestMagnitude)
        let power = pow(10, log10(raw).rounded(.down))
        for factor in [1.0, 2, 2.5, 5, 10] where power * factor >= raw * (1 - 1e-12) { return power * factor }
        return power * 10
    }
}

/// The drawing area every chart shares: a 400 × 220 view box (it scales to the page's
/// width) with margins for the axes' labels.
struct PlotArea {
    static let width = 400.0
    static let height = 220.0
    let left = 46.0
    let right = 10.0
    let top = 22.0
    let bottom = 32.0

    var plotWidth: Double { Self.width - left - right }
    var plotHeight: Double { Self.height - top - bottom }
    var baseline: Double { top + plotHeight }

    /// The y coordinate of a value on an axis; a value beyond the axis (or NaN) is drawn at
    /// its edge, so no shape leaves the plot.
    func y(_ value: Double, on axis: ValueAxis) -> Double {
        let span = axis.maximum - axis.minimum
        guard span > 0, !value.isNaN else { return baseline }
        let held = min(max(value, axis.minimum), axis.maximum)
        return baseline - (held - axis.minimum) / span * plotHeight
    }

    /// The height of a bar from the axis's bottom up to `value`.
    func height(_ value: Double, on axis: ValueAxis) -> Double {
        baseline - y(value, on: axis)
    }

    /// The horizontal slot of category `index` among `count`.
    func slot(_ index: Int, of count: Int) -> (x: Double, width: Double) {
        let width = plotWidth / Double(max(count, 1))
        return (left + Double(index) * width, width)
    }
}
