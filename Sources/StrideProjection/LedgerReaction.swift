import StrideEvents

/// Reads projection rows as they stand inside the transaction that is appending: what a
/// reaction decides from.
public protocol ProjectionStateReader {
    /// The row of a projection under a key, if there is one.
    func row<P: Projection>(_ key: P.Key, of projection: P) throws -> P.Row?

    /// The rows of a projection from `lower` (included) up to `upper` (excluded), in key order.
    func rows<P: Projection>(from lower: P.Key, before upper: P.Key, of projection: P) throws -> [(key: P.Key, row: P.Row)]
}

/// A policy that answers appended events with more events, appended in the same
/// transaction: auto-assignment of new runs to the default shoe, say. Pure: it decides from
/// the events and the projection state it reads, nothing else.
public protocol LedgerReaction: Sendable {
    /// The types of event it answers. Only appended events of these types are handed to
    /// ``react(to:state:)``: an ingest's samples, say, are never turned into projection
    /// events for a reaction that answers workouts.
    var answeredTypes: Set<EventType> { get }

    /// The events to append in answer to `appended` (already folded into the projections),
    /// which holds events of ``answeredTypes`` only — and possibly of the types other
    /// reactions answer, so a reaction still looks at what each event is.
    /// - Throws: what reading the state throws.
    func react(to appended: [ProjectionEvent], state: any ProjectionStateReader) throws -> [PendingEvent]
}

extension ProjectionEvent {
    /// A pending event as a projection will see it once appended under `sequence`.
    /// - Throws: ``DecodingFailure`` for an encoded payload that cannot be read.
    /// The one way from an event to what projections see of it: a sample becomes its facts,
    /// any other event itself (decoded, when it was given encoded).
    public init(_ pending: PendingEvent, sequence: UInt64, recordedAt: Timestamp) throws {
        let event: LedgerEvent
        switch pending.body {
        case .event(.sampleRecorded(let sample)):
            self.init(
                sequence: sequence, recordedAt: recordedAt, occurredAt: pending.occurredAt, entity: pending.entity,
                content: .sample(SampleFacts(sample, isSyncIdentified: SampleIdentity.isSyncIdentified(pending.entity))))
            return
        case .event(let typed): event = typed
        case .encoded(let encoded):
            event = try encoded.bytes.withUnsafeBytes {
                try LedgerEvent.decode(typeCode: encoded.typeCode, schemaVersion: encoded.schemaVersion, from: $0)
            }
        }
        let recorded = RecordedEvent(
            sequence: sequence, recordedAt: recordedAt, occurredAt: pending.occurredAt, entity: pending.entity,
            idempotencyKey: pending.idempotencyKey, storedSchemaVersion: 0, event: event)
        self.init(recorded)
    }
}
