/// The append algorithm shared by every ``EventStore``: expectations first, then for each
/// event the idempotency check, the next gap-free sequence, the envelope and its chain hash.
/// A store supplies the storage steps; they run inside its write transaction.
public enum LogAppender {
    /// Runs an append after `lastSequence`, whose chain hash is `lastHash`; returns the
    /// outcome and the new last hash.
    ///
    /// - Parameters:
    ///   - version: the number of events about an entity.
    ///   - claimKey: records an event's idempotency key (with its entity) for the sequence it will get; returns
    ///     nil, or the sequence of the event already holding the key (the event is then skipped).
    ///   - holder: the sequence of the event holding a key, if any, recording nothing: an event
    ///     whose ``PendingEvent/formerKey`` is held is skipped as a duplicate.
    ///   - store: stores an event's envelope under its sequence and indexes it by entity,
    ///     key and type.
    /// - Throws: ``EventStoreError/versionConflict(entity:expected:actual:)`` or what a step throws.
    public static func append(
        _ events: [PendingEvent], expecting: [VersionExpectation], recordedAt: Timestamp,
        after lastSequence: UInt64, lastHash: ChainHash,
        version: (EntityReference) throws -> UInt64,
        claimKey: (_ entity: EntityReference, _ key: IdempotencyKey, _ sequence: UInt64) throws -> UInt64?,
        holder: (_ key: IdempotencyKey) throws -> UInt64?,
        store: (
            _ sequence: UInt64, _ entity: EntityReference, _ key: IdempotencyKey?, _ typeCode: UInt16,
            _ envelope: UnsafeRawBufferPointer
        ) throws -> Void
    ) throws -> (outcome: AppendOutcome, lastHash: ChainHash) {
        for expectation in expecting {
            let actual = try version(expectation.entity)
            guard actual == expectation.version else {
                throw EventStoreError.versionConflict(entity: expectation.entity, expected: expectation.version, actual: actual)
            }
        }
        var sequence = lastSequence
        var hash = lastHash
        var sequences: [UInt64?] = []
        sequences.reserveCapacity(events.count)
        var existing: [UInt64] = []
        var writer = BinaryWriter(capacity: 512)
        let hasher = SHA256Hasher()
        // The storage steps get only an event's plain fields, never the event: handing them
        // a sample would retain and release each of its strings once per step. (The envelope
        // writer still gets a copy; its body is one boxed reference, see `PendingEvent.Body`.)
        for index in events.indices {
            let (entity, key) = (events[index].entity, events[index].idempotencyKey)
            if let former = events[index].formerKey, let holder = try holder(former) {
                sequences.append(nil)
                existing.append(holder)
                continue
            }
            if let key, let holder = try claimKey(entity, key, sequence + 1) {
                sequences.append(nil)
                existing.append(holder)
                continue
            }
            sequence += 1
            let written = Envelope.write(
                events[index], sequence: sequence, recordedAt: recordedAt, previous: hash, into: &writer, hasher: hasher)
            hash = written.hash
            try writer.withUnsafeBytes { try store(sequence, entity, key, written.typeCode, $0) }
            sequences.append(sequence)
        }
        var outcome = AppendOutcome(sequences: sequences, lastSequence: sequence)
        outcome.existingSequences = existing
        return (outcome, hash)
    }
}
