import StrideEvents

/// A `Record` being read: its attributes at the start tag, its metadata from its children.
struct RecordDraft {
    let line: Int
    private let healthType: String
    private let sourceName: String
    private let sourceVersion: String?
    private let device: String?
    private let unit: String?
    private let value: SampleValue
    private let created: Timestamp?
    private let start: Timestamp
    private let end: Timestamp
    /// The hash of the attributes as written; nil when the device prints an address, whose
    /// record is identified by its content once read (see `IdentityHasher+Content.swift`).
    private let attributeHash: UInt64?
    /// The device description without its address, when it prints one.
    private let deviceWithoutAddress: String?
    private var metadata: [MetadataEntry] = []
    /// The `HKTimeZone` metadata's value (`Europe/Paris`), when it has one: the zone the phone
    /// was set to when the sample was saved.
    private(set) var timeZoneName: String?

    /// Adds a `MetadataEntry` child.
    mutating func addMetadata(_ element: XMLElement, attributes reader: inout AttributeReader) {
        guard let key = element.attribute(Names.key) else { return }
        let value = element.attribute(Names.value).map { reader.string($0, in: element) } ?? ""
        // The key's bytes, not its string: every entry is asked, few are a zone.
        if Names.timeZone.matches(element.rawValue(of: key)) { timeZoneName = value }
        metadata.append(MetadataEntry(key: reader.string(key, in: element), value: value))
    }

    /// The sample, made of the draft's own fields (moved, not copied), and its identity.
    consuming func finish(
        identity: inout IdentityHasher, classifier: inout DeviceClassifier
    ) -> (
        SampleRecorded, EntityReference, IdempotencyKey
    ) {
        let sample = SampleRecorded(
            // By the description without its address: one device object for the classifier's cache.
            healthType: healthType, deviceClass: classifier.classifyRemembering(device: deviceWithoutAddress ?? device, sourceName: sourceName),
            value: value,
            unit: unit, start: start, end: end, created: created, sourceName: sourceName, sourceVersion: sourceVersion,
            device: device, metadata: metadata)
        let hash = attributeHash ?? identity.contentHash(of: sample, device: deviceWithoutAddress ?? "")
        let (entity, key) = identity.identity(kind: .sample, type: healthType, start: start, metadata: metadata, attributeHash: hash)
        return (sample, entity, key)
    }

    static func date(_ attribute: XMLAttribute, in element: XMLElement) throws -> Timestamp {
        let raw = element.rawValue(of: attribute)
        guard let instant = HealthDate.parse(raw) else {
            throw XMLStructureError(
                line: element.line,
                problem:
                    "<\(String(decoding: element.name, as: UTF8.self))> has \(String(decoding: element.name(of: attribute), as: UTF8.self))=\"\(String(decoding: raw, as: UTF8.self).shownInMessage)\", not a date like 2024-05-01 08:00:00 +0200"
            )
        }
        return instant
    }

    static func missing(_ attribute: String, line: Int, element: String = "Record") -> XMLStructureError {
        XMLStructureError(line: line, problem: "a <\(element)> has no \(attribute) attribute, which every \(element) must have")
    }
}

// The init delegates to the compiler's memberwise init, as `SampleRecorded`'s do; the speed of
// reading records is guarded by `stride-bench ingest`'s figures.
extension RecordDraft {
    /// Reads the start tag.
    /// - Throws: ``XMLStructureError`` when a required attribute is missing or a date unreadable.
    init(
        _ element: XMLElement, file: String, attributes reader: inout AttributeReader, identity: inout IdentityHasher,
        devices: inout DeviceNormalizer
    ) throws {
        let line = element.line
        var type: String?
        var source: String?
        var version: String?
        var device: String?
        var unit: String?
        var value = SampleValue.absent
        var created: Timestamp?
        var start: Timestamp?
        var end: Timestamp?
        // iOS 8 and 9 exports name the source `source` and write metadata as attributes.
        var legacySource: String?
        var unread: [MetadataEntry] = []
        identity.beginAttributes()
        for attribute in element.attributes {
            let name = element.name(of: attribute)
            switch name.count {
            case 4 where Names.type.matches(name): type = reader.string(attribute, in: element)
            case 4 where Names.unit.matches(name): unit = reader.string(attribute, in: element)
            case 5 where Names.value.matches(name):
                value = reader.withDecodedBytes(attribute, in: element) { bytes in
                    identity.noteValue(bytes)
                    return DecimalNumber.parse(bytes).map(SampleValue.number) ?? .text(String(decoding: bytes, as: UTF8.self))
                }
            case 6 where Names.device.matches(name): device = reader.string(attribute, in: element)
            case 6 where Names.source.matches(name): legacySource = reader.string(attribute, in: element)
            case 7 where Names.endDate.matches(name): end = try Self.date(attribute, in: element)
            case 9 where Names.startDate.matches(name): start = try Self.date(attribute, in: element)
            case 10 where Names.sourceName.matches(name): source = reader.string(attribute, in: element)
            case 12 where Names.creationDate.matches(name): created = try Self.date(attribute, in: element)
            case 13 where Names.sourceVersion.matches(name): version = reader.string(attribute, in: element)
            default:
                // An attribute Stride does not read still makes the record what it is, and is
                // kept with its metadata (which is what old exports' extra attributes are).
                let value = reader.string(attribute, in: element)
                identity.addAttribute(name: name, value: value)
                unread.append(MetadataEntry(key: reader.name(of: attribute, in: element), value: value))
            }
        }
        guard let type else { throw Self.missing("type", line: line) }
        if source != nil, let legacySource {
            // Both names: the modern one is the source, the other is kept like any attribute.
            identity.addAttribute(name: Names.source.bytes, value: legacySource)
            unread.append(MetadataEntry(key: "source", value: legacySource))
        }
        guard let source = source ?? legacySource else { throw Self.missing("sourceName", line: line) }
        guard let start else { throw Self.missing("startDate", line: line) }
        guard let end else { throw Self.missing("endDate", line: line) }
        let deviceWithoutAddress = devices.withoutAddress(device)
        let attributeHash =
            deviceWithoutAddress != nil
            ? nil
            : identity.recordHash(
                type: type, sourceName: source, sourceVersion: version, device: device, unit: unit, created: created, start: start,
                end: end)
        self.init(
            line: line, healthType: type, sourceName: source, sourceVersion: version, device: device, unit: unit, value: value,
            created: created, start: start, end: end, attributeHash: attributeHash, deviceWithoutAddress: deviceWithoutAddress,
            metadata: unread)
    }
}
