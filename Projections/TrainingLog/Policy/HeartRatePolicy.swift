import Foundation

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

    /// Seconds in each zone (index 0 is Z1), each reading holding until the next, at most 10 s.
    public static func secondsInZones(_ stream: RunStream, maximum: Double) -> [Double] {
        let readings = stream.readings.filter { $0.heartRate != nil }
        var seconds = [Double](repeating: 0, count: 5)
        for (reading, hold) in zip(readings, RunStream.holds(readings)) {
            if let heartRate = reading.heartRate, let zone = zone(heartRate, maximum: maximum) { seconds[zone - 1] += hold }
        }
        return seconds
    }

    /// Banister's TRIMP: the sum over readings of minutes × HRr × 0.64 × e^(1.92 × HRr), where
    /// HRr = (HR − rest) / (max − rest), clamped to [0, 1]; each reading holds until the next,
    /// at most 10 s.
    public static func trimp(_ stream: RunStream, resting: Double, maximum: Double) -> Double {
        guard maximum > resting else { return 0 }
        let readings = stream.readings.filter { $0.heartRate != nil }
        var total = 0.0
        for (reading, hold) in zip(readings, RunStream.holds(readings)) {
            guard let heartRate = reading.heartRate else { continue }
            let reserve = min(1, max(0, (heartRate - resting) / (maximum - resting)))
            total += hold / 60 * reserve * 0.64 * exp(1.92 * reserve)
        }
        return total
    }
}
