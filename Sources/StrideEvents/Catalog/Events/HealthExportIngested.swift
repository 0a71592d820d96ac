/// An Apple Health export was ingested whole: its export date, and what it brought.
///
/// The Health app always exports the whole history, so the newest export read is the
/// ledger's view of what Health holds: a sample an earlier export held and this one does not
/// (from a source it holds, inside the span it covers) was deleted in Health, and is withdrawn
/// by `sample.withdrawn` events appended with this one. An export older than one already read
/// withdraws nothing.
public struct HealthExportIngested: SentThroughServer {
    public static let eventType = EventType.healthExportIngested
    public static let schemaVersion: UInt16 = 2

    /// When the export was made (its `ExportDate`).
    public var exportDate: Timestamp
    /// The file's name.
    public var file: String
    /// Records, workouts and activity summaries it holds.
    public var records: Int
    /// How many of them were new to the ledger.
    public var added: Int
    /// How many the ledger held already (from earlier exports).
    public var alreadyInLedger: Int
    /// Samples an earlier export held that this one no longer holds, withdrawn.
    public var withdrawn: Int
    /// The device that sent the export through the server; nil otherwise.
    public var sentBy: String?

    /// Creates the payload.
    public init(
        exportDate: Timestamp, file: String, records: Int, added: Int, alreadyInLedger: Int, withdrawn: Int, sentBy: String? = nil
    ) {
        self.exportDate = exportDate
        self.file = file
        self.records = records
        self.added = added
        self.alreadyInLedger = alreadyInLedger
        self.withdrawn = withdrawn
        self.sentBy = sentBy
    }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(exportDate)
        writer.write(file)
        for count in [records, added, alreadyInLedger, withdrawn] { writer.write(varint: UInt64(max(0, count))) }
        writer.write(sender: sentBy)
    }

    public init(decoding reader: inout BinaryReader, schemaVersion: UInt16) throws {
        try Self.checkReadable(schemaVersion)
        exportDate = try reader.readTimestamp()
        file = try reader.readString()
        records = Int(try reader.readVarint())
        added = Int(try reader.readVarint())
        alreadyInLedger = Int(try reader.readVarint())
        withdrawn = Int(try reader.readVarint())
        sentBy = try reader.readSender(schemaVersion: schemaVersion, since: 2)
    }

    public var json: JSONValue {
        .object(
            [
                "exportDate": .string(exportDate.description), "file": .string(file), "records": .integer(records),
                "added": .integer(added), "alreadyInLedger": .integer(alreadyInLedger), "withdrawn": .integer(withdrawn),
            ], sentBy: sentBy)
    }

    /// The key that records an export once.
    public static func key(exportDate: Timestamp) -> IdempotencyKey {
        IdempotencyKey(hashing: Array("healthExport.ingested.\(exportDate.millisecondsSince1970)".utf8))
    }
}
