import StrideEvents

/// The `shortIDs` index: a sample's or a workout's entity by its short id — the last 16
/// hexadecimal digits of its id, which `stride log`, `daily explain` and the API print — so that
/// a person's prefix of one is a seek, not a walk over every identity in the log.
///
/// Key: the entity kind, then the id's low 64 bits, then its high 64 bits (big-endian, so that
/// keys sort as the hexadecimal digits do); no value.
///
/// It is kept up by the lookups, not by appends: an ingest of a million samples pays nothing
/// for it, and the first lookup after it indexes the events appended since (the envelopes
/// only, no payload decoded). `meta`'s `shortIDsThrough` says how far it covers the log; a
/// ledger an earlier Stride wrote has none, and is indexed whole at its first lookup.
extension LMDBEventStore {
    static let shortIDsThroughKey = Array("shortIDsThrough".utf8)
    /// Events indexed in one write transaction, so that indexing a decade at once never holds
    /// the writer's lock for long.
    static let shortIDRound: UInt64 = 250_000

    /// The entities of `kind` whose short id starts with `prefix` (1 to 16 lowercase hexadecimal
    /// digits), at most `limit`, in the order of their short ids; or the entity whose whole
    /// 32-digit id `prefix` is. The index is brought up to the log first.
    /// - Throws: ``LMDBError``, or ``EventLogFault`` for an event whose envelope cannot be read.
    public func entities(of kind: EntityKind, shortIDPrefix prefix: String, limit: Int) throws -> [EntityReference] {
        try entities(of: kind, shortIDPrefixes: [prefix], limit: limit)[0]
    }

    /// For each of `prefixes`, as ``entities(of:shortIDPrefix:limit:)`` finds them: the index
    /// is brought up to the log once, and every prefix is sought in one snapshot.
    /// - Throws: ``LMDBError``, or ``EventLogFault`` for an event whose envelope cannot be read.
    public func entities(of kind: EntityKind, shortIDPrefixes prefixes: [String], limit: Int) throws -> [[EntityReference]] {
        try indexShortIDs()
        return try environment.read { transaction in
            try transaction.withCursor(shortIDsDatabase) { cursor in
                try prefixes.map { prefix in try Self.entities(of: kind, shortIDPrefix: prefix, limit: limit, through: &cursor) }
            }
        }
    }

    /// The entities one prefix names, sought with a cursor on the index.
    private static func entities(
        of kind: EntityKind, shortIDPrefix prefix: String, limit: Int, through cursor: inout Cursor
    ) throws -> [EntityReference] {
        let digits = prefix.utf8.count
        // A short id has 16 digits and a whole id 32: anything between names nothing.
        guard digits > 0, digits <= 16 || digits == 32, let value = Hex.uint128(prefix) else { return [] }
        if digits == 32 {
            let entity = EntityReference(kind, id: value)
            return try withShortIDKey(entity) { try cursor.seek(exactly: $0) } == nil ? [] : [entity]
        }
        let width = UInt64(digits) * 4
        let wanted = UInt64(value)
        let lowest = width == 64 ? wanted : wanted << (64 - width)
        var found: [EntityReference] = []
        var entry = try withShortIDKey(EntityReference(kind, id: UInt128(lowest))) { try cursor.seek(atOrAfter: $0) }
        while let current = entry, found.count < limit, let entity = entity(ofShortIDKey: current.key), entity.kind == kind {
            let low = UInt64(truncatingIfNeeded: entity.id)
            guard (width == 64 ? low : low >> (64 - width)) == wanted else { break }
            found.append(entity)
            entry = try cursor.next()
        }
        return found
    }

    /// Indexes the samples and workouts of the events the index does not cover yet, in rounds.
    /// - Throws: ``LMDBError``, or ``EventLogFault`` for an event whose envelope cannot be read.
    func indexShortIDs() throws {
        // Most lookups find the index covering the log: learned in a snapshot, without the
        // writer's lock (another process's ingest may hold it).
        var isCovered = try environment.read { transaction in
            try coverage(ofKey: Self.shortIDsThroughKey, in: transaction) >= tail(in: transaction).0
        }
        while !isCovered {
            isCovered = try environment.write { transaction in
                let covered = try coverage(ofKey: Self.shortIDsThroughKey, in: transaction)
                let last = try tail(in: transaction).0
                guard covered < last else { return true }
                let through = min(last, covered + Self.shortIDRound)
                try transaction.withCursor(shortIDsDatabase) { index in
                    try walkLog(from: covered + 1, through: through, in: transaction) { sequence, bytes in
                        guard bytes.count >= Envelope.fixedHeaderSize, let kind = EntityKind(rawValue: bytes[6]) else {
                            throw EventLogFault(sequence: sequence, problem: "its envelope cannot be read; run `stride verify`")
                        }
                        guard kind == .sample || kind == .workout else { return true }
                        let entity = EntityReference(kind, id: UInt128(littleEndian: bytes.loadUnaligned(fromByteOffset: 32, as: UInt128.self)))
                        try Self.withShortIDKey(entity) { key in
                            _ = try withUnsafeBytes(of: UInt8(0)) {
                                try index.put(UnsafeRawBufferPointer(rebasing: $0[0..<0]), forKey: key, flags: [])
                            }
                        }
                        return true
                    }
                }
                try transaction.put(withUnsafeBytes(of: through.littleEndian) { Array($0) }, forKey: Self.shortIDsThroughKey, in: metaDatabase)
                return through == last
            }
        }
    }

    /// A sequence kept in `meta` under `key` (0 when there is none).
    func coverage(ofKey key: [UInt8], in transaction: borrowing Transaction) throws -> UInt64 {
        guard let bytes = try transaction.bytes(in: metaDatabase, forKey: key), bytes.count == 8 else { return 0 }
        return bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
    }

    /// The entity a `shortIDs` key names; nil for bytes that are no such key.
    static func entity(ofShortIDKey key: UnsafeRawBufferPointer) -> EntityReference? {
        guard key.count == 17, let kind = EntityKind(rawValue: key[0]) else { return nil }
        let low = UInt64(bigEndian: UnsafeRawBufferPointer(rebasing: key[1..<9]).loadUnaligned(as: UInt64.self))
        let high = UInt64(bigEndian: UnsafeRawBufferPointer(rebasing: key[9..<17]).loadUnaligned(as: UInt64.self))
        return EntityReference(kind, id: UInt128(high) << 64 | UInt128(low))
    }

    /// Calls `body` with an entity's 17-byte `shortIDs` key.
    static func withShortIDKey<R>(_ entity: EntityReference, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeTemporaryAllocation(byteCount: 17, alignment: 1) { buffer in
            buffer[0] = entity.kind.rawValue
            buffer.storeBytes(of: UInt64(truncatingIfNeeded: entity.id).bigEndian, toByteOffset: 1, as: UInt64.self)
            buffer.storeBytes(of: UInt64(truncatingIfNeeded: entity.id >> 64).bigEndian, toByteOffset: 9, as: UInt64.self)
            return try body(UnsafeRawBufferPointer(buffer))
        }
    }
}
