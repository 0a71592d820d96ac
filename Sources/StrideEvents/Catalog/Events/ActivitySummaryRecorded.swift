/// A day's activity rings were recorded (an Apple Health `ActivitySummary`), kept with every
/// attribute as written.
public struct ActivitySummaryRecorded: EventPayload {
    public static let eventType = EventType.activitySummaryRecorded
    public static let schemaVersion: UInt16 = 1

    /// The day, as written (`2016-11-15`).
    public var day: String
    /// Every attribute but the day, in the order written.
    public var attributes: [MetadataEntry]

    /// Creates the payload.
    public init(day: String, attributes: [MetadataEntry]) {
        self.day = day
        self.attributes = attributes
    }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(day)
        writer.write(metadata: attributes)
    }

    public init(decoding reader: inout BinaryReader, schemaVersion: UInt16) throws {
        guard schemaVersion == 1 else { throw Self.unknownVersion(schemaVersion) }
        day = try reader.readString()
        attributes = try reader.readMetadata()
    }

    public var json: JSONValue {
        .object(["day": .string(day), "attributes": .object(attributes.map { .init($0.key, .string($0.value)) })])
    }
}

extension BinaryWriter {
    /// Writes key–value entries: a count, then each key and value.
    mutating func write(metadata: [MetadataEntry]) {
        write(varint: UInt64(metadata.count))
        for entry in metadata {
            write(entry.key)
            write(entry.value)
        }
    }
}

extension BinaryReader {
    /// Reads entries written by ``BinaryWriter/write(metadata:)``.
    mutating func readMetadata() throws -> [MetadataEntry] {
        let count = try readCount()
        guard count > 0 else { return [] }
        var entries: [MetadataEntry] = []
        entries.reserveCapacity(count)
        for _ in 0..<count {
            entries.append(MetadataEntry(key: try readString(), value: try readString()))
        }
        return entries
    }
}
