/// A ledger was created. Always the first event; it fixes the time zone in which local days
/// (daily records, points per day) are counted.
public struct LedgerCreated: EventPayload {
    public static let eventType = EventType.ledgerCreated
    public static let schemaVersion: UInt16 = 1

    /// The IANA time zone identifier, e.g. `Europe/Paris`.
    public var timeZone: String

    /// Creates the payload.
    public init(timeZone: String) {
        self.timeZone = timeZone
    }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(timeZone)
    }

    public init(decoding reader: inout BinaryReader, schemaVersion: UInt16) throws {
        guard schemaVersion == 1 else { throw Self.unknownVersion(schemaVersion) }
        timeZone = try reader.readString()
    }

    public var json: JSONValue { .object(["timeZone": .string(timeZone)]) }
}
