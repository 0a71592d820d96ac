/// An account archive of another service (Strava's bulk export, Garmin Connect's "Export Your
/// Data") was ingested: which one, as of when, and what it held.
///
/// An archive holds the runner's whole history there, so the newest one read is the ledger's
/// view of the runner's shoes on that service: an archive older than one read before (its
/// newest activity starts earlier) changes no shoe and no assignment. Recorded once per
/// archive: the same archive again appends nothing.
public struct ArchiveIngested: EventPayload {
    public static let eventType = EventType.archiveIngested
    public static let schemaVersion: UInt16 = 1

    /// The service: `Strava` or `Garmin Connect`.
    public var service: String
    /// The file or folder's name.
    public var file: String
    /// The start of the newest activity it holds: how new the archive is.
    public var asOf: Timestamp
    /// Activities it holds, and of them runs.
    public var activities: Int
    /// Runs it holds.
    public var runs: Int
    /// Shoes it holds.
    public var shoes: Int

    /// Creates the payload.
    public init(service: String, file: String, asOf: Timestamp, activities: Int, runs: Int, shoes: Int) {
        self.service = service
        self.file = file
        self.asOf = asOf
        self.activities = activities
        self.runs = runs
        self.shoes = shoes
    }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(service)
        writer.write(file)
        writer.write(asOf)
        for count in [activities, runs, shoes] { writer.write(varint: UInt64(max(0, count))) }
    }

    public init(decoding reader: inout BinaryReader, schemaVersion: UInt16) throws {
        guard schemaVersion == 1 else { throw Self.unknownVersion(schemaVersion) }
        service = try reader.readString()
        file = try reader.readString()
        asOf = try reader.readTimestamp()
        activities = Int(try reader.readVarint())
        runs = Int(try reader.readVarint())
        shoes = Int(try reader.readVarint())
    }

    public var json: JSONValue {
        .object([
            "service": .string(service), "file": .string(file), "asOf": .string(asOf.description), "activities": .integer(activities),
            "runs": .integer(runs), "shoes": .integer(shoes),
        ])
    }

    /// The key that records an archive once: its service, how new it is and a digest of what
    /// it says about shoes (`fingerprint`), so that a later download with nothing new is the
    /// same archive.
    public static func key(service: String, asOf: Timestamp, fingerprint: String) -> IdempotencyKey {
        IdempotencyKey(hashing: Array("archive.ingested|\(service)|\(asOf.millisecondsSince1970)|\(fingerprint)".utf8))
    }
}
