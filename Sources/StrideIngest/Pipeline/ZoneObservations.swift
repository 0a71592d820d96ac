import StrideEvents

/// The zones a file's clocks showed, one observation kept per reading, source and hour: a
/// Health export writes `HKTimeZone` on thousands of samples, and the zone timeline needs
/// where and when the runner was, not every sample that says so. The first observation of
/// each hour is kept, so the set does not depend on the order the file is read in.
public struct ZoneObservations: Sendable, Equatable {
    /// The observations kept, by reading, source and hour since 1970.
    private var byHour: [Key: ZoneObservation] = [:]

    private struct Key: Hashable, Sendable {
        var reading: ZoneObservation.Reading
        var source: ZoneObservation.Source
        var hour: Int64
    }

    /// None.
    public init() {}

    /// The observations kept, in time order (ties by reading, then source).
    public var all: [ZoneObservation] {
        byHour.values.sorted {
            if $0.instant != $1.instant { return $0.instant < $1.instant }
            if $0.reading.description != $1.reading.description { return $0.reading.description < $1.reading.description }
            return $0.source.rawValue < $1.source.rawValue
        }
    }

    /// How many are kept.
    public var count: Int { byHour.count }

    /// Notes an observation: kept unless one of its reading and source is kept for an earlier
    /// instant of its hour.
    public mutating func note(_ observation: ZoneObservation) {
        let key = Key(reading: observation.reading, source: observation.source, hour: observation.instant.hoursSince1970)
        if let kept = byHour[key], kept.instant <= observation.instant { return }
        byHour[key] = observation
    }

    /// Notes every observation of another file.
    public mutating func add(_ other: ZoneObservations) {
        for observation in other.byHour.values { note(observation) }
    }
}
