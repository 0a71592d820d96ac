import StrideEvents

/// A run's readings over time, as the training log's policies take them: seconds from the
/// run's start, the distance covered by then, the heart rate then (each when the file has it).
public struct RunStream: Sendable, Equatable {
    /// One reading: the stream's own, as the log keeps it (only seconds, metres and heart
    /// rate matter here).
    public typealias Reading = RunStreamCodec.Reading

    /// The readings, in time order.
    public var readings: [Reading]

    public init(_ readings: [Reading]) {
        self.readings = readings
    }

    /// The longest a reading holds: a watch that stops writing (a pause, a lost strap) is not
    /// taken to have held its last value for minutes.
    public static let longestHold: Double = 10

    /// How long each reading holds: until the next one, at most ``longestHold``; the last
    /// holds nothing (no reading says how long it lasted).
    public static func holds(_ readings: [Reading]) -> [Double] {
        readings.indices.map { index in
            guard index + 1 < readings.count else { return 0 }
            return max(0, min(longestHold, readings[index + 1].seconds - readings[index].seconds))
        }
    }
}
