/// The server answered a request that carried an `Idempotency-Key`: what it answered, kept so
/// that the same request sent again (a phone retrying after a dropped connection) appends
/// nothing and gets the first answer back.
public struct RequestAnswered: EventPayload {
    public static let eventType = EventType.requestAnswered
    public static let schemaVersion: UInt16 = 2

    /// The device whose token sent the request.
    public var device: String
    /// The request's `Idempotency-Key`, as the client sent it.
    public var key: String
    /// The request's method and path, so that a key reused for another request is told apart.
    public var method: String
    public var path: String
    /// The SHA-256 of the request's body, in hexadecimal, so that a key reused with another
    /// body is told apart; empty in answers kept before schema 2, which did not note it.
    public var bodyDigest: String
    /// The answer's HTTP status.
    public var status: Int
    /// The answer's JSON body.
    public var body: String

    /// Creates the payload.
    public init(device: String, key: String, method: String, path: String, bodyDigest: String, status: Int, body: String) {
        self.device = device
        self.key = key
        self.method = method
        self.path = path
        self.bodyDigest = bodyDigest
        self.status = status
        self.body = body
    }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(device)
        writer.write(key)
        writer.write(method)
        writer.write(path)
        writer.write(varint: UInt64(status))
        writer.write(body)
        writer.write(bodyDigest)
    }

    public init(decoding reader: inout BinaryReader, schemaVersion: UInt16) throws {
        guard schemaVersion == 1 || schemaVersion == 2 else { throw Self.unknownVersion(schemaVersion) }
        device = try reader.readString()
        key = try reader.readString()
        method = try reader.readString()
        path = try reader.readString()
        status = Int(try reader.readVarint())
        body = try reader.readString()
        bodyDigest = schemaVersion >= 2 ? try reader.readString() : ""
    }

    public var json: JSONValue {
        .object([
            "device": .string(device), "key": .string(key), "method": .string(method), "path": .string(path),
            "bodyDigest": .string(bodyDigest), "status": .integer(status), "body": .string(body),
        ])
    }

    /// The entity of a device's request key: one answer per device and key.
    public static func entity(device: String, key: String) -> EntityReference {
        EntityReference(.request, id: Digest128.of(Array("request:\(device)\u{1F}\(key)".utf8)))
    }

    /// The idempotency key of the answer to the `round`-th request a device sent with `key`
    /// (a key is used again once its earlier answer expired): the log keeps one per round.
    public static func idempotencyKey(device: String, key: String, round: Int) -> IdempotencyKey {
        let suffix = round == 0 ? "" : "\u{1F}\(round)"
        return IdempotencyKey(hashing: Array("request.answered:\(device)\u{1F}\(key)\(suffix)".utf8))
    }
}
