/// How a sample's device is classed, for source priority: watch first, then phone, then
/// everything else, and last the summaries an app pushes.
public enum DeviceClass: UInt8, Hashable, Sendable, Comparable, CustomStringConvertible {
    case watch = 0
    case phone = 1
    case other = 2
    /// A summary pushed by an app (Health Auto Export): HealthKit's statistics over the very
    /// samples an Apple Health export holds, so it counts only where no device's own sample
    /// does (see the daily policies).
    case summary = 3

    public static func < (lhs: DeviceClass, rhs: DeviceClass) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `watch`, `phone`, `other` or `summary`.
    public var description: String {
        switch self {
        case .watch: "watch"
        case .phone: "phone"
        case .other: "other"
        case .summary: "summary"
        }
    }
}

/// A sample's value as the export wrote it.
public enum SampleValue: Hashable, Sendable {
    /// A number (quantity samples).
    case number(Double)
    /// Text that is not a number (category values such as `HKCategoryValueSleepAnalysisInBed`,
    /// or odd content kept as written).
    case text(String)
    /// No value attribute.
    case absent

    /// The number, when the value is one.
    public var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The text, when the value is text.
    public var text: String? {
        if case .text(let value) = self { return value }
        return nil
    }
}

/// One key and value of a sample's metadata.
public struct MetadataEntry: Hashable, Sendable {
    /// The key, e.g. `HKMetadataKeySyncIdentifier`.
    public var key: String
    /// The value as written.
    public var value: String

    /// Creates an entry.
    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}

/// A health sample was recorded: one Apple Health `Record` (or an NDJSON sample), kept with
/// every attribute, whatever its type, so that later projections can use old history.
///
/// Schema history: version 1 held the sample as read; version 2 adds who sent it through the
/// server (``sentBy``), absent for samples ingested on the machine. Every version begins with
/// the fields figures are made of (``BinaryReader/readSampleLead()``), in the same layout, so
/// that projections read any version's facts the same way; version 1 is upcast with no sender.
public struct SampleRecorded: EventPayload {
    public static let eventType = EventType.sampleRecorded
    public static let schemaVersion: UInt16 = 2

    /// The HealthKit type identifier, e.g. `HKQuantityTypeIdentifierStepCount`.
    public var healthType: String {
        didSet { healthTypeCode = HealthTypeCatalog.code(of: healthType) ?? 0 }
    }
    /// The type's code in the catalog of types (``HealthTypeCatalog``), 0 for a type not
    /// listed: looked up once, when the sample is made, rather than by every step that
    /// encodes, counts or checks it.
    public private(set) var healthTypeCode: UInt64
    /// The device class, from the device and source name.
    public var deviceClass: DeviceClass
    /// The value.
    public var value: SampleValue
    /// The unit as written (`count`, `km`, `kcal`), when there is one.
    public var unit: String?
    /// When the sample starts.
    public var start: Timestamp
    /// When it ends.
    public var end: Timestamp
    /// When the source created it, when given.
    public var created: Timestamp?
    /// The app or device that wrote it.
    public var sourceName: String
    /// The source's version, when given.
    public var sourceVersion: String?
    /// The device description, when given.
    public var device: String?
    /// Metadata entries, in the order written.
    public var metadata: [MetadataEntry]
    /// The device that sent the sample through the server, named by its access token; nil
    /// for a sample ingested on the machine.
    public var sentBy: String?

    public func encode(into writer: inout BinaryWriter) {
        writer.writeHealthType(healthType, code: healthTypeCode)
        writer.write(deviceClass.rawValue)
        switch value {
        case .absent: writer.write(UInt8(0))
        case .number(let number):
            writer.write(UInt8(1))
            writer.write(number)
        case .text(let text):
            writer.write(UInt8(2))
            writer.write(text)
        }
        writer.write(optional: unit) { $0.write($1) }
        writer.write(start)
        writer.write(signedVarint: end.millisecondsSince1970 - start.millisecondsSince1970)
        writer.writeProvenance(
            created: created, sourceName: sourceName, sourceVersion: sourceVersion, device: device, metadata: metadata)
        writer.write(optional: sentBy) { $0.write($1) }
    }

    public var json: JSONValue {
        let valueJSON: JSONValue =
            switch value {
            case .absent: .null
            case .number(let number): .number(number)
            case .text(let text): .string(text)
            }
        var fields: [JSONValue.Member] = [
            .init("healthType", .string(healthType)), .init("deviceClass", .string(deviceClass.description)),
            .init("value", valueJSON), .init("unit", .string(unit)), .init("start", .string(start.description)),
            .init("end", .string(end.description)), .init("created", .string(created?.description)),
            .init("sourceName", .string(sourceName)), .init("sourceVersion", .string(sourceVersion)),
            .init("device", .string(device)), .init("metadata", .object(metadata.map { .init($0.key, .string($0.value)) })),
        ]
        // Only where there is a sender: a sample ingested on the machine prints as it always did.
        if let sentBy { fields.append(.init("sentBy", .string(sentBy))) }
        return .object(fields)
    }
}

extension SampleRecorded {
    /// Creates the payload.
    ///
    /// The inits are declared here, outside the type, so that the compiler still makes its
    /// own memberwise init (which also takes the type's code), and both delegate to it. An
    /// init that assigns this many fields one by one copies the whole value once more as it
    /// returns, retaining and releasing every string (Swift 6.3): about a tenth of decoding a
    /// sample.
    public init(
        healthType: String, deviceClass: DeviceClass, value: SampleValue, unit: String?, start: Timestamp, end: Timestamp,
        created: Timestamp?, sourceName: String, sourceVersion: String?, device: String?, metadata: [MetadataEntry],
        sentBy: String? = nil
    ) {
        // A listed type keeps the catalog's own string, a literal: copies of it, one per sample
        // in every batch and its facts, count no references.
        let code = HealthTypeCatalog.code(of: healthType) ?? 0
        self.init(
            healthType: HealthTypeCatalog.identifier(code: code) ?? healthType, healthTypeCode: code, deviceClass: deviceClass,
            value: value, unit: unit, start: start, end: end, created: created, sourceName: sourceName,
            sourceVersion: sourceVersion, device: device, metadata: metadata, sentBy: sentBy)
    }

    /// Decodes the payload in either version.
    public init(decoding reader: inout BinaryReader, schemaVersion: UInt16) throws {
        guard schemaVersion == 1 || schemaVersion == 2 else { throw Self.unknownVersion(schemaVersion) }
        // Read into locals and handed to the compiler's memberwise init (see above).
        let (healthType, healthTypeCode, deviceClass, value, unit, start, end) = try reader.readSampleLead()
        // The provenance field by field, not through `readProvenance()`: every scan decodes
        // millions of samples, and returning the fields as one value made the whole decode
        // markedly slower. Workouts use the shared reader.
        let created = try reader.readOptional { try $0.readTimestamp() }
        let sourceName = try reader.readString()
        let sourceVersion = try reader.readOptional { try $0.readString() }
        let device = try reader.readOptional { try $0.readString() }
        let metadata = try reader.readMetadata()
        let sentBy = try reader.readSender(schemaVersion: schemaVersion, since: 2)
        self.init(
            healthType: healthType, healthTypeCode: healthTypeCode, deviceClass: deviceClass, value: value, unit: unit,
            start: start, end: end, created: created, sourceName: sourceName, sourceVersion: sourceVersion, device: device,
            metadata: metadata, sentBy: sentBy)
    }
}

extension BinaryWriter {
    /// Writes a HealthKit type as its catalog code, or code 0 and the text.
    mutating func writeHealthType(_ identifier: String, code: UInt64) {
        if code != 0 {
            write(varint: code)
        } else {
            write(varint: 0)
            write(identifier)
        }
    }
}

extension BinaryReader {
    /// Reads the leading fields of a `sample.recorded` payload, those figures are made of:
    /// the full decoding and a projection's facts (`SampleFacts`) both start here. A tuple
    /// of locals, so that nothing is copied on the way to either value.
    @inline(__always)
    mutating func readSampleLead() throws -> (
        healthType: String, typeCode: UInt64, deviceClass: DeviceClass, value: SampleValue, unit: String?, start: Timestamp,
        end: Timestamp
    ) {
        let (healthType, typeCode) = try readHealthTypeAndCode()
        let deviceClass = try readDeviceClass()
        let value = try readSampleValue()
        let unit = try readOptional { try $0.readString() }
        let start = try readTimestamp()
        let end = start.adding(milliseconds: try readSignedVarint())
        return (healthType, typeCode, deviceClass, value, unit, start, end)
    }

    /// Reads a device class byte.
    @inline(__always)
    mutating func readDeviceClass() throws -> DeviceClass {
        guard let deviceClass = DeviceClass(rawValue: try readByte()) else { throw DecodingFailure("unknown device class") }
        return deviceClass
    }

    /// Reads a sample's value: a kind byte, then the number or the text.
    @inline(__always)
    mutating func readSampleValue() throws -> SampleValue {
        switch try readByte() {
        case 0: return .absent
        case 1: return .number(try readDouble())
        case 2: return .text(try readString())
        case let other: throw DecodingFailure("unknown value kind \(other)")
        }
    }

    /// Reads a HealthKit type and its catalog code (0 for a type written as text).
    @inline(__always)
    mutating func readHealthTypeAndCode() throws -> (identifier: String, code: UInt64) {
        let code = try readVarint()
        if code == 0 {
            let identifier = try readString()
            return (identifier, HealthTypeCatalog.code(of: identifier) ?? 0)
        }
        guard let identifier = HealthTypeCatalog.identifier(code: code) else {
            throw DecodingFailure("unknown health type code \(code)")
        }
        return (identifier, code)
    }
}
