import Foundation
import StrideEvents
import StrideProjection

/// The timeline as commands, the server and replays read it.
extension ProjectionState where P == TravelProjection {
    /// The periods the runner set, in the order they were set, each with its event's sequence.
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func runnerPeriods() throws -> [(sequence: UInt64, period: TravelPeriodSet)] {
        try rows(from: .period(0), before: .observation(hour: .min, reading: "", source: .healthTimeZone)).compactMap { key, row in
            guard case .period(let sequence) = key, case .period(let period) = row else { return nil }
            return (sequence, period)
        }
    }

    /// What the inputs' clocks showed, in time order, each with the event that brought it.
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func observations() throws -> [(observation: ZoneObservation, sequence: UInt64)] {
        try rows(from: .observation(hour: .min, reading: "", source: .healthTimeZone), before: .changed).compactMap { _, row in
            guard case .observation(let observation, let sequence) = row else { return nil }
            return (observation, sequence)
        }
    }

    /// Whether an observation adds nothing: one of its reading and source is kept for its hour,
    /// at its instant or earlier (one key read, however many are kept).
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func knows(_ observation: ZoneObservation) throws -> Bool {
        let key = TravelKey.observation(
            hour: observation.instant.hoursSince1970, reading: observation.reading.description, source: observation.source)
        guard case .observation(let kept, _)? = try row(key) else { return false }
        return kept.instant <= observation.instant
    }

    /// Every reading the inputs' clocks ever showed (`Europe/Paris`, `UTC+07:00`), each once.
    /// - Throws: a storage failure, or ``DecodingFailure`` for a key that cannot be read.
    public func readings() throws -> [String] {
        try rows(from: .reading(""), before: .reading("\u{10FFFF}")).compactMap { key, _ in
            guard case .reading(let reading) = key else { return nil }
            return reading
        }
    }

    /// The sequence of the last event that changed what the timeline is made of (0: none).
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func lastChange() throws -> UInt64 {
        guard case .changed(let sequence)? = try row(.changed) else { return 0 }
        return sequence
    }

    /// The offsets the inputs' clocks showed, by hour since 1970: where two readings of one hour
    /// differ, a watch's file (FIT, then Garmin) wins over the Health app, and that over a push.
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func shownOffsets() throws -> [Int64: Int] {
        let rank: [ZoneObservation.Source: Int] = [.fitLocalTimestamp: 0, .garminLocalTime: 1, .healthTimeZone: 2, .pushedOffset: 3]
        var shown: [Int64: (rank: Int, offset: Int)] = [:]
        for (observation, _) in try observations() {
            let offset: Int
            switch observation.reading {
            case .offset(let seconds): offset = seconds
            case .zone(let zone):
                offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(observation.instant.millisecondsSince1970) / 1000))
            }
            let hour = observation.instant.hoursSince1970
            let candidate = (rank: rank[observation.source] ?? 4, offset: offset)
            if let kept = shown[hour], kept.rank <= candidate.rank { continue }
            shown[hour] = candidate
        }
        return shown.mapValues(\.offset)
    }

    /// The zone timeline: `home` where nothing else is known, the periods the inputs show
    /// (``ZoneEvidencePolicy``), and over them the runner's own.
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func timeline(home: TimeZone) throws -> ZoneTimeline {
        ZoneTimeline(home: home, runner: try runnerPeriods().compactMap(\.period.period), evidence: try learnedPeriods(home: home))
    }

    /// The periods away from `home` the inputs' clocks show (``ZoneEvidencePolicy``).
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func learnedPeriods(home: TimeZone) throws -> [ZonePeriod] {
        ZoneEvidencePolicy.periods(home: home, observations: try observations().map(\.observation))
    }
}
