import StrideEvents

/// Another identity of an event already in the log, held in the `keys` index beside the
/// event's own key: what an Apple Health export calls a sample today, when the ledger
/// appended it under the identity an older Stride gave it. An event carrying such a key is a
/// duplicate, as one carrying the event's own key is.
public struct KeyAlias: Hashable, Sendable {
    /// The identity.
    public var key: IdempotencyKey
    /// The sequence of the event it names.
    public var sequence: UInt64
    /// The kind of that event's entity.
    public var kind: EntityKind

    /// Creates an alias.
    public init(key: IdempotencyKey, sequence: UInt64, kind: EntityKind) {
        self.key = key
        self.sequence = sequence
        self.kind = kind
    }
}

extension LMDBEventStore {
    /// The aliases one write transaction of ``recordAliases(_:)`` puts at most.
    static let aliasesPerTransaction = 32_768

    /// Records aliases, each unless its key is known: for each, nil when recorded, or the
    /// sequence of the event the key already names (the event itself when it already carries
    /// the key, an earlier one when the two are one sample).
    ///
    /// The keys are put in key order, in transactions of at most
    /// ``aliasesPerTransaction``: the keys are hashes, so in the order given every
    /// transaction would rewrite most of the index's pages and hold them all in memory until
    /// its commit; in key order each rewrites one stretch of it. Of two aliases with one key,
    /// the earlier event's is put first and holds it. Interrupted, some are recorded and some
    /// not; recording them again names each recorded one's own event.
    /// - Throws: ``LMDBError``.
    public func recordAliases(_ aliases: [KeyAlias]) throws -> [UInt64?] {
        let order = aliases.indices.sorted { left, right in
            (aliases[left].key.value, aliases[left].sequence) < (aliases[right].key.value, aliases[right].sequence)
        }
        var holders = [UInt64?](repeating: nil, count: aliases.count)
        for start in stride(from: 0, to: order.count, by: Self.aliasesPerTransaction) {
            let part = order[start..<min(order.count, start + Self.aliasesPerTransaction)]
            try environment.write { transaction in
                try transaction.withCursor(keysDatabase) { keys in
                    for index in part {
                        let alias = aliases[index]
                        let entry = KeyEntry(sequence: alias.sequence, entityKind: alias.kind.rawValue, role: .alias)
                        holders[index] = try withUnsafeBytes(of: alias.key.value.bigEndian) { key in
                            try entry.withBytes { value in try keys.putIfAbsent(value, forKey: key).map { KeyEntry($0)?.sequence ?? 0 } }
                        }
                    }
                }
            }
        }
        return holders
    }

    /// For each key, the event it names in the key index and whether as an alias; nil for a
    /// key the index does not hold. Read in one snapshot.
    /// - Throws: ``LMDBError``.
    public func holders(of keys: [IdempotencyKey]) throws -> [(sequence: UInt64, isAlias: Bool)?] {
        try environment.read { transaction in
            try keys.map { key in try keyEntry(key, in: transaction).map { ($0.sequence, $0.role == .alias) } }
        }
    }

    /// The number of aliases in the key index.
    /// - Throws: ``LMDBError``, or ``EventLogFault`` for an entry that cannot be read.
    public func aliasCount() throws -> Int {
        try environment.read { transaction in
            try transaction.withCursor(keysDatabase) { cursor in
                var count = 0
                var entry = try cursor.first()
                while let current = entry {
                    if KeyEntry(current.value)?.role == .alias { count += 1 }
                    entry = try cursor.next()
                }
                return count
            }
        }
    }

    /// Every alias in the key index, in key order.
    /// - Throws: ``LMDBError``, or ``EventLogFault`` for an entry of the wrong size.
    public func aliases() throws -> [KeyAlias] {
        try environment.read { transaction in try aliases(in: transaction) }
    }

    func aliases(in transaction: borrowing Transaction) throws -> [KeyAlias] {
        try transaction.withCursor(keysDatabase) { cursor in
            var found: [KeyAlias] = []
            var entry = try cursor.first()
            while let current = entry {
                guard current.key.count == 16, let held = KeyEntry(current.value) else {
                    throw EventLogFault(sequence: 0, problem: "the idempotency index holds an entry it cannot read; run `stride verify`")
                }
                if held.role == .alias, let kind = EntityKind(rawValue: held.entityKind) {
                    let key = UInt128(bigEndian: current.key.loadUnaligned(as: UInt128.self))
                    found.append(KeyAlias(key: IdempotencyKey(key), sequence: held.sequence, kind: kind))
                }
                entry = try cursor.next()
            }
            return found
        }
    }

    /// Removes every alias from the key index (before they are made again from the log).
    /// - Returns: how many were removed.
    /// - Throws: ``LMDBError``.
    @discardableResult
    public func removeAliases() throws -> Int {
        try environment.write { transaction in
            let keys = try aliases(in: transaction).map(\.key)
            for key in keys {
                _ = try withUnsafeBytes(of: key.value.bigEndian) { try transaction.delete(key: $0, in: keysDatabase) }
            }
            return keys.count
        }
    }

    /// The storage format the ledger is written in (see ``storageFormat``).
    /// - Throws: ``LMDBError``.
    public func storedFormat() throws -> UInt32 {
        try environment.read { transaction in
            try Array("format".utf8).withUnsafeBytes { key in
                try transaction.value(in: metaDatabase, forKey: key) { $0.count == 4 ? $0.loadUnaligned(as: UInt32.self) : 0 } ?? 0
            }
        }
    }

    /// Records the storage format the ledger is written in: raised once an upgrade is
    /// complete, lowered by an import whose events are still to be upgraded.
    /// - Throws: ``LMDBError``.
    public func setStoredFormat(_ format: UInt32) throws {
        try environment.write { transaction in
            try transaction.put(withUnsafeBytes(of: format) { Array($0) }, forKey: Array("format".utf8), in: metaDatabase)
        }
    }

    /// A number the ledger keeps about itself under `name` (in the `meta` database), if any.
    /// - Throws: ``LMDBError``.
    public func metaNumber(_ name: String) throws -> UInt64? {
        try environment.read { transaction in
            try Array(name.utf8).withUnsafeBytes { key in
                try transaction.value(in: metaDatabase, forKey: key) { $0.count == 8 ? $0.loadUnaligned(as: UInt64.self) : nil } ?? nil
            }
        }
    }

    /// Keeps a number under `name` in the `meta` database.
    /// - Throws: ``LMDBError``.
    public func setMetaNumber(_ name: String, _ value: UInt64) throws {
        try environment.write { transaction in
            try transaction.put(withUnsafeBytes(of: value) { Array($0) }, forKey: Array(name.utf8), in: metaDatabase)
        }
    }
}
