import StrideEvents
import StrideProjection

extension LMDBEventStore {
    /// A projection's stored rows with keys from `lower` (inclusive) to `upper` (exclusive,
    /// nil for no bound), in key order; each row's first `headBytes` bytes only, when given.
    func storedRows(
        of name: String, from lower: [UInt8] = [], before upper: [UInt8]? = nil, keeping: (UnsafeRawBufferPointer) -> Bool = { _ in true },
        headBytes: Int = .max
    ) throws -> EncodedRows {
        let database = try rowsDatabase(name)
        return try environment.read { transaction in
            try transaction.withCursor(database) { cursor in
                var rows: EncodedRows = []
                var entry = try lower.isEmpty ? cursor.first() : lower.withUnsafeBytes { try cursor.seek(atOrAfter: $0) }
                while let current = entry {
                    if let upper, !upper.withUnsafeBytes({ current.key.sortsBefore($0) }) { break }
                    if keeping(current.key) {
                        let value = current.value.count <= headBytes ? Array(current.value) : Array(current.value.prefix(headBytes))
                        rows.append((Array(current.key), value))
                    }
                    entry = try cursor.next()
                }
                return rows
            }
        }
    }

    /// The greatest key of a projection's rows before `upper`, if any.
    func storedKey(of name: String, before upper: [UInt8]) throws -> [UInt8]? {
        let database = try rowsDatabase(name)
        return try environment.read { transaction in
            try transaction.withCursor(database) { cursor in
                let atOrAfter = try upper.withUnsafeBytes { try cursor.seek(atOrAfter: $0) }
                let entry = try atOrAfter == nil ? cursor.last() : cursor.previous()
                return entry.map { Array($0.key) }
            }
        }
    }

    /// The greatest key of a projection's rows before `upper` whose row `accepts`: one cursor
    /// walking back, the rows passed neither copied nor decoded.
    func storedKey(
        of name: String, before upper: [UInt8], where accepts: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool
    ) throws -> [UInt8]? {
        let database = try rowsDatabase(name)
        return try environment.read { transaction in
            try transaction.withCursor(database) { cursor in
                let atOrAfter = try upper.withUnsafeBytes { try cursor.seek(atOrAfter: $0) }
                var entry = try atOrAfter == nil ? cursor.last() : cursor.previous()
                while let current = entry {
                    if try accepts(current.key, current.value) { return Array(current.key) }
                    entry = try cursor.previous()
                }
                return nil
            }
        }
    }

    /// One stored row of a projection.
    func storedRow(of name: String, key: [UInt8]) throws -> [UInt8]? {
        let database = try rowsDatabase(name)
        return try environment.read { try $0.bytes(in: database, forKey: key) }
    }

    /// The digest of a projection's stored rows and the checkpoint they stand at, read in
    /// one snapshot.
    public func storedDigest(of name: String) throws -> (checkpoint: ProjectionCheckpoint?, digest: ChainHash) {
        let database = try rowsDatabase(name)
        return try environment.read { transaction in
            let checkpoint = try checkpoint(of: name, in: transaction)
            var digest = ProjectionDigest()
            try transaction.withCursor(database) { cursor in
                var entry = try cursor.first()
                while let current = entry {
                    digest.add(key: current.key, row: current.value)
                    entry = try cursor.next()
                }
            }
            return (checkpoint, digest.value)
        }
    }

    /// Runs projections in memory over the events from 1 through `through`, each only up to
    /// its own limit in `limits` (when given), touching nothing stored. `atPause` is called with
    /// the runs after each event of a sequence in `pauses` (where snapshots were taken).
    public func replay(
        _ projections: [any Projection], through: UInt64, limits: [UInt64]? = nil, include: (ProjectionEvent) -> Bool = { _ in true },
        pauses: Set<UInt64> = [], atPause: (UInt64, [RunningProjection]) throws -> Void = { _, _ in }, progress: (UInt64) -> Void = { _ in }
    ) throws -> [RunningProjection] {
        let runs = projections.map { $0.makeRun { _ in nil } }
        try environment.read { transaction in
            try runs.withFoldStep { apply in
                try forEachCommittedProjectionEvent(from: 1, through: through, in: transaction) { sequence, event in
                    if include(event) {
                        for index in runs.indices where limits.map({ sequence <= $0[index] }) ?? true { apply(index, event) }
                    }
                    if !pauses.isEmpty, pauses.contains(sequence) { try atPause(sequence, runs) }
                    if sequence % 262_144 == 0 { progress(sequence) }
                }
            }
        }
        return runs
    }

    /// Hands each event from `first` through `last`, as projections receive it, to `body`:
    /// the one loop behind folding, catching up and replaying. `skippingSamples`: samples are
    /// passed by on their type code, undecoded (for projections that fold none).
    /// - Throws: ``EventLogFault`` naming an event that cannot be decoded, or what `body` throws.
    func forEachProjectionEvent(
        from first: UInt64, through last: UInt64, in transaction: borrowing Transaction, skippingSamples: Bool = false,
        _ body: (UInt64, ProjectionEvent) throws -> Void
    ) throws {
        let strings = StringTable()
        let sampleCode = EventType.sampleRecorded.code
        try walkLog(from: first, through: last, in: transaction) { sequence, bytes in
            if skippingSamples, Envelope.typeCode(ofStored: bytes) == sampleCode { return true }
            let event: ProjectionEvent
            do {
                event = try ProjectionEvent.decode(bytes, strings: strings)
            } catch {
                throw EventLogFault(sequence: sequence, problem: "it cannot be decoded (\(error)); run `stride verify`")
            }
            try body(sequence, event)
            return true
        }
    }
}
