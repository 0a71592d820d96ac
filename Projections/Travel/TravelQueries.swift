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

    /// The sequence of the last event that changed what the timeline is made of (0: none).
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func lastChange() throws -> UInt64 {
        guard case .changed(let sequence)? = try row(.changed) else { return 0 }
        return sequence
    }

    /// The zone timeline: `home` where nothing else is known, the periods the inputs show
    /// (``ZoneEvidencePolicy``), and over them the runner's own.
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func timeline(home: TimeZone) throws -> ZoneTimeline {
        let runner = try runnerPeriods().compactMap(\.period.period)
        let evidence = ZoneEvidencePolicy.periods(home: home, observations: try observations().map(\.observation))
        return ZoneTimeline(home: home, runner: runner, evidence: evidence)
    }
}
