/// A device was given an access token for the server: its name and the token's SHA-256. The
/// token itself is shown once, when it is made, and never stored.
public struct TokenAdded: EventPayload {
    public static let eventType = EventType.tokenAdded
    public static let schemaVersion: UInt16 = 1

    /// The device's name, e.g. `marie-iphone`: what audits show as the sender.
    public var name: String
    /// The SHA-256 of the token.
    public var sha256: AccessTokenHash

    /// Creates the payload.
    public init(name: String, sha256: AccessTokenHash) {
        self.name = name
        self.sha256 = sha256
    }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(name)
        writer.write(raw: sha256.bytes)
    }

    public init(decoding reader: inout BinaryReader, schemaVersion: UInt16) throws {
        guard schemaVersion == 1 else { throw Self.unknownVersion(schemaVersion) }
        name = try reader.readString()
        let digest = try reader.readBytes(count: AccessTokenHash.byteCount)
        guard let sha256 = AccessTokenHash(bytes: Array(digest)) else { throw DecodingFailure("a token hash is 32 bytes") }
        self.sha256 = sha256
    }

    /// The hash's first 8 hexadecimal digits only: the hash is no secret, but a log printed
    /// or pasted somewhere need not carry it whole.
    public var json: JSONValue { .object(["name": .string(name), "sha256Prefix": .string(sha256.prefix)]) }
}

/// A device's access token was revoked: the server refuses it from then on.
public struct TokenRevoked: EventPayload {
    public static let eventType = EventType.tokenRevoked
    public static let schemaVersion: UInt16 = 1

    /// The device's name.
    public var name: String

    /// Creates the payload.
    public init(name: String) {
        self.name = name
    }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(name)
    }

    public init(decoding reader: inout BinaryReader, schemaVersion: UInt16) throws {
        guard schemaVersion == 1 else { throw Self.unknownVersion(schemaVersion) }
        name = try reader.readString()
    }

    public var json: JSONValue { .object(["name": .string(name)]) }
}

extension EntityReference {
    /// The device a token belongs to: one entity per name (in any case), so that adding and
    /// revoking a device's token is checked against what was read of that device alone.
    public static func device(named name: String) -> EntityReference {
        EntityReference(.device, id: Digest128.of(Array("device|\(name.lowercased())".utf8)))
    }
}
