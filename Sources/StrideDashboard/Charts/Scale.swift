/// A value axis: a range from `minimum` to `maximum` with round ticks between.
struct ValueAxis: Equatable {
    /// The value at the bottom of the plot.
    var minimum: Double
    /// The value at the top of the plot.
    var maximum: Double
    /// The tick values, bottom to top.
    var ticks: [Double]

    /// An axis from `low` (0 unless the data goes below it, or `fromZero` is false) up to a
    /// round value at or above `high`, with about four ticks. A range of nothing gets 0–1.
    static func covering(low: Double, high: Double, fromZero: Bool = true) -> ValueAxis {
        var bottom = fromZero ? min(0, low) : low
        var top = max(high, bottom)
        if top - bottom <= 0 { top = bottom + 1 }
        let step = roundStep((top - bottom) / 4)
        bottom = (bottom / step).rounded(.down) * step
        top = (top / step).rounded(.up) * step
        var ticks: [Double] = []
        var tick = bottom
        while tick <= top + step / 1000 {
            ticks.append(tick)
            tick += step
        }
        return ValueAxis(minimum: bottom, maximum: top, ticks: ticks)
    }

    /// 1, 2, 2.5 or 5 times a power of ten, at or above `raw`.
    static func roundStep(_ raw: Double) -> Double {
        guard raw > 0, raw.isFinite else { return 1 }
        var power = 1.0
        while power * 10 <= raw { power *= 10 }
        while power > raw { power /= 10 }
        for factor in [1.0, 2, 2.5, 5, 10] where power * factor >= raw { return power * factor }
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

    /// The y coordinate of a value on an axis.
    func y(_ value: Double, on axis: ValueAxis) -> Double {
        let span = axis.maximum - axis.minimum
        guard span > 0 else { return baseline }
        return baseline - (value - axis.minimum) / span * plotHeight
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
