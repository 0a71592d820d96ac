import StrideEvents
import StrideProjection

/// Snapshots: the rows of the small projections (those whose ``Projection/keepsSnapshots``),
/// kept as they stood after every ``SnapshotPolicy/interval``-th event (50,000 by default), so that the
/// ledger as recorded at any sequence is the nearest snapshot at or before it and a fold of
/// the events after it — never more than an interval's worth — instead of a fold from
/// sequence 1.
///
/// A rebuildable cache in the `snapshots` database, beside the projections' rows: a snapshot
/// is taken in the transaction that folds its event (an append, a catch-up, a rebuild), so it
/// is never missing where its projection's checkpoint has passed it; a rebuild or a changed
/// version drops the projection's snapshots and takes them again; `verify` compares them with
/// a replay.
///
/// Keys: the projection's name, a zero byte, the sequence (8 bytes big-endian), then the row's
/// key; under the name, zero and sequence alone, the snapshot's marker: the projection's
/// version (4 bytes) and the number of rows (8). By projection first, so that one projection's
/// snapshots are a range (dropped at once) and the latest before a sequence is one seek.
/// When snapshots are taken: after every `interval`-th event, and after every
/// `streamInterval`-th run's stream since the latest snapshot, while the `snapshots` database
/// holds no more entries than `rowsPerEvent` times the events in the log.
public struct SnapshotPolicy: Sendable, Hashable {
    /// Every how many events the small projections' rows are kept: a past point then folds at
    /// most this many events from its snapshot (about 10 ms at the replay's 5 M events/s; far
    /// less when, as for the pages, no sample event has to be decoded), and a ten-year ledger
    /// of 6.3 M events keeps 126 of each projection.
    public var interval: UInt64
    /// Every how many runs' streams (`workout.streamRecorded`) since the latest snapshot one is
    /// taken too, wherever the count of events stands: a stream is a thousand times a sample's
    /// fold (its run's facts are computed from every reading), so a past point folds at most
    /// this many of them — a few hundred milliseconds — however few events an account
    /// archive's thousands of runs are.
    public var streamInterval: UInt64
    /// The most snapshot entries (rows and markers) per event of the log: the bound on their
    /// disk. At the default, a tenth: the snapshots take less room than a tenth of the events
    /// (a row of these projections is smaller than an event), whatever the history. A ledger
    /// whose small projections hold more rows than a tenth of an interval (5,000: years of
    /// daily check-ins, journal lines and awards are fewer) gets fewer snapshots, and its past
    /// folds from further back.
    public var rowsPerEvent: Double

    /// A policy; by default every 50,000 events or 200 streams, a tenth of an entry per event at most.
    public init(interval: UInt64 = 50_000, streamInterval: UInt64 = 200, rowsPerEvent: Double = 0.1) {
        self.interval = max(1, interval)
        self.streamInterval = max(1, streamInterval)
        self.rowsPerEvent = rowsPerEvent
    }
}

extension LMDBEventStore {
    /// A snapshot taken during a fold, written when the fold writes its rows.
    struct PendingSnapshot {
        var name: String
        var version: UInt32
        var sequence: UInt64
        var rows: EncodedRows
    }

    static func snapshotPrefix(of name: String) -> [UInt8] {
        Array(name.utf8) + [0]
    }

    static func snapshotKey(of name: String, at sequence: UInt64) -> [UInt8] {
        snapshotPrefix(of: name) + withUnsafeBytes(of: sequence.bigEndian) { Array($0) }
    }

    /// The rows of a run as they stand: `stored` (the rows in the database, sorted) with the
    /// run's changes over them.
    static func merged(_ stored: EncodedRows, with changes: borrowing EncodedChanges) -> EncodedRows {
        var result: EncodedRows = []
        result.reserveCapacity(stored.count)
        var index = 0
        changes.forEach { key, row in
            while index < stored.count, stored[index].key.withUnsafeBytes({ $0.sortsBefore(key) }) {
                result.append(stored[index])
                index += 1
            }
            if index < stored.count, stored[index].key.withUnsafeBytes({ $0.elementsEqual(key) }) { index += 1 }
            if let row { result.append((Array(key), Array(row))) }
        }
        result.append(contentsOf: stored[index...])
        return result
    }

    func write(_ snapshot: PendingSnapshot, in transaction: borrowing Transaction) throws {
        let marker = Self.snapshotKey(of: snapshot.name, at: snapshot.sequence)
        try dropEntries(from: marker, prefix: marker, in: transaction)
        var writer = BinaryWriter(capacity: 12)
        writer.write(fixed: snapshot.version)
        writer.write(fixed: UInt64(snapshot.rows.count))
        try transaction.put(writer.bytes, forKey: marker, in: snapshotsDatabase)
        for row in snapshot.rows { try transaction.put(row.row, forKey: marker + row.key, in: snapshotsDatabase) }
    }

    /// Drops a projection's snapshots.
    func dropSnapshots(of name: String, in transaction: borrowing Transaction) throws {
        let prefix = Self.snapshotPrefix(of: name)
        try dropEntries(from: prefix, prefix: prefix, in: transaction)
    }

    private func dropEntries(from lower: [UInt8], prefix: [UInt8], in transaction: borrowing Transaction) throws {
        var doomed: [[UInt8]] = []
        try transaction.withCursor(snapshotsDatabase) { cursor in
            var entry = try lower.withUnsafeBytes { try cursor.seek(atOrAfter: $0) }
            while let current = entry, current.key.starts(with: prefix) {
                doomed.append(Array(current.key))
                entry = try cursor.next()
            }
        }
        for key in doomed { _ = try key.withUnsafeBytes { try transaction.delete(key: $0, in: snapshotsDatabase) } }
    }

    /// The sequence of a projection's latest snapshot at or before `sequence` (of any version),
    /// 0 when there is none: one seek, no row read.
    func latestSnapshotSequence(of name: String, atOrBefore sequence: UInt64, in transaction: borrowing Transaction) throws -> UInt64 {
        let prefix = Self.snapshotPrefix(of: name)
        let after = Self.snapshotKey(of: name, at: sequence + 1)
        return try transaction.withCursor(snapshotsDatabase) { cursor in
            let atOrAfter = try after.withUnsafeBytes { try cursor.seek(atOrAfter: $0) }
            guard let entry = try atOrAfter == nil ? cursor.last() : cursor.previous(), entry.key.starts(with: prefix),
                entry.key.count >= prefix.count + 8
            else { return 0 }
            return UInt64(bigEndian: entry.key.loadUnaligned(fromByteOffset: prefix.count, as: UInt64.self))
        }
    }

    /// The number of events of type `code` from `first` through `last`, counted up to `limit`
    /// at most, from the index of type runs (no event read).
    func count(
        ofType code: UInt16, from first: UInt64, through last: UInt64, upTo limit: UInt64, in transaction: borrowing Transaction
    )
        throws -> UInt64
    {
        guard first <= last else { return 0 }
        return try transaction.withCursor(typeRunsDatabase) { cursor in
            // The run holding `first`: the last one that starts at or before it.
            var entry = try cursor.seek(atOrAfter: first)
            if entry.map({ $0.integerKey > first }) ?? true { entry = try entry == nil ? cursor.last() : cursor.previous() }
            if entry == nil { entry = try cursor.first() }
            var count: UInt64 = 0
            while let current = entry, current.integerKey <= last, count < limit {
                let (start, type) = (current.integerKey, current.value.count == 2 ? current.value.loadUnaligned(as: UInt16.self) : 0)
                entry = try cursor.next()
                let end = min(last, entry.map { $0.integerKey - 1 } ?? last)
                if type == code, end >= max(start, first) { count += end - max(start, first) + 1 }
            }
            return min(count, limit)
        }
    }

    /// The sequences of a projection's snapshots at its `version`, in order.
    func snapshotSequences(of name: String, version: UInt32, in transaction: borrowing Transaction) throws -> [UInt64] {
        let prefix = Self.snapshotPrefix(of: name)
        return try transaction.withCursor(snapshotsDatabase) { cursor in
            var sequences: [UInt64] = []
            var entry = try prefix.withUnsafeBytes { try cursor.seek(atOrAfter: $0) }
            while let current = entry, current.key.starts(with: prefix) {
                if current.key.count == prefix.count + 8, current.value.count == 12,
                    UInt32(littleEndian: current.value.loadUnaligned(as: UInt32.self)) == version
                {
                    sequences.append(UInt64(bigEndian: current.key.loadUnaligned(fromByteOffset: prefix.count, as: UInt64.self)))
                }
                entry = try cursor.next()
            }
            return sequences
        }
    }

    /// The latest snapshot of a projection at `version` taken at or before `sequence`: its
    /// sequence and rows, or nil when there is none (a ledger an earlier Stride wrote, until
    /// its next rebuild; or a point before the first interval).
    func latestSnapshot(
        of name: String, version: UInt32, atOrBefore sequence: UInt64, in transaction: borrowing Transaction
    ) throws -> (sequence: UInt64, rows: EncodedRows)? {
        let prefix = Self.snapshotPrefix(of: name)
        var candidate = sequence
        while candidate > 0 {
            // The entry before the key of the sequence after: a row or the marker of the latest
            // snapshot at or before `candidate`.
            let after = Self.snapshotKey(of: name, at: candidate + 1)
            let found: UInt64? = try transaction.withCursor(snapshotsDatabase) { cursor in
                let atOrAfter = try after.withUnsafeBytes { try cursor.seek(atOrAfter: $0) }
                guard let entry = try atOrAfter == nil ? cursor.last() : cursor.previous(), entry.key.starts(with: prefix),
                    entry.key.count >= prefix.count + 8
                else { return nil }
                return UInt64(bigEndian: entry.key.loadUnaligned(fromByteOffset: prefix.count, as: UInt64.self))
            }
            guard let found else { return nil }
            if let rows = try snapshotRows(of: name, version: version, at: found, in: transaction) { return (found, rows) }
            // A snapshot of another version (left by a crash between a version change and its
            // drop): look before it.
            candidate = found - 1
        }
        return nil
    }

    /// A snapshot's rows, when it is at `version` and whole.
    func snapshotRows(of name: String, version: UInt32, at sequence: UInt64, in transaction: borrowing Transaction) throws -> EncodedRows? {
        let marker = Self.snapshotKey(of: name, at: sequence)
        guard let header = try transaction.bytes(in: snapshotsDatabase, forKey: marker), header.count == 12 else { return nil }
        let (storedVersion, count) = header.withUnsafeBytes {
            (UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self)), UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 4, as: UInt64.self)))
        }
        guard storedVersion == version else { return nil }
        let rows = try transaction.withCursor(snapshotsDatabase) { cursor in
            var rows: EncodedRows = []
            var entry = try marker.withUnsafeBytes { try cursor.seek(atOrAfter: $0) }
            if entry.map({ $0.key.count == marker.count }) == true { entry = try cursor.next() }
            while let current = entry, current.key.starts(with: marker) {
                rows.append((Array(current.key[marker.count...]), Array(current.value)))
                entry = try cursor.next()
            }
            return rows
        }
        return rows.count == count ? rows : nil
    }

    /// The snapshots held: for each projection that keeps them, the sequences at its version.
    /// - Throws: ``LMDBError``.
    public func snapshotSequences(of projections: [any Projection]) throws -> [String: [UInt64]] {
        try environment.read { transaction in
            var result: [String: [UInt64]] = [:]
            for projection in projections where projection.keepsSnapshots {
                result[projection.name] = try snapshotSequences(of: projection.name, version: projection.version, in: transaction)
            }
            return result
        }
    }

    /// A snapshot's rows (nil when there is none at that sequence and version).
    /// - Throws: ``LMDBError``.
    public func snapshotRows(of projection: any Projection, at sequence: UInt64) throws -> EncodedRows? {
        try environment.read { try snapshotRows(of: projection.name, version: projection.version, at: sequence, in: $0) }
    }

    /// Bytes the snapshots take on disk (their database's pages), and their entries.
    /// - Throws: ``LMDBError``.
    public func snapshotsSize() throws -> (bytes: Int, entries: Int) {
        try environment.read { transaction in
            let stat = try transaction.statistics(of: snapshotsDatabase)
            return (stat.pages * stat.pageSize, stat.entries)
        }
    }

    /// For a test of `verify`: overwrites one row of a snapshot with `bytes`.
    /// - Throws: ``LMDBError``.
    public func overwriteSnapshotRow(of name: String, at sequence: UInt64, key: [UInt8], with bytes: [UInt8]) throws {
        try environment.write { transaction in
            try transaction.put(bytes, forKey: Self.snapshotKey(of: name, at: sequence) + key, in: snapshotsDatabase)
        }
    }
}

extension LMDBEventStore {
    /// Each projection's rows as recorded through `sequence`, in memory, touching nothing
    /// stored: from the nearest state at or before the point — its rows as stored, when its
    /// checkpoint is there (a point at or past the log's end folds nothing), else its latest
    /// snapshot (from nothing when it keeps none or has none yet) — with the events after it
    /// folded in. The events are walked once for all; sample events are skipped undecoded when
    /// no projection asked for folds them.
    /// - Returns: each projection's rows, in key-byte order, in the order of `projections`.
    /// - Throws: ``EventLogFault`` naming an event that cannot be decoded, or ``LMDBError``.
    public func rowsAsRecorded(_ projections: [any Projection], through sequence: UInt64) throws -> [EncodedRows] {
        // Opened before the read (a projection's database is opened in a write transaction,
        // once a process: inside a view, the ledger has opened them before it).
        let databases = try rowsDatabases(projections)
        return try environment.read { transaction in
            let through = min(sequence, try tail(in: transaction).0)
            var starts: [UInt64] = []
            var bases: [EncodedRows] = []
            for (index, projection) in projections.enumerated() {
                let snapshot =
                    projection.keepsSnapshots
                    ? try latestSnapshot(of: projection.name, version: projection.version, atOrBefore: through, in: transaction) : nil
                // The rows stored now are the projection's state at its checkpoint: the nearest
                // start for a point at or after it — the present, at the log's end.
                let stored = try checkpoint(of: projection.name, in: transaction)
                if let stored, stored.version == projection.version, stored.sequence <= through,
                    stored.sequence > snapshot?.sequence ?? 0
                {
                    starts.append(stored.sequence)
                    bases.append(try transaction.reader.allRows(in: databases[index]))
                    continue
                }
                starts.append(snapshot?.sequence ?? 0)
                bases.append(snapshot?.rows ?? [])
            }
            let runs = projections.indices.map { index in
                let base = InMemoryRows(bases[index])
                return projections[index].makeRun { key in try base.row(forKey: key) }
            }
            let skipsSamples = !projections.contains(where: \.foldsSamples)
            try runs.withFoldStep { apply in
                try forEachProjectionEvent(from: (starts.min() ?? 0) + 1, through: through, in: transaction, skippingSamples: skipsSamples) {
                    current, event in
                    for index in runs.indices where starts[index] < current { apply(index, event) }
                }
            }
            return try runs.indices.map { index in
                if let failure = runs[index].loadFailure {
                    throw ProjectionFailure(name: runs[index].name, problem: "a snapshot's row cannot be read (\(failure))")
                }
                return Self.merged(bases[index], with: runs[index].encodedChanges())
            }
        }
    }

    /// How a projection's snapshots compare with a replay: the sequences whose rows differ
    /// (or cannot be read) and how many were checked.
    public struct SnapshotCheck: Sendable {
        /// The projection.
        public var name: String
        /// The snapshots compared.
        public var checked: Int
        /// The snapshots whose rows differ from the replay's at their sequence.
        public var mismatched: [UInt64]
        /// Whether every snapshot matched.
        public var matches: Bool { mismatched.isEmpty }
    }

    /// Compares the snapshots of `projections` (those that keep them) at `sequence` with the
    /// rows of `runs`, a replay from sequence 1 that has just folded it (as
    /// ``replay(_:through:limits:include:atSnapshotPoint:progress:)`` calls back), each run
    /// only while within its limit.
    /// - Throws: ``LMDBError``.
    public func compareSnapshots(
        _ projections: [any Projection], runs: [RunningProjection], limits: [UInt64], at sequence: UInt64,
        into checks: inout [String: SnapshotCheck]
    ) throws {
        for index in projections.indices where projections[index].keepsSnapshots && sequence <= limits[index] {
            let (projection, run) = (projections[index], runs[index])
            guard let stored = try snapshotRows(of: projection, at: sequence) else { continue }
            let replayed = run.encodedRows()
            let same = stored.count == replayed.count && zip(stored, replayed).allSatisfy { $0.key == $1.key && $0.row == $1.row }
            checks[projection.name, default: SnapshotCheck(name: projection.name, checked: 0, mismatched: [])].checked += 1
            if !same { checks[projection.name]?.mismatched.append(sequence) }
        }
    }
}

extension LMDBEventStore {
    /// Drops every snapshot: the ledger then stands as one an earlier Stride wrote, its past
    /// folded from sequence 1 until its next rebuild takes them.
    /// - Throws: ``LMDBError``.
    public func dropAllSnapshots() throws {
        try environment.write { try $0.empty(snapshotsDatabase) }
    }

    /// Forgets the index of recording times, as a ledger an earlier Stride wrote has none:
    /// instants are then found by a walk until the next rebuild indexes them.
    /// - Throws: ``LMDBError``.
    public func dropRecordingTimes() throws {
        try environment.write { transaction in
            try transaction.empty(recordedDatabase)
            _ = try Self.recordedThroughKey.withUnsafeBytes { try transaction.delete(key: $0, in: metaDatabase) }
        }
    }
}
