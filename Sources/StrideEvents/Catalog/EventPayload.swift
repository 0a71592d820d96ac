/// The body of one event type, in its current schema version.
///
/// A payload encodes itself in the compact binary form and decodes every schema version it
/// ever had: an old version is read in its old shape and upcast to the current one, so
/// stored events are never rewritten.
public protocol EventPayload: Sendable, Hashable {
    /// The event type this payload is the body of.
    static var eventType: EventType { get }
    /// The newest schema version: the one this Stride writes, and the newest it reads.
    static var schemaVersion: UInt16 { get }
    /// The schema version ``encode(into:)`` writes this value in: ``schemaVersion``, unless
    /// the value fits an older version exactly (see ``SentThroughServer``).
    var writtenSchemaVersion: UInt16 { get }
    /// Writes the payload in ``writtenSchemaVersion``.
    func encode(into writer: inout BinaryWriter)
    /// Reads a payload written in `schemaVersion`, upcasting older versions.
    /// - Throws: ``DecodingFailure`` when the bytes do not hold such a payload.
    init(decoding reader: inout BinaryReader, schemaVersion: UInt16) throws
    /// The payload as a JSON object, for `stride log` and `stride export`.
    var json: JSONValue { get }
}

extension EventPayload {
    /// The newest version, for payloads whose every value is written in it.
    public var writtenSchemaVersion: UInt16 { Self.schemaVersion }

    /// The payload's bytes, in the version it is written in.
    public var encoded: EncodedPayload {
        var writer = BinaryWriter()
        encode(into: &writer)
        return EncodedPayload(typeCode: Self.eventType.code, schemaVersion: writtenSchemaVersion, bytes: writer.bytes)
    }

    /// A failure for a schema version this payload does not know.
    static func unknownVersion(_ version: UInt16) -> DecodingFailure {
        DecodingFailure("\(eventType.name) has no schema version \(version) (this Stride knows up to \(schemaVersion))")
    }
}

/// A payload already in bytes: its type code, schema version and encoding.
public struct EncodedPayload: Hashable, Sendable {
    /// The event type's code.
    public var typeCode: UInt16
    /// The schema version the bytes are written in.
    public var schemaVersion: UInt16
    /// The encoded payload.
    public var bytes: [UInt8]

    /// Creates an encoded payload.
    public init(typeCode: UInt16, schemaVersion: UInt16, bytes: [UInt8]) {
        self.typeCode = typeCode
        self.schemaVersion = schemaVersion
        self.bytes = bytes
    }
}
