import AccessTokens
import DailyHealth
import Foundation
import PointsBalance
import SampleCounts
import ShoeMileage
import StrideEvents
import StrideProjection
import StrideStore
import TrainingLog

extension Ledger {
    /// Every projection of the ledger, configured for its time zone.
    public var projections: [any Projection] { [dailyHealth, SampleCountsProjection(), mileage, points, accessTokens, training, travel] }

    /// The points projection.
    var points: PointsBalanceProjection { PointsBalanceProjection() }

    /// The mileage projection.
    var mileage: ShoeMileageProjection { ShoeMileageProjection() }

    /// The access-tokens projection.
    var accessTokens: AccessTokensProjection { AccessTokensProjection() }

    /// The policies that answer appended events in the same transaction.
    var reactions: [any LedgerReaction] {
        // The day a run or check-in counts on: where it was lived, as the timeline stands.
        let calendar = (try? days()) ?? dailyHealth.days
        return [ArrivingWorkouts(mileage: mileage), PointAwards(points: points, localDay: { calendar.day(of: $0) })]
    }

    /// Brings every projection up to the log's last event (rebuilding one whose version
    /// changed). Appending does this; every read does it too, once before its view opens
    /// (``read(_:)``, or ``state(of:)`` outside a view), so no figure shown misses an event
    /// already in the log.
    /// - Throws: a storage or projection failure.
    @discardableResult
    public func catchUp(progress: (UInt64, UInt64) -> Void = { _, _ in }) throws -> UInt64 {
        try store.catchUp(projections, progress: progress)
    }

    /// Runs `body` reading the ledger through one view: every read it makes, of the log and of
    /// every projection, sees one state — one LMDB read transaction, as GRDB's
    /// `DatabaseReader.read` — so that figures gathered from several reads (an ETag and its
    /// document, a token and the figures it may see) agree. The view first checks, in its own
    /// snapshot, that every projection has folded the log; events another process appended
    /// are caught up outside it, before a new view opens, never inside. Inside a view
    /// already, `body` runs in it.
    /// - Throws: what `body` throws, or a storage or projection failure.
    public func read<R>(_ body: () throws -> R) throws -> R {
        try store.view(caughtUp: projections, body)
    }

    /// Where a read's figures stand against the log (see ``figuresPoint()``).
    public struct FiguresPoint: Sendable, Hashable {
        /// The sequence every projection has folded through: the state the figures are read from.
        public var sequence: UInt64
        /// The log's last sequence.
        public var logEnd: UInt64
        /// Whether the figures hold every event of the log. They lag it only when another process
        /// appended without folding and the view read on rather than catch up for ever
        /// (``read(_:)``): such an answer is neither kept in a cache nor tagged as the log's.
        public var isCurrent: Bool { sequence == logEnd }
    }

    /// Where the figures read now stand: inside a ``read(_:)``, its view's, from its one snapshot.
    /// Caches key what they keep by ``FiguresPoint/sequence`` (what was read) and keep only a
    /// current read's; the server tags an answer with it, and only a current one.
    /// - Throws: a storage failure.
    public func figuresPoint() throws -> FiguresPoint {
        let (folded, last) = try store.foldedPoint(of: projections)
        return FiguresPoint(sequence: folded, logEnd: last)
    }

    /// A projection's stored state for its typed queries, once every projection is caught up
    /// (inside a ``read(_:)``, as of its view): the one way the ledger reads what projections hold.
    /// - Throws: a storage or projection failure.
    func state<P: Projection>(of projection: P) throws -> ProjectionState<P> {
        try store.caughtUpState(of: projection, with: projections)
    }

    /// Appends events, folding them into the projections in the same transaction; then
    /// catches up any projection that was behind.
    /// - Throws: `EventStoreError.versionConflict` when an expectation fails, or a storage error.
    @discardableResult
    public func append(_ events: [PendingEvent], expecting: [VersionExpectation] = []) throws -> AppendOutcome {
        let outcome = try store.append(
            request.map { $0.stamping(events) } ?? events, expecting: expecting, recordedAt: clock.now(), projections: projections,
            reactions: reactions)
        try catchUp()
        return outcome
    }

    /// The names of the projections.
    public var projectionNames: [String] { projections.map(\.name) }

    /// Drops the named projections (all when empty) and recomputes them from sequence 1,
    /// with their snapshots; all of them index the log's recording times again too.
    /// - Throws: ``LedgerError/unknownProjection(_:known:)`` or a storage failure.
    public func rebuild(_ names: [String] = [], progress: (UInt64, UInt64) -> Void = { _, _ in }) throws -> [String] {
        let chosen = try choose(names)
        // Dropping a projection drops its snapshots; the fold from sequence 1 takes them again.
        for projection in chosen { try store.resetProjection(named: projection.name) }
        try store.catchUp(chosen, roundSize: 1_000_000, progress: progress)
        if names.isEmpty { try store.reindexRecordingTimes() }
        return chosen.map(\.name)
    }

    private func choose(_ names: [String]) throws -> [any Projection] {
        guard !names.isEmpty else { return projections }
        return try names.map { name in
            guard let projection = projections.first(where: { $0.name == name }) else {
                throw LedgerError.unknownProjection(name, known: projectionNames)
            }
            return projection
        }
    }

    /// How each projection compares with a rebuild in memory at its checkpoint.
    public struct ProjectionCheck: Sendable {
        public var name: String
        public var checkpoint: UInt64
        public var storedDigest: ChainHash
        public var rebuiltDigest: ChainHash
        public var isCurrentVersion: Bool
        /// The snapshots of its rows compared with the replay at their sequences (none for a
        /// projection that keeps none, or a ledger whose snapshots are not taken yet).
        public var snapshotsChecked: Int = 0
        /// The sequences of the snapshots that differ from the replay.
        public var snapshotsMismatched: [UInt64] = []
        public var matches: Bool { storedDigest == rebuiltDigest && isCurrentVersion && snapshotsMismatched.isEmpty }
    }

    /// Rebuilds every projection in memory up to its stored checkpoint and compares the
    /// digest of that state with the digest of the stored rows, and every snapshot of the
    /// small projections with the same replay's rows at its sequence (in the same walk).
    public func verifyProjections(progress: (UInt64) -> Void = { _ in }) throws -> [ProjectionCheck] {
        let projections = projections
        let stored = try projections.map { try store.storedDigest(of: $0.name) }
        let limits = stored.map { $0.checkpoint?.sequence ?? 0 }
        var snapshots: [String: LMDBEventStore.SnapshotCheck] = [:]
        let taken = try store.snapshotSequences(of: projections)
        let runs = try store.replay(
            projections, through: limits.max() ?? 0, limits: limits, pauses: Set(taken.values.joined()),
            atPause: { sequence, runs in
                try store.compareSnapshots(projections, runs: runs, limits: limits, at: sequence, into: &snapshots)
            }, progress: progress)
        return projections.indices.map { index in
            let snapshot = snapshots[projections[index].name]
            return ProjectionCheck(
                name: projections[index].name, checkpoint: limits[index], storedDigest: stored[index].digest,
                rebuiltDigest: ProjectionDigest.of(runs[index].encodedRows()),
                isCurrentVersion: stored[index].checkpoint.map { $0.version == projections[index].version } ?? true,
                snapshotsChecked: snapshot?.checked ?? 0, snapshotsMismatched: snapshot?.mismatched ?? [])
        }
    }
}
