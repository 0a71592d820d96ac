import DailyHealth
import Foundation
import PointsBalance
import SampleCounts
import ShoeMileage
import StrideEvents
import StrideProjection
import StrideStore

extension Ledger {
    /// The daily records of the days from `from` through `to` that have any data.
    public func dailyRecords(from: CivilDate?, through to: CivilDate?) throws -> [DailyRecord] {
        try state(of: dailyHealth).records(from: from, through: to)
    }

    /// Samples by HealthKit type, sorted by type.
    public func samplesByHealthType() throws -> [NamedCount] {
        try state(of: SampleCountsProjection()).samplesByType().map { NamedCount(name: $0.healthType, count: Int($0.count)) }
    }

    /// Every projection computed in memory as of a sequence, touching nothing stored.
    public struct Replay: Sendable {
        /// The sequence replayed through.
        public var sequence: UInt64
        /// The daily records as of then.
        public var days: [DailyRecord]
        /// The shoes as of then.
        public var shoes: [ShoeView]
        /// The points account and its history as of then.
        public var points: PointsStatement
    }

    /// Computes every projection in memory over the events up to `sequence`, and reads it
    /// through the same queries as the stored state.
    public func replay(through sequence: UInt64, progress: (UInt64) -> Void = { _ in }) throws -> Replay {
        let last = min(sequence, try store.lastSequence())
        let runs = try store.replay([dailyHealth, mileage, points], through: last, progress: progress)
        return Replay(
            sequence: last, days: try runs.state(of: dailyHealth).records(), shoes: try runs.state(of: mileage).shoes(),
            points: try runs.state(of: points).statement())
    }

    /// The last sequence recorded at or before an instant (0 when none was).
    public func sequence(recordedBy instant: Timestamp) throws -> UInt64 {
        var last: UInt64 = 0
        try store.scan { event in
            guard event.recordedAt <= instant else { return false }
            last = event.sequence
            return true
        }
        return last
    }
}
