/// An Apple Health export was ingested whole: its export date, and what it brought.
///
/// The Health app always exports the whole history, so the newest export read is the
/// ledger's view of what Health holds: a sample an earlier export held and this one does not
/// (from a source it holds, inside the span it covers) was deleted in Health, and is withdrawn
/// by `sample.withdrawn` events appended with this one. An export older than one already read
/// withdraws nothing the newer one holds; what it brings that the newer one no longer held is
/// withdrawn at once, so the order exports are read in changes no figure — which is why the
/// sources and span are recorded here.
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
    /// Samples withdrawn: held by an earlier export and no longer by this one, or brought by
    /// this one and no longer held by a newer one read before.
    public var withdrawn: Int
    /// The sources of its records.
    public var sources: [String]
    /// The earliest and latest starts of its records (nil when it holds none).
    public var span: ClosedRange<Timestamp>?
    /// The device that sent the export through the server; nil otherwise.
    public var sentBy: String?

    /// Creates the payload.
    public init(
        exportDate: Timestamp, file: String, records: Int, added: Int, alreadyInLedger: Int, withdrawn: Int, sources: [String],
        span: ClosedRange<Timestamp>?, sentBy: String? = nil
    ) {
        self.exportDate = exportDate
        self.file = file
        self.records = records
        self.added = added
        self.alreadyInLedger = alreadyInLedger
        self.withdrawn = withdrawn
        self.sources = sources
        self.span = span
        self.sentBy = sentBy
    }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(exportDate)
        writer.write(file)
        for count in [records, added, alreadyInLedger, withdrawn] { writer.write(varint: UInt64(max(0, count))) }
        writer.write(varint: UInt64(sources.count))
        for source in sources { writer.write(source) }
        writer.write(optional: span) { writer, span in
            writer.write(span.lowerBound)
            writer.write(span.upperBound)
        }
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
        let count = try reader.readCount()
        var sources: [String] = []
        for _ in 0..<count { sources.append(try reader.readString()) }
        self.sources = sources
        span = try reader.readOptional { reader in
            let first = try reader.readTimestamp()
            let last = try reader.readTimestamp()
            guard first <= last else { throw DecodingFailure("an export's span ends before it starts") }
            return first...last
        }
        sentBy = try reader.readSender(schemaVersion: schemaVersion, since: 2)
    }

    public var json: JSONValue {
        .object(
            [
                "exportDate": .string(exportDate.description), "file": .string(file), "records": .integer(records),
                "added": .integer(added), "alreadyInLedger": .integer(alreadyInLedger), "withdrawn": .integer(withdrawn),
                "sources": .array(sources.map { .string($0) }), "earliestStart": .string(span?.lowerBound.description),
                "latestStart": .string(span?.upperBound.description),
            ], sentBy: sentBy)
    }

    /// The key that records an export once.
    public static func key(exportDate: Timestamp) -> IdempotencyKey {
        IdempotencyKey(hashing: Array("healthExport.ingested.\(exportDate.millisecondsSince1970)".utf8))
    }
}
