import StrideEvents

extension LMDBEventStore {
    /// The sequences of the events of `kind` whose identity starts in `from...through`
    /// (sample and workout identities begin with their start: see ``SampleIdentity``) and that
    /// `keeping` accepts, in identity order — one walk of the key index, asking `keeping` of
    /// each, so that a decade of samples costs no memory when few are kept. Aliases are left
    /// out: each event is met once, under its own key.
    /// - Throws: ``LMDBError``, or ``EventLogFault`` for an index entry that cannot be read.
    public func sequences(
        of kind: EntityKind, startingFrom from: Timestamp, through: Timestamp, keeping: (UInt64) -> Bool
    ) throws -> [UInt64] {
        let lower = SampleIdentity.make(start: from, hash: 0)
        let upper = SampleIdentity.make(start: through, hash: .max)
        return try environment.read { transaction in
            try transaction.withCursor(keysDatabase) { cursor in
                var kept: [UInt64] = []
                var entry = try withUnsafeBytes(of: lower.bigEndian) { try cursor.seek(atOrAfter: $0) }
                while let current = entry {
                    guard current.key.count == 16, let held = KeyEntry(current.value) else {
                        throw EventLogFault(sequence: 0, problem: "the idempotency index holds an entry it cannot read; run `stride verify`")
                    }
                    guard UInt128(bigEndian: current.key.loadUnaligned(as: UInt128.self)) <= upper else { break }
                    if held.entityKind == kind.rawValue, held.role != .alias, keeping(held.sequence) { kept.append(held.sequence) }
                    entry = try cursor.next()
                }
                return kept
            }
        }
    }

    /// The events at these sequences, read in one snapshot, in the order asked (a sequence
    /// the log does not hold is left out).
    /// - Throws: ``EventLogFault`` for an event that cannot be decoded, or ``LMDBError``.
    public func events(atSequences sequences: [UInt64]) throws -> [RecordedEvent] {
        try environment.read { transaction in
            try sequences.compactMap { sequence in
                try transaction.value(in: eventsDatabase, forKey: sequence) { try Self.decode($0, sequence: sequence) }
            }
        }
    }
}

extension LMDBEventStore {
    /// The entities of `kind` whose id `matches` accepts, at most `limit`: those recorded under
    /// their own id (samples and workouts identified by their content) from the key index,
    /// the others (samples identified by a sync identifier) from the entity index. A walk of
    /// both indexes: for finding what a person named by a prefix of its id.
    /// - Throws: ``LMDBError``, or ``EventLogFault`` for an index entry that cannot be read.
    public func entities(of kind: EntityKind, matching matches: (UInt128) -> Bool, limit: Int) throws -> [EntityReference] {
        try environment.read { transaction in
            var found: [EntityReference] = []
            try transaction.withCursor(keysDatabase) { cursor in
                var entry = try cursor.first()
                while let current = entry, found.count < limit {
                    guard current.key.count == 16, let held = KeyEntry(current.value) else {
                        throw EventLogFault(sequence: 0, problem: "the idempotency index holds an entry it cannot read; run `stride verify`")
                    }
                    let id = UInt128(bigEndian: current.key.loadUnaligned(as: UInt128.self))
                    if held.isSelfKeyed, held.entityKind == kind.rawValue, matches(id) { found.append(EntityReference(kind, id: id)) }
                    entry = try cursor.next()
                }
            }
            try transaction.withCursor(entitiesDatabase) { cursor in
                var entry = try withUnsafeBytes(of: kind.rawValue) { try cursor.seek(atOrAfter: $0) }
                while let current = entry, found.count < limit, current.key.count == 17, current.key[0] == kind.rawValue {
                    let id = UInt128(bigEndian: UnsafeRawBufferPointer(rebasing: current.key[1...]).loadUnaligned(as: UInt128.self))
                    // Decisions about an entity recorded under its own id are indexed here too.
                    let entity = EntityReference(kind, id: id)
                    if matches(id), !found.contains(entity) { found.append(entity) }
                    entry = try cursor.nextKey()
                }
            }
            return found
        }
    }
}
