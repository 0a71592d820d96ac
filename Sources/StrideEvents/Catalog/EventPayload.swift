/// The body of one event type, in its current schema version.
///
/// A payload encodes itself in the compact binary form and decodes every schema version it
/// ever had: an old version is read in its old shape and upcast to the current one, so
/// stored events are never rewritten.
public protocol EventPayload: Sendable, Hashable {
    /// The event type this payload is the body of.
    static var eventType: EventType { get }
    /// The schema version ``encode(into:)`` writes.
    static var schemaVersion: UInt16 { get }
    /// Writes the payload in the current schema version.
    func encode(into writer: inout BinaryWriter)
    /// Reads a payload written in `schemaVersion`, upcasting older versions.
    /// - Throws: ``DecodingFailure`` when the bytes do not hold such a payload.
    init(decoding reader: inout BinaryReader, schemaVersion: UInt16) throws
    /// The payload as a JSON object, for `stride log` and `stride export`.
    var json: JSONValue { get }
}

extension EventPayload {
    /// The payload's bytes in the current schema version.
    public var encoded: EncodedPayload {
        var writer = BinaryWriter()
        encode(into: &writer)
        return EncodedPayload(typeCode: Self.eventType.code, schemaVersion: Self.schemaVersion, bytes: writer.bytes)
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
