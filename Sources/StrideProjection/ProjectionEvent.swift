import StrideEvents

/// An event as a projection receives it: samples as their facts, everything else decoded.
public struct ProjectionEvent: Sendable {
    /// What the event says: a sample's facts, or any other event decoded.
    public typealias Content = EventContent

    /// The sequence.
    public var sequence: UInt64
    /// When the log recorded it.
    public var recordedAt: Timestamp
    /// When its subject happened.
    public var occurredAt: Timestamp
    /// The entity.
    public var entity: EntityReference
    /// The content.
    public var content: Content

    /// Creates a projection event.
    public init(sequence: UInt64, recordedAt: Timestamp, occurredAt: Timestamp, entity: EntityReference, content: Content) {
        self.sequence = sequence
        self.recordedAt = recordedAt
        self.occurredAt = occurredAt
        self.entity = entity
        self.content = content
    }

    /// A recorded event as a projection sees it.
    public init(_ recorded: RecordedEvent) {
        let content: Content
        if case .sampleRecorded(let sample) = recorded.event {
            content = .sample(SampleFacts(sample, isSyncIdentified: SampleIdentity.isSyncIdentified(recorded.entity)))
        } else {
            content = .event(recorded.event)
        }
        self.init(
            sequence: recorded.sequence, recordedAt: recorded.recordedAt, occurredAt: recorded.occurredAt,
            entity: recorded.entity, content: content)
    }
}

extension ProjectionEvent {
    /// Decodes a stored event as a projection receives it: a sample's facts only.
    /// - Throws: ``DecodingFailure`` when the bytes cannot be read.
    public static func decode(_ bytes: UnsafeRawBufferPointer, strings: StringTable?) throws -> ProjectionEvent {
        let (envelope, content) = try Envelope.decodeContent(bytes, strings: strings)
        return ProjectionEvent(
            sequence: envelope.sequence, recordedAt: envelope.recordedAt, occurredAt: envelope.occurredAt, entity: envelope.entity,
            content: content)
    }
}
