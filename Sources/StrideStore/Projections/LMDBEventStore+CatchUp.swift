import StrideEvents
import StrideProjection

/// Why projections could not be brought up to date.
public struct ProjectionFailure: Error, CustomStringConvertible {
    /// The projection.
    public var name: String
    /// What went wrong.
    public var problem: String

    public var description: String {
        "the projection \(name) cannot be updated: \(problem); run `stride verify`, then `stride rebuild \(name)`"
    }
}

extension LMDBEventStore {
    /// Folds every event a projection has not seen into its rows. Each round is one write
    /// transaction holding the rows it changed and the new checkpoint together, so a crash
    /// loses a round, never half of one, and no event is ever folded in twice. A projection
    /// whose stored version differs from its code's starts again from sequence 1.
    ///
    /// - Parameters:
    ///   - roundSize: the most events folded in one transaction.
    ///   - progress: called after each round with the sequence reached and the last one.
    /// - Returns: the number of events folded in (counting each once).
    /// - Throws: ``ProjectionFailure``, ``EventLogFault`` or ``LMDBError``.
    @discardableResult
    public func catchUp(
        _ projections: [any Projection], roundSize: UInt64 = 100_000, progress: (UInt64, UInt64) -> Void = { _, _ in }
    ) throws -> UInt64 {
        guard !projections.isEmpty else { return 0 }
        let databases = try rowsDatabases(projections)
        // Most calls find nothing to do: that is learned in a snapshot, without waiting for
        // the writer's lock behind another process's ingest.
        guard try !isCaughtUp(projections) else { return 0 }
        var folded: UInt64 = 0
        while true {
            let round = try environment.write { transaction -> (reached: UInt64, last: UInt64, folded: UInt64)? in
                let (last, _, _) = try tail(in: transaction)
                let checkpoints = try prepare(projections, databases: databases, in: transaction)
                guard let lowest = checkpoints.min(), lowest < last else { return nil }
                let end = min(last, lowest + roundSize)
                let count = try fold(
                    projections, databases: databases, checkpoints: checkpoints, through: end, from: .log(committed: true),
                    in: transaction)
                return (end, last, count)
            }
            guard let round else { return folded }
            folded += round.folded
            progress(round.reached, round.last)
        }
    }

    /// Whether every projection's checkpoint is the log's last sequence, at its code's version.
    func isCaughtUp(_ projections: [any Projection]) throws -> Bool {
        try environment.read { transaction in
            let (last, _, _) = try tail(in: transaction)
            return try projections.allSatisfy { projection in
                let stored = try checkpoint(of: projection.name, in: transaction)
                return stored?.version == projection.version && stored?.sequence == last
            }
        }
    }

    /// Where a read's figures stand against the log, in one snapshot (the open view's, inside
    /// one): the sequence every one of `projections` has folded through (0 for one at another
    /// version than its code's) and the log's last. They differ only when another process
    /// appended without folding, and the view read on without catching up
    /// (``view(caughtUp:_:)``): such a read must not be cached nor tagged as the log's.
    /// - Throws: ``LMDBError``.
    public func foldedPoint(of projections: [any Projection]) throws -> (folded: UInt64, last: UInt64) {
        try environment.read { transaction in
            let (last, _, _) = try tail(in: transaction)
            let folded = try projections.reduce(last) { lowest, projection in
                let stored = try checkpoint(of: projection.name, in: transaction)
                return min(lowest, stored?.version == projection.version ? stored?.sequence ?? 0 : 0)
            }
            return (folded, last)
        }
    }

    /// Each projection's checkpoint; a projection whose stored version is not its code's is
    /// emptied first and starts again from 0 (its checkpoint written at once).
    func prepare(_ projections: [any Projection], databases: [Database], in transaction: borrowing Transaction) throws -> [UInt64] {
        try projections.indices.map { index in
            let projection = projections[index]
            let stored = try checkpoint(of: projection.name, in: transaction)
            guard stored?.version == projection.version else {
                try transaction.empty(databases[index])
                try dropSnapshots(of: projection.name, in: transaction)
                try write(ProjectionCheckpoint(version: projection.version, sequence: 0), of: projection.name, in: transaction)
                return 0
            }
            return stored?.sequence ?? 0
        }
    }

    /// Where a fold takes its events from.
    enum FoldSource {
        /// The log, after the lowest checkpoint. `committed`: whether every event read was
        /// committed before the fold's transaction began (not appended by it), so that a long
        /// fold may decode them ahead on a second thread (see
        /// ``forEachCommittedProjectionEvent(from:through:in:_:)``).
        case log(committed: Bool)
        /// Events just appended, from memory, as ``ProjectionEvent/init(_:sequence:recordedAt:)``
        /// makes them (a sample as its facts), each given its sequence (nil for a duplicate).
        case appended([PendingEvent], sequences: [UInt64?], recordedAt: Timestamp)
    }

    /// Folds the events `source` holds after each projection's checkpoint through `end` and
    /// writes rows and checkpoints.
    func fold(
        _ projections: [any Projection], databases: [Database], checkpoints: [UInt64], through end: UInt64,
        from source: FoldSource, in transaction: borrowing Transaction
    ) throws -> UInt64 {
        let lowest = checkpoints.min() ?? 0
        // The runs load rows from this transaction and are dropped before it ends.
        let reader = transaction.reader
        let policy = snapshotPolicy
        // Counted at the first snapshot point the fold passes, not by every append.
        var snapshotsHeld: Int?
        func fits(_ rows: Int, _ pending: Int, _ sequence: UInt64) throws -> Bool {
            let held = try snapshotsHeld ?? transaction.entryCount(of: snapshotsDatabase)
            snapshotsHeld = held
            return Double(held + pending + rows + 1) <= Double(sequence) * policy.rowsPerEvent
        }
        let snapshotted = projections.indices.filter { projections[$0].keepsSnapshots }
        // Streams since the latest snapshot point: counted from the index of type runs at the
        // first stream this fold meets (an append of samples never asks), then kept.
        let streamCode = EventType.workoutStreamRecorded.code
        var streamsSincePoint: UInt64?
        var pointInFold: UInt64?
        func isSnapshotPoint(_ sequence: UInt64, _ event: ProjectionEvent) throws -> Bool {
            guard !snapshotted.isEmpty else { return false }
            if sequence % policy.interval == 0 { return true }
            guard case .event(.workoutStreamRecorded) = event.content else { return false }
            if streamsSincePoint == nil {
                // The point the furthest back among the projections this fold snapshots.
                let since =
                    try pointInFold ?? snapshotted.filter { checkpoints[$0] < sequence }.map {
                        try latestSnapshotSequence(of: projections[$0].name, atOrBefore: sequence - 1, in: transaction)
                    }.min() ?? 0
                streamsSincePoint = try count(
                    ofType: streamCode, from: since + 1, through: sequence - 1, upTo: policy.streamInterval, in: transaction)
            }
            streamsSincePoint = (streamsSincePoint ?? 0) + 1
            return (streamsSincePoint ?? 0) >= policy.streamInterval
        }
        do {
            let runs = projections.enumerated().map { index, projection in
                projection.makeRun { key in try reader.bytes(in: databases[index], forKey: key) }
            }
            var folded: UInt64 = 0
            var snapshots: [PendingSnapshot] = []
            try runs.withFoldStep { apply in
                func foldIn(_ sequence: UInt64, _ event: ProjectionEvent) throws {
                    for index in runs.indices where checkpoints[index] < sequence { apply(index, event) }
                    folded += 1
                    guard try isSnapshotPoint(sequence, event) else { return }
                    (pointInFold, streamsSincePoint) = (sequence, 0)
                    // The rows as they stand after this event: those stored when the fold began,
                    // with the run's changes over them.
                    for index in snapshotted where checkpoints[index] < sequence {
                        let pending = snapshots.reduce(0) { $0 + $1.rows.count + 1 }
                        // Within the disk bound, or not at all (the past then folds from the one
                        // before): judged on the most rows the snapshot can hold, before they are
                        // gathered, so that a point refused costs nothing.
                        let changes = runs[index].encodedChanges()
                        let most = try transaction.entryCount(of: databases[index]) + changes.count
                        guard try fits(most, pending, sequence) else { continue }
                        let rows = Self.merged(try reader.allRows(in: databases[index]), with: changes)
                        snapshots.append(PendingSnapshot(name: runs[index].name, version: runs[index].version, sequence: sequence, rows: rows))
                    }
                }
                switch source {
                case .log(committed: true):
                    try forEachCommittedProjectionEvent(from: lowest + 1, through: end, in: transaction, foldIn)
                case .log(committed: false):
                    try forEachProjectionEvent(from: lowest + 1, through: end, in: transaction, foldIn)
                case .appended(let events, let sequences, let recordedAt):
                    for index in events.indices {
                        guard let sequence = sequences[index] else { continue }
                        let event = try ProjectionEvent(events[index], sequence: sequence, recordedAt: recordedAt)
                        #if DEBUG
                            if case .sample(let facts) = event.content { try checkFacts(facts, againstStoredEvent: sequence, in: transaction) }
                        #endif
                        try foldIn(sequence, event)
                    }
                }
            }
            for (index, run) in runs.enumerated() {
                if let failure = run.loadFailure {
                    throw ProjectionFailure(name: run.name, problem: "a stored row cannot be read (\(failure))")
                }
                // A projection already past this fold's end (the others catching up to it, a
                // round at a time, after one of them changed version) keeps its rows and its
                // checkpoint: writing `end` over a later checkpoint would fold the events after
                // `end` into it a second time in the next round.
                guard checkpoints[index] < end else { continue }
                // Into an empty database (a rebuild) the rows go in at the end, in key order,
                // without a search of the tree for each (an append refused falls back to a put).
                let appending = try transaction.entryCount(of: databases[index]) == 0
                try run.encodedChanges().forEach { key, row in
                    if let row {
                        let appended = try appending && transaction.put(row, forKey: key, in: databases[index], flags: .append)
                        if !appended { try transaction.put(row, forKey: key, in: databases[index]) }
                    } else if !appending {
                        try transaction.delete(key: key, in: databases[index])
                    }
                }
                try write(ProjectionCheckpoint(version: run.version, sequence: end), of: run.name, in: transaction)
            }
            for snapshot in snapshots { try write(snapshot, in: transaction) }
            return folded
        }
    }

    #if DEBUG
        /// In debug builds (and so in every test), the facts an ingest made as it read a sample
        /// must equal those decoded from the event it stored: folding from the first is a shortcut
        /// that must never see another sample than a rebuild will.
        func checkFacts(_ facts: SampleFacts, againstStoredEvent sequence: UInt64, in transaction: borrowing Transaction) throws {
            let stored = try transaction.value(in: eventsDatabase, forKey: sequence) { try ProjectionEvent.decode($0, strings: nil) }
            guard case .sample(let decoded)? = stored?.content, decoded == facts else {
                preconditionFailure(
                    "event \(sequence): the facts folded as it was appended (\(facts)) differ from the stored event's (\(String(describing: stored?.content)))"
                )
            }
        }
    #endif

    /// Forgets a projection's rows, snapshots and checkpoint, so the next catch-up rebuilds it.
    public func resetProjection(named name: String) throws {
        let database = try rowsDatabase(name)
        try environment.write { transaction in
            try transaction.empty(database)
            try dropSnapshots(of: name, in: transaction)
            _ = try Array(name.utf8).withUnsafeBytes { try transaction.delete(key: $0, in: projectionMetaDatabase) }
        }
    }
}
