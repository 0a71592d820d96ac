/// Every event Stride knows, decoded and upcast to its current schema version.
public enum LedgerEvent: Hashable, Sendable {
    case ledgerCreated(LedgerCreated)
    case shoeRegistered(ShoeRegistered)
    /// An event this version of Stride cannot read: a type or schema version from a newer
    /// Stride. It is kept and shown, and projections pass over it.
    case unrecognized(EncodedPayload)

    /// The event's payload as the protocol value, or nil when unrecognized.
    public var payload: (any EventPayload)? {
        switch self {
        case .ledgerCreated(let payload): payload
        case .shoeRegistered(let payload): payload
        case .unrecognized: nil
        }
    }

    /// The event's type code.
    public var typeCode: UInt16 {
        switch self {
        case .unrecognized(let encoded): encoded.typeCode
        default: payload.map { type(of: $0).eventType.code } ?? 0
        }
    }

    /// The event's type name, or `unknown.<code>` when unrecognized.
    public var typeName: String {
        EventType.known(code: typeCode)?.name ?? "unknown.\(typeCode)"
    }

    /// The payload as JSON; an unrecognized payload shows its bytes in hexadecimal.
    public var json: JSONValue {
        switch self {
        case .unrecognized(let encoded):
            .object(["schemaVersion": .integer(encoded.schemaVersion), "bytes": .string(Hex.string(encoded.bytes))])
        default: payload?.json ?? .null
        }
    }

    /// Decodes a stored payload of any known type and schema version.
    /// - Throws: ``DecodingFailure`` when the bytes are not a valid payload of their type.
    public static func decode(typeCode: UInt16, schemaVersion: UInt16, from bytes: UnsafeRawBufferPointer) throws
        -> LedgerEvent
    {
        var reader = BinaryReader(bytes)
        let event: LedgerEvent
        do {
            switch typeCode {
            case LedgerCreated.eventType.code:
                event = .ledgerCreated(try decode(LedgerCreated.self, &reader, schemaVersion))
            case ShoeRegistered.eventType.code:
                event = .shoeRegistered(try decode(ShoeRegistered.self, &reader, schemaVersion))
            default:
                throw NewerSchema()
            }
        } catch is NewerSchema {
            return .unrecognized(EncodedPayload(typeCode: typeCode, schemaVersion: schemaVersion, bytes: Array(bytes)))
        }
        try reader.expectEnd(EventType.known(code: typeCode)?.name ?? "payload")
        return event
    }

    private static func decode<P: EventPayload>(_ type: P.Type, _ reader: inout BinaryReader, _ version: UInt16) throws
        -> P
    {
        guard version <= P.schemaVersion else {
            // A newer Stride wrote this; reading it as ours would misread it.
            throw NewerSchema()
        }
        return try P(decoding: &reader, schemaVersion: version)
    }

    /// Writes the payload in its current schema version; returns its type code and version.
    public func encode(into writer: inout BinaryWriter) -> (typeCode: UInt16, schemaVersion: UInt16) {
        switch self {
        case .unrecognized(let encoded):
            writer.write(raw: encoded.bytes)
            return (encoded.typeCode, encoded.schemaVersion)
        default:
            guard let payload else { return (0, 0) }
            payload.encode(into: &writer)
            let type = Swift.type(of: payload)
            return (type.eventType.code, type.schemaVersion)
        }
    }
}

/// Thrown internally for a type, or a schema version of a known type, newer than this Stride.
struct NewerSchema: Error {}
