import DailyHealth
import Foundation
import PointsBalance
import SampleCounts
import ShoeMileage
import StrideEvents
import StrideProjection
import StrideStore

extension Ledger {
    /// The latest day on or before `last` with a daily record, however long ago.
    /// - Throws: a storage or projection failure.
    public func lastDayWithRecord(through last: CivilDate) throws -> CivilDate? {
        try state(of: dailyHealth).lastDayWithRecord(through: last)
    }

    /// The daily records of the days from `from` through `to` that have any data.
    ///
    /// A range's records come from the ledger's ``DailyRecordCache`` for the days whose facts
    /// are unchanged since they were computed (their ``DayVersion``, read without decoding
    /// the facts), and are computed from the facts for the others; an open range is computed
    /// whole.
    public func dailyRecords(from: CivilDate?, through to: CivilDate?) throws -> [DailyRecord] {
        let state = try state(of: dailyHealth)
        guard let from, let to, from <= to else { return try state.records(from: from, through: to) }
        let versions = try state.dayVersions(from: from, through: to)
        var (known, missing) = dailyRecordCache.lookUp(versions)
        if let first = missing.first, let last = missing.last {
            var computed = Dictionary(uniqueKeysWithValues: missing.map { ($0, DailyRecord?.none) })
            for record in try state.records(from: first, through: last) where computed[record.date] != nil {
                computed[record.date] = .some(record)
            }
            dailyRecordCache.keep(computed, at: versions)
            known.merge(computed) { _, new in new }
        }
        return versions.keys.sorted().compactMap { known[$0] ?? nil }
    }

    /// Each day's version of its facts from `from` through `to` (``DayVersion``): days
    /// without facts are absent.
    /// - Throws: a storage or projection failure.
    public func dayVersions(from: CivilDate, through to: CivilDate) throws -> [CivilDate: DayVersion] {
        try state(of: dailyHealth).dayVersions(from: from, through: to)
    }

    /// Samples by HealthKit type, sorted by type.
    public func samplesByHealthType() throws -> [NamedCount] {
        try state(of: SampleCountsProjection()).samplesByType().map { NamedCount(name: $0.healthType, count: Int($0.count)) }
    }

    /// What a partial replay folds: a page of the past asks only for what it shows.
    public enum ReplayedFigures: Sendable, Hashable, CaseIterable {
        case daily, mileage, points
    }

    /// Projections computed in memory as of a sequence, read through the same queries as the
    /// stored state; only the figures asked for were folded.
    public struct ReplayedState {
        /// The sequence replayed through.
        public let sequence: UInt64
        /// The figures folded.
        public let figures: Set<ReplayedFigures>
        let runs: [RunningProjection]
        let dailyHealth: DailyHealthProjection
        let mileage: ShoeMileageProjection
        let points: PointsBalanceProjection

        /// The daily records of a range as of then (none when daily records were not folded).
        /// - Throws: a projection failure.
        public func days(from first: CivilDate? = nil, through last: CivilDate? = nil) throws -> [DailyRecord] {
            figures.contains(.daily) ? try runs.state(of: dailyHealth).records(from: first, through: last) : []
        }

        /// The latest day on or before `last` with a record, as of then.
        /// - Throws: a projection failure.
        public func lastDayWithRecord(through last: CivilDate) throws -> CivilDate? {
            figures.contains(.daily) ? try runs.state(of: dailyHealth).lastDayWithRecord(through: last) : nil
        }

        /// The shoes as of then (none when mileage was not folded).
        /// - Throws: a projection failure.
        public func shoes() throws -> [ShoeView] {
            figures.contains(.mileage) ? try runs.state(of: mileage).shoes() : []
        }

        /// The points account and history as of then (always folded: the run is small).
        /// - Throws: a projection failure.
        public func statement() throws -> PointsStatement {
            try runs.state(of: points).statement()
        }
    }

    /// Folds the projections behind `figures` in memory over the events up to `sequence`,
    /// touching nothing stored.
    /// - Throws: a storage or projection failure.
    public func replayedState(
        through sequence: UInt64, figures: Set<ReplayedFigures> = Set(ReplayedFigures.allCases), progress: (UInt64) -> Void = { _ in }
    ) throws -> ReplayedState {
        let last = min(sequence, try store.lastSequence())
        var chosen: [any Projection] = []
        if figures.contains(.daily) { chosen.append(dailyHealth) }
        if figures.contains(.mileage) { chosen.append(mileage) }
        // The points run is always there (it is small), so that a statement can always be read.
        chosen.append(points)
        let runs = try store.replay(chosen, through: last, progress: progress)
        return ReplayedState(sequence: last, figures: figures, runs: runs, dailyHealth: dailyHealth, mileage: mileage, points: points)
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
        let state = try replayedState(through: sequence, progress: progress)
        return Replay(sequence: state.sequence, days: try state.days(), shoes: try state.shoes(), points: try state.statement())
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
