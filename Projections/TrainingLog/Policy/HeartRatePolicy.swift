import Foundation
import StrideEvents

/// Heart rate in the training log: zones by percent of the maximum and Banister's TRIMP,
/// each reading holding until the next (``RunStream/holds(_:)``). Pure.
public enum TrainingHeartRate {
    /// The five zones by percent of the maximum: Z1 [50, 60), Z2 [60, 70), Z3 [70, 80),
    /// Z4 [80, 90), Z5 90 and above; below 50 % no zone.
    public static func zone(_ heartRate: Double, maximum: Double) -> Int? {
        guard maximum > 0, heartRate.isFinite else { return nil }
        let percent = heartRate / maximum * 100
        switch percent {
        case ..<50: return nil
        case ..<60: return 1
        case ..<70: return 2
        case ..<80: return 3
        case ..<90: return 4
        default: return 5
        }
    }

    /// How long the run's heart rate held each value: each reading with a plausible heart rate
    /// (``Plausible/heartRate``; a strap's 0 or 255 is no reading) holds until the next such
    /// reading, at most 10 s (``RunStream/holds(_:)``). Sorted by heart rate; what zones and
    /// TRIMP are computed from, for any maximum and resting heart rate.
    public static func timeAtHeartRates(_ stream: RunStream) -> [HeartRateTime] {
        let readings = stream.readings.filter { $0.heartRate.map(Plausible.heartRate.contains) ?? false }
        var seconds: [Double: Double] = [:]
        for (reading, hold) in zip(readings, RunStream.holds(readings)) where hold > 0 {
            if let heartRate = reading.heartRate { seconds[heartRate, default: 0] += hold }
        }
        return seconds.map { HeartRateTime(heartRate: $0.key, seconds: $0.value) }.sorted { $0.heartRate < $1.heartRate }
    }

    /// Seconds in each zone (index 0 is Z1).
    public static func secondsInZones(_ time: [HeartRateTime], maximum: Double) -> [Double] {
        var seconds = [Double](repeating: 0, count: 5)
        for held in time {
            if let zone = zone(held.heartRate, maximum: maximum) { seconds[zone - 1] += held.seconds }
        }
        return seconds
    }

    /// Seconds in each zone (index 0 is Z1), each reading holding until the next, at most 10 s.
    public static func secondsInZones(_ stream: RunStream, maximum: Double) -> [Double] {
        secondsInZones(timeAtHeartRates(stream), maximum: maximum)
    }

    /// Banister's TRIMP: the sum over readings of minutes × HRr × 0.64 × e^(1.92 × HRr), where
    /// HRr = (HR − rest) / (max − rest), clamped to [0, 1].
    public static func trimp(_ time: [HeartRateTime], resting: Double, maximum: Double) -> Double {
        guard maximum > resting else { return 0 }
        var total = 0.0
        for held in time {
            let reserve = min(1, max(0, (held.heartRate - resting) / (maximum - resting)))
            total += held.seconds / 60 * reserve * 0.64 * exp(1.92 * reserve)
        }
        return total
    }

    /// TRIMP of a stream, each reading holding until the next, at most 10 s.
    public static func trimp(_ stream: RunStream, resting: Double, maximum: Double) -> Double {
        trimp(timeAtHeartRates(stream), resting: resting, maximum: maximum)
    }
}

/// How long a run's heart rate held one value.
public struct HeartRateTime: Sendable, Hashable {
    /// Beats a minute.
    public var heartRate: Double
    public var seconds: Double

    public init(heartRate: Double, seconds: Double) {
        self.heartRate = heartRate
        self.seconds = seconds
    }
}
