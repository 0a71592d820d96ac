/// The event log as the rest of Stride sees it: append in batches, read back in order, by
/// type or by entity. StrideStore's `LMDBEventStore` implements it for real ledgers, and
/// ``InMemoryEventStore`` as its reference; one conformance suite (`EventStoreConformanceTests`)
/// checks that both keep the contract and store the same envelopes with the same hashes.
public protocol EventStore: AnyObject, Sendable {
    /// Appends a batch in one transaction: all or nothing.
    ///
    /// Events whose idempotency key the log already holds (or that an earlier event of the
    /// same batch carries) are skipped. Expectations are checked first, inside the same
    /// transaction, against the log as it is before the batch.
    /// - Throws: ``EventStoreError/versionConflict(entity:expected:actual:)`` when an
    ///   expectation fails (nothing is appended), or a storage error.
    func append(
        _ events: [PendingEvent], expecting: [VersionExpectation], recordedAt: Timestamp
    ) throws
        -> AppendOutcome

    /// The last sequence number, 0 for an empty log.
    func lastSequence() throws -> UInt64

    /// Visits events in sequence order from `from` through `through` (inclusive) while
    /// `visit` returns true.
    /// - Throws: ``EventLogFault`` when a stored event cannot be decoded, or what `visit` throws.
    func scan(from: UInt64, through: UInt64, _ visit: (RecordedEvent) throws -> Bool) throws

    /// The events of one type from a sequence on, at most `limit` of them.
    func events(ofType type: EventType, from: UInt64, limit: Int) throws -> [RecordedEvent]

    /// Every event about one entity, in order.
    func events(about entity: EntityReference) throws -> [RecordedEvent]

    /// The number of events about an entity: its version for ``VersionExpectation``.
    func version(of entity: EntityReference) throws -> UInt64

    /// Whether the log holds an event with this idempotency key.
    func contains(_ key: IdempotencyKey) throws -> Bool

    /// The stored bytes of events from `from` through `through`, for export and audits.
    func storedEvents(from: UInt64, through: UInt64, _ visit: (StoredEvent) throws -> Bool) throws
}

extension EventStore {
    /// Appends a batch with no expectations. See ``append(_:expecting:recordedAt:)``.
    @discardableResult
    public func append(_ events: [PendingEvent], recordedAt: Timestamp) throws -> AppendOutcome {
        try append(events, expecting: [], recordedAt: recordedAt)
    }

    /// Visits every event from `from` on. See ``scan(from:through:_:)``.
    public func scan(from: UInt64 = 1, _ visit: (RecordedEvent) throws -> Bool) throws {
        try scan(from: from, through: .max, visit)
    }

    /// The event at a sequence number, if the log has one.
    public func event(at sequence: UInt64) throws -> RecordedEvent? {
        var found: RecordedEvent?
        try scan(from: sequence, through: sequence) { event in
            found = event
            return false
        }
        return found
    }
}

/// One event's stored bytes, copied out of the log.
public struct StoredEvent: Hashable, Sendable {
    /// The sequence it is stored under.
    public var sequence: UInt64
    /// The envelope's bytes (see ``Envelope``).
    public var bytes: [UInt8]

    /// Creates a stored event.
    public init(sequence: UInt64, bytes: [UInt8]) {
        self.sequence = sequence
        self.bytes = bytes
    }
}

/// Why the event log refused an operation.
public enum EventStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// An entity did not have the expected number of events: someone else changed it first.
    case versionConflict(entity: EntityReference, expected: UInt64, actual: UInt64)

    public var description: String {
        switch self {
        case .versionConflict(let entity, let expected, let actual):
            "\(entity) changed while this command ran (expected version \(expected), found \(actual)); run the command again"
        }
    }
}
