/// An event on its way into the log: everything but the sequence number, the recording time
/// and the hashes, which the log assigns inside the write transaction.
public struct PendingEvent: Sendable {
    /// What the event says: a typed event, or a payload already in bytes.
    ///
    /// Boxed (`indirect`), so that copying a pending event — which the append path cannot
    /// always avoid — retains one reference rather than every string of a sample.
    public indirect enum Body: Sendable {
        /// A typed event, encoded in its current schema version when appended.
        case event(LedgerEvent)
        /// A payload already encoded, kept as it is (imports, and old schema versions in tests).
        case encoded(EncodedPayload)
    }

    /// When the thing the event records happened (a sample's start, a command's `--at`).
    public var occurredAt: Timestamp
    /// The entity the event concerns.
    public var entity: EntityReference
    /// The key that makes the append idempotent, when the event has one.
    public var idempotencyKey: IdempotencyKey?
    /// The key an earlier Stride gave the same event, when it gave another: an event already
    /// in the log under it makes this one a duplicate too. Checked, never recorded.
    public var formerKey: IdempotencyKey?
    /// The event itself.
    public let body: Body
    /// The code of the event's type, noted when the event is made: the appending
    /// transaction asks it of every event, and reading it from the body would copy the body.
    public let typeCode: UInt16

    /// Creates a pending typed event.
    public init(_ event: LedgerEvent, occurredAt: Timestamp, entity: EntityReference, idempotencyKey: IdempotencyKey? = nil) {
        self.occurredAt = occurredAt
        self.entity = entity
        self.idempotencyKey = idempotencyKey
        // The code first: the event then moves into the body instead of being copied.
        typeCode = event.typeCode
        self.body = .event(event)
    }

    /// Creates a pending event from an encoded payload.
    public init(
        encoded payload: EncodedPayload, occurredAt: Timestamp, entity: EntityReference,
        idempotencyKey: IdempotencyKey? = nil
    ) {
        self.occurredAt = occurredAt
        self.entity = entity
        self.idempotencyKey = idempotencyKey
        self.body = .encoded(payload)
        typeCode = payload.typeCode
    }
}

/// A requirement that an entity has exactly `version` events when a batch is appended: the
/// optimistic concurrency check for commands ("spend only if nobody spent meanwhile").
public struct VersionExpectation: Hashable, Sendable {
    /// The entity.
    public var entity: EntityReference
    /// The number of events it must have.
    public var version: UInt64

    /// Creates an expectation.
    public init(_ entity: EntityReference, version: UInt64) {
        self.entity = entity
        self.version = version
    }
}

/// What an append did.
public struct AppendOutcome: Hashable, Sendable {
    /// For each pending event, in order, the sequence it was given, or nil when its
    /// idempotency key was already in the log (a duplicate, skipped).
    public var sequences: [UInt64?]
    /// The log's last sequence after the append.
    public var lastSequence: UInt64
    /// Events that reactions appended in answer, in the same transaction.
    public var followUps: [PendingEvent] = []
    /// For the events skipped as duplicates, in order, the sequence of the event each one's
    /// key already points at: what of the log an ingest found again.
    public var existingSequences: [UInt64] = []

    /// Creates an outcome.
    public init(sequences: [UInt64?], lastSequence: UInt64) {
        self.sequences = sequences
        self.lastSequence = lastSequence
    }

    public static func == (lhs: AppendOutcome, rhs: AppendOutcome) -> Bool {
        lhs.sequences == rhs.sequences && lhs.lastSequence == rhs.lastSequence && lhs.followUps.count == rhs.followUps.count
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(sequences)
        hasher.combine(lastSequence)
    }

    /// How many events were appended.
    public var appendedCount: Int { sequences.reduce(0) { $0 + ($1 == nil ? 0 : 1) } }
    /// How many were skipped as duplicates.
    public var duplicateCount: Int { sequences.count - appendedCount }
}
