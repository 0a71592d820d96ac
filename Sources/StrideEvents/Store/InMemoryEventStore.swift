import Synchronization

/// An event log in memory: the same envelopes, hashes, idempotency and version checks as the
/// LMDB log, with nothing on disk. The reference the ``EventStore`` contract is read from:
/// StrideStore's conformance suite runs the same tests on it and on the LMDB store.
public final class InMemoryEventStore: EventStore {
    private struct Log {
        var envelopes: [[UInt8]] = []
        var lastHash = ChainHash.genesis
        var keys: [IdempotencyKey: UInt64] = [:]
        var entities: [EntityReference: [UInt64]] = [:]
        var types: [UInt16: [UInt64]] = [:]
    }

    private let log = Mutex(Log())

    /// Creates an empty log.
    public init() {}

    public func append(
        _ events: [PendingEvent], expecting: [VersionExpectation], recordedAt: Timestamp
    ) throws
        -> AppendOutcome
    {
        try log.withLock { log in
            // Work on a copy so that a failed batch leaves nothing behind, as a transaction would.
            var draft = log
            let result = try LogAppender.append(
                events, expecting: expecting, recordedAt: recordedAt,
                after: UInt64(draft.envelopes.count), lastHash: draft.lastHash,
                version: { UInt64(draft.entities[$0]?.count ?? 0) },
                claimKey: { _, key, sequence in
                    if let holder = draft.keys[key] { return holder }
                    draft.keys[key] = sequence
                    return nil
                },
                holder: { draft.keys[$0] },
                store: { sequence, entity, _, typeCode, envelope in
                    draft.envelopes.append(Array(envelope))
                    draft.entities[entity, default: []].append(sequence)
                    draft.types[typeCode, default: []].append(sequence)
                })
            draft.lastHash = result.lastHash
            log = draft
            return result.outcome
        }
    }

    public func lastSequence() throws -> UInt64 {
        log.withLock { UInt64($0.envelopes.count) }
    }

    public func scan(from: UInt64, through: UInt64, _ visit: (RecordedEvent) throws -> Bool) throws {
        let envelopes = log.withLock { $0.envelopes }
        guard !envelopes.isEmpty, from <= through else { return }
        var sequence = max(from, 1)
        while sequence <= min(through, UInt64(envelopes.count)) {
            let event = try decode(envelopes[Int(sequence - 1)], sequence: sequence)
            guard try visit(event) else { return }
            sequence += 1
        }
    }

    public func events(ofType type: EventType, from: UInt64, limit: Int) throws -> [RecordedEvent] {
        let (envelopes, sequences) = log.withLock { ($0.envelopes, $0.types[type.code] ?? []) }
        return try sequences.lazy.filter { $0 >= from }.prefix(limit).map { try decode(envelopes[Int($0 - 1)], sequence: $0) }
    }

    public func events(about entity: EntityReference) throws -> [RecordedEvent] {
        let (envelopes, sequences) = log.withLock { ($0.envelopes, $0.entities[entity] ?? []) }
        return try sequences.map { try decode(envelopes[Int($0 - 1)], sequence: $0) }
    }

    public func version(of entity: EntityReference) throws -> UInt64 {
        log.withLock { UInt64($0.entities[entity]?.count ?? 0) }
    }

    public func contains(_ key: IdempotencyKey) throws -> Bool {
        log.withLock { $0.keys[key] != nil }
    }

    public func storedEvents(from: UInt64, through: UInt64, _ visit: (StoredEvent) throws -> Bool) throws {
        let envelopes = log.withLock { $0.envelopes }
        guard !envelopes.isEmpty, from <= through else { return }
        for sequence in max(from, 1)...min(through, UInt64(envelopes.count)) {
            guard try visit(StoredEvent(sequence: sequence, bytes: envelopes[Int(sequence - 1)])) else { return }
        }
    }

    /// Replaces the stored bytes of one event, to test that damage is caught.
    public func corrupt(sequence: UInt64, _ change: (inout [UInt8]) -> Void) {
        log.withLock { change(&$0.envelopes[Int(sequence - 1)]) }
    }

    private func decode(_ bytes: [UInt8], sequence: UInt64) throws -> RecordedEvent {
        do {
            return try bytes.withUnsafeBytes { try Envelope.decodeEvent($0) }
        } catch {
            throw EventLogFault(sequence: sequence, problem: "it cannot be decoded (\(error))")
        }
    }
}
