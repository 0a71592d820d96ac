import Foundation

/// What an input says about the runner's clock: at an instant, it showed a named time zone or
/// a bare UTC offset.
///
/// Two observations are equal when their instants, sources and readings are (a zone by its
/// identifier): evidence is a set, and a repeat adds nothing.
public struct ZoneObservation: Hashable, Sendable {
    /// What the clock showed.
    public enum Reading: Hashable, Sendable, CustomStringConvertible {
        /// A named zone, such as a Health sample's `HKTimeZone`.
        case zone(TimeZone)
        /// A bare offset from UTC in seconds, east positive, such as a FIT file's
        /// `local_timestamp` minus its `timestamp`.
        case offset(seconds: Int)

        public static func == (lhs: Reading, rhs: Reading) -> Bool {
            switch (lhs, rhs) {
            case (.zone(let left), .zone(let right)): left.identifier == right.identifier
            case (.offset(let left), .offset(let right)): left == right
            default: false
            }
        }

        public func hash(into hasher: inout Hasher) {
            switch self {
            case .zone(let zone): hasher.combine(zone.identifier)
            case .offset(let seconds): hasher.combine(seconds)
            }
        }

        /// The zone's identifier, or the offset as `UTC+05:30`.
        public var description: String {
            switch self {
            case .zone(let zone): return zone.identifier
            case .offset(let seconds):
                let minutes = abs(seconds) / 60
                let hours = String(minutes / 60)
                let rest = String(minutes % 60)
                return "UTC\(seconds < 0 ? "-" : "+")\(hours.count < 2 ? "0" + hours : hours):\(rest.count < 2 ? "0" + rest : rest)"
            }
        }
    }

    /// The input the observation comes from. Every kind counts alike; the kind says where to
    /// look when a period surprises.
    public enum Source: String, Hashable, Sendable, CaseIterable {
        /// A Health sample's `HKTimeZone` metadata.
        case healthTimeZone
        /// A FIT file's `local_timestamp`, as an offset from its UTC timestamp.
        case fitLocalTimestamp
        /// The offset of Garmin's local times from their UTC times.
        case garminLocalTime
        /// The offset of the dates Health Auto Export pushes.
        case pushedOffset
    }

    /// When the clock showed the reading.
    public var instant: Timestamp
    /// The zone or offset it showed.
    public var reading: Reading
    /// The input it comes from.
    public var source: Source

    /// Creates an observation.
    public init(_ reading: Reading, at instant: Timestamp, source: Source) {
        self.instant = instant
        self.reading = reading
        self.source = source
    }
}
