/// Which recorded sample a decision is about, and where its facts lie: the sequence of its
/// `sample.recorded` event, its type and its span (the daily records find its facts by them
/// without reading the sample again).
public struct SampleReference: Hashable, Sendable {
    /// The sequence of the sample's `sample.recorded` event.
    public var sequence: UInt64
    /// Its HealthKit type.
    public var healthType: String
    /// When it starts.
    public var start: Timestamp
    /// When it ends.
    public var end: Timestamp

    /// Creates a reference.
    public init(sequence: UInt64, healthType: String, start: Timestamp, end: Timestamp) {
        self.sequence = sequence
        self.healthType = healthType
        self.start = start
        self.end = end
    }

    func encode(into writer: inout BinaryWriter) {
        writer.write(varint: sequence)
        writer.writeHealthType(healthType, code: HealthTypeCatalog.code(of: healthType) ?? 0)
        writer.write(start)
        writer.write(signedVarint: end.millisecondsSince1970 - start.millisecondsSince1970)
    }

    init(decoding reader: inout BinaryReader) throws {
        sequence = try reader.readVarint()
        healthType = try reader.readHealthTypeAndCode().identifier
        start = try reader.readTimestamp()
        end = start.adding(milliseconds: try reader.readSignedVarint())
    }

    var jsonMembers: [JSONValue.Member] {
        [
            .init("sample", .integer(sequence)), .init("healthType", .string(healthType)), .init("start", .string(start.description)),
            .init("end", .string(end.description)),
        ]
    }
}

/// A sample was found to repeat one recorded before it: the same record of an Apple Health
/// export, appended twice by a Stride that still identified records by the `HKDevice` memory
/// address each export prints anew. The repeat stays in the log; figures count the sample once.
/// Appended by the upgrade of a ledger's identities (see the ledger's `IdentityUpgrade`).
public struct SampleRepeated: EventPayload {
    public static let eventType = EventType.sampleRepeated
    public static let schemaVersion: UInt16 = 1

    /// The repeat.
    public var sample: SampleReference
    /// The sequence of the sample it repeats (recorded first).
    public var original: UInt64

    /// Creates the payload.
    public init(sample: SampleReference, original: UInt64) {
        self.sample = sample
        self.original = original
    }

    public func encode(into writer: inout BinaryWriter) {
        sample.encode(into: &writer)
        writer.write(varint: original)
    }

    public init(decoding reader: inout BinaryReader, schemaVersion: UInt16) throws {
        guard schemaVersion == 1 else { throw Self.unknownVersion(schemaVersion) }
        sample = try SampleReference(decoding: &reader)
        original = try reader.readVarint()
    }

    public var json: JSONValue { .object(sample.jsonMembers + [.init("original", .integer(original))]) }

    /// The key that records a sample as a repeat once.
    public static func key(sample: UInt64) -> IdempotencyKey {
        IdempotencyKey(hashing: Array("sample.repeated.\(sample)".utf8))
    }
}

/// Why a sample was withdrawn from the figures.
public enum WithdrawalCause: Hashable, Sendable {
    /// A later Apple Health export, made at this instant, no longer holds it: it was deleted
    /// in the Health app.
    case deletedInHealth(exportDate: Timestamp)
    /// The runner rejected it, saying why.
    case rejectedByRunner(reason: String)

    /// How a person would say it.
    public var description: String {
        switch self {
        case .deletedInHealth(let exportDate): "deleted in Health: the export of \(exportDate.description.prefix(10)) no longer holds it"
        case .rejectedByRunner(let reason): "withdrawn by the runner: \(reason)"
        }
    }

    /// Writes the cause: a kind byte, then the export's date or the reason.
    public func encode(into writer: inout BinaryWriter) {
        switch self {
        case .deletedInHealth(let exportDate):
            writer.write(UInt8(0))
            writer.write(exportDate)
        case .rejectedByRunner(let reason):
            writer.write(UInt8(1))
            writer.write(reason)
        }
    }

    /// Reads a cause ``encode(into:)`` wrote.
    /// - Throws: ``DecodingFailure`` for an unknown kind or cut-short bytes.
    public init(decoding reader: inout BinaryReader) throws {
        switch try reader.readByte() {
        case 0: self = .deletedInHealth(exportDate: try reader.readTimestamp())
        case 1: self = .rejectedByRunner(reason: try reader.readString())
        case let other: throw DecodingFailure("unknown withdrawal cause \(other)")
        }
    }
}

/// A sample was withdrawn: it leaves every figure, and stays in the log (a replay before this
/// event shows the day as it stood).
public struct SampleWithdrawn: SentThroughServer {
    public static let eventType = EventType.sampleWithdrawn
    public static let schemaVersion: UInt16 = 2

    /// The sample.
    public var sample: SampleReference
    /// Why.
    public var cause: WithdrawalCause
    /// The device that sent the runner's withdrawal through the server; nil otherwise.
    public var sentBy: String?

    /// Creates the payload.
    public init(sample: SampleReference, cause: WithdrawalCause, sentBy: String? = nil) {
        self.sample = sample
        self.cause = cause
        self.sentBy = sentBy
    }

    public func encode(into writer: inout BinaryWriter) {
        sample.encode(into: &writer)
        cause.encode(into: &writer)
        writer.write(sender: sentBy)
    }

    public init(decoding reader: inout BinaryReader, schemaVersion: UInt16) throws {
        try Self.checkReadable(schemaVersion)
        sample = try SampleReference(decoding: &reader)
        cause = try WithdrawalCause(decoding: &reader)
        sentBy = try reader.readSender(schemaVersion: schemaVersion, since: 2)
    }

    public var json: JSONValue {
        let cause: [JSONValue.Member] =
            switch self.cause {
            case .deletedInHealth(let exportDate): [.init("cause", .string("deletedInHealth")), .init("exportDate", .string(exportDate.description))]
            case .rejectedByRunner(let reason): [.init("cause", .string("rejectedByRunner")), .init("reason", .string(reason))]
            }
        return .object(sample.jsonMembers + cause, sentBy: sentBy)
    }

    /// The key that withdraws a sample once for one export that no longer holds it.
    public static func key(entity: EntityReference, exportDate: Timestamp) -> IdempotencyKey {
        IdempotencyKey(hashing: Array("sample.withdrawn.\(entity.idText).\(exportDate.millisecondsSince1970)".utf8))
    }
}

/// A withdrawn sample was restored by the runner: it counts again.
public struct SampleRestored: SentThroughServer {
    public static let eventType = EventType.sampleRestored
    public static let schemaVersion: UInt16 = 2

    /// The sample.
    public var sample: SampleReference
    /// The device that sent it through the server; nil otherwise.
    public var sentBy: String?

    /// Creates the payload.
    public init(sample: SampleReference, sentBy: String? = nil) {
        self.sample = sample
        self.sentBy = sentBy
    }

    public func encode(into writer: inout BinaryWriter) {
        sample.encode(into: &writer)
        writer.write(sender: sentBy)
    }

    public init(decoding reader: inout BinaryReader, schemaVersion: UInt16) throws {
        try Self.checkReadable(schemaVersion)
        sample = try SampleReference(decoding: &reader)
        sentBy = try reader.readSender(schemaVersion: schemaVersion, since: 2)
    }

    public var json: JSONValue { .object(sample.jsonMembers, sentBy: sentBy) }
}
