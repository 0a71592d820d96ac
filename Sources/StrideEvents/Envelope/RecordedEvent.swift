/// An event as the log holds it: its envelope and its decoded, upcast payload.
public struct RecordedEvent: Hashable, Sendable {
    /// The position in the log, gap-free from 1.
    public var sequence: UInt64
    /// When the log recorded it.
    public var recordedAt: Timestamp
    /// When the thing it records happened.
    public var occurredAt: Timestamp
    /// The entity it concerns.
    public var entity: EntityReference
    /// Its idempotency key, when it has one.
    public var idempotencyKey: IdempotencyKey?
    /// The schema version its payload was written in (the payload itself is upcast).
    public var storedSchemaVersion: UInt16
    /// The event.
    public var event: LedgerEvent

    /// Creates a recorded event.
    public init(
        sequence: UInt64, recordedAt: Timestamp, occurredAt: Timestamp, entity: EntityReference,
        idempotencyKey: IdempotencyKey?, storedSchemaVersion: UInt16, event: LedgerEvent
    ) {
        self.sequence = sequence
        self.recordedAt = recordedAt
        self.occurredAt = occurredAt
        self.entity = entity
        self.idempotencyKey = idempotencyKey
        self.storedSchemaVersion = storedSchemaVersion
        self.event = event
    }
}
