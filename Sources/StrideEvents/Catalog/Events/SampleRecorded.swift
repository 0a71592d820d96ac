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

    /// The HealthKit type identifier, e.g. `HKQuantityTypeIdentifierStepCount`; set only by the
    /// inits, with its code (``healthTypeCode``).
    public internal(set) var healthType: String
    /// The type's code in the catalog of types (``HealthTypeCatalog``), 0 for a type not
    /// listed: looked up once, when the sample is made, rather than by every step that
    /// encodes, counts or checks it.
    public internal(set) var healthTypeCode: UInt64
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
    /// Creates the payload. (Declared in an extension, so that it and the decoding init
    /// delegate to the compiler's memberwise init: that builds the value in place, where an
    /// init assigning each field copied it once more — a tenth of decoding a sample, seen in
    /// `stride-bench rebuild`'s full-rebuild rate.)
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
}
