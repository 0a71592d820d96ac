import DailyHealth
import Foundation
import PointsBalance
import ShoeMileage
import StrideEvents
import StrideProjection
import StrideStore

/// The ledger as recorded at a point of its past (`--as-recorded`, `replay --until`): the
/// daily rows taken back to then, the shoes and points from their nearest snapshot.
extension Ledger {
    /// What a partial replay folds: a page of the past asks only for what it shows.
    public enum ReplayedFigures: Sendable, Hashable, CaseIterable {
        case daily, mileage, points
    }

    /// Projections as recorded at a sequence, read through the same queries as the stored
    /// state; only the figures asked for were computed. The daily records come from the stored
    /// rows, taken back to then (``DailyRowsAsRecorded``); the shoes and points from their
    /// latest snapshot at or before the sequence and the few events after it.
    public struct ReplayedState {
        /// The sequence replayed through.
        public let sequence: UInt64
        let daily: ProjectionState<DailyHealthProjection>?
        let mileage: ProjectionState<ShoeMileageProjection>?
        let points: ProjectionState<PointsBalanceProjection>

        /// The daily records of a range as of then (none when daily records were not folded).
        /// - Throws: a projection failure.
        public func days(from first: CivilDate? = nil, through last: CivilDate? = nil) throws -> [DailyRecord] {
            try daily?.records(from: first, through: last) ?? []
        }

        /// The latest day on or before `last` with a record, as of then.
        /// - Throws: a projection failure.
        public func lastDayWithRecord(through last: CivilDate) throws -> CivilDate? {
            try daily?.lastDayWithRecord(through: last)
        }

        /// The shoes as of then (none when mileage was not folded).
        /// - Throws: a projection failure.
        public func shoes() throws -> [ShoeView] {
            try mileage?.shoes() ?? []
        }

        /// The points account and history as of then (always folded: the run is small).
        /// - Throws: a projection failure.
        public func statement() throws -> PointsStatement {
            try points.statement()
        }
    }

    /// The projections behind `figures` as recorded through `sequence`, touching nothing
    /// stored: the daily rows taken back to then, and the shoes and points folded from their
    /// latest snapshot at or before it (at most ``SnapshotPolicy/interval`` events, 50,000 by default;
    /// from sequence 1 on a ledger whose snapshots are not taken yet). The same answers as
    /// ``fullReplay(through:)``, in milliseconds whatever the length of the log.
    /// - Throws: a storage or projection failure.
    public func replayedState(
        through sequence: UInt64, figures: Set<ReplayedFigures> = Set(ReplayedFigures.allCases), progress: (UInt64) -> Void = { _ in }
    ) throws -> ReplayedState {
        let last = min(sequence, try store.lastSequence())
        let daily = try figures.contains(.daily) ? recordedDaily(through: last) : nil
        // The points are always there (they are small), so that a statement can always be read.
        let small: [any Projection] = figures.contains(.mileage) ? [points, mileage] : [points]
        let rows = try store.rowsAsRecorded(small, through: last)
        progress(last)
        return ReplayedState(
            sequence: last, daily: daily,
            mileage: figures.contains(.mileage) ? ProjectionState(mileage, source: InMemoryRows(rows[rows.count - 1])) : nil,
            points: ProjectionState(points, source: InMemoryRows(rows[0])))
    }

    /// The daily records' state as recorded through a sequence (the stored rows, taken back).
    /// - Throws: a storage or projection failure.
    public func recordedDaily(through sequence: UInt64) throws -> ProjectionState<DailyHealthProjection> {
        ProjectionState(
            dailyHealth.cut(by: try days(asRecordedThrough: sequence)), source: DailyRowsAsRecorded(try state(of: dailyHealth), through: sequence))
    }

    /// Each projection's rows as recorded through a sequence, the fast way (see
    /// ``replayedState(through:figures:progress:)``): the daily fact rows, the others whole.
    /// - Throws: a storage or projection failure.
    public func rowsAsRecorded(through sequence: UInt64) throws -> [String: EncodedRows] {
        let small = projections.filter(\.keepsSnapshots)
        var result = Dictionary(uniqueKeysWithValues: zip(small.map(\.name), try store.rowsAsRecorded(small, through: sequence)))
        result[dailyHealth.name] = try recordedDaily(through: sequence).rowSource.rows(from: [], before: nil)
        return result
    }

    /// Each projection's rows as a fold of the log from sequence 1 through `sequence` leaves
    /// them, in memory (the daily ones without its superseded and synced-sample rows, as
    /// ``rowsAsRecorded(through:)`` gives them): what the fast past must equal.
    /// - Throws: a storage or projection failure.
    public func fullReplay(through sequence: UInt64) throws -> [String: EncodedRows] {
        let runs = try store.replay(projections, through: min(sequence, try store.lastSequence()))
        var result = Dictionary(uniqueKeysWithValues: runs.map { ($0.name, $0.encodedRows()) })
        result[dailyHealth.name] = result[dailyHealth.name].map(DailyHealthProjection.factRows(of:))
        return result
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

    /// The daily records, shoes and points as recorded through `sequence`, read through the same
    /// queries as the stored state: from ``replayedState(through:figures:progress:)`` (the daily
    /// rows taken back, the shoes and points from their nearest snapshot), not a fold of the log.
    public func replay(through sequence: UInt64, progress: (UInt64) -> Void = { _ in }) throws -> Replay {
        let state = try replayedState(through: sequence, progress: progress)
        return Replay(sequence: state.sequence, days: try state.days(), shoes: try state.shoes(), points: try state.statement())
    }

    /// The last sequence recorded at or before an instant, every event before it recorded by
    /// then too (0 when none was): one seek in the store's index of recording times.
    /// - Throws: a storage failure.
    public func sequence(recordedBy instant: Timestamp) throws -> UInt64 {
        try store.sequence(recordedBy: instant)
    }
}

extension Ledger {
    /// What the ledger keeps to answer the past quickly, and its size.
    public struct PastCacheSize: Sendable {
        /// Snapshots held (all projections together) and their database's entries and bytes on disk.
        public var snapshotCount: Int
        public var snapshotEntries: Int
        public var snapshotBytes: Int
        /// The daily projection's superseded rows and their key and row bytes.
        public var supersededRows: Int
        public var supersededBytes: Int
        /// The recording-time index's entries.
        public var recordedEntries: Int
    }

    /// What the ledger keeps to answer the past quickly, and its size.
    /// - Throws: a storage failure.
    public func pastCacheSize() throws -> PastCacheSize {
        let snapshots = try store.snapshotsSize()
        let keys = DailyHealthProjection.supersededKeys
        let superseded = try state(of: dailyHealth).rowSource.rows(from: keys.lower, before: keys.upper)
        return PastCacheSize(
            snapshotCount: try store.snapshotSequences(of: projections).values.map(\.count).reduce(0, +),
            snapshotEntries: snapshots.entries, snapshotBytes: snapshots.bytes, supersededRows: superseded.count,
            supersededBytes: superseded.reduce(0) { $0 + $1.key.count + $1.row.count }, recordedEntries: try store.recordingTimeEntries())
    }
}
