import StrideEvents

/// Computes the identity of what an export holds, by the rules of the ingest:
/// `HKExternalUUID` metadata first; else `HKMetadataKeySyncIdentifier` (its version telling
/// versions apart); else a hash of every attribute with dates taken as instants — so the
/// same sample from exports printed months apart, with other offsets, has one identity,
/// and two samples that differ in any attribute have two.
///
/// A record or workout whose `device` prints an `HKDevice` address (new in every export) is
/// identified by its content instead: see `IdentityHasher+Content.swift`.
struct IdentityHasher {
    let hasher = SHA256Hasher()
    /// The hash states after the fields a record shares with others of its type and source
    /// (see ``recordHash(type:sourceName:sourceVersion:device:unit:created:start:end:)``).
    let recordPrefixes = SHA256Prefixes()
    var material: [UInt8] = []
    private var order: [Int] = []
    /// The sorted order of attributes, by the signature of their names as written: an
    /// export writes the same attributes in the same order again and again.
    private var orders: [UInt64: [Int]] = [:]

    /// One attribute noted for the identity: ranges into `scratch`.
    private struct Part {
        var name: Range<Int>
        var value: Range<Int>
    }

    /// The starts of the material of the last few kinds of record (type, source, version,
    /// device and unit), most recent first: records come in runs of a few kinds (a watch's
    /// and a phone's samples alternate), and a record's start is copied from here rather than
    /// written again from its strings.
    private var sharedStarts: [SharedStart] = []
    /// Each shared start's bytes, beside it (read without copying the start).
    private var sharedBytes: [[UInt8]] = []
    private static let sharedStartsKept = 4

    /// Which material a shared start begins: a record's attributes as written, or its content.
    enum Material: UInt8 {
        case attributes
        case content

        /// The bytes the material begins with.
        var head: StaticString {
            switch self {
            case .attributes: "Record"
            case .content: "RecordContent"
            }
        }
    }

    private struct SharedStart {
        var material: Material
        var type: String
        var sourceName: String
        var sourceVersion: String?
        var device: String?
        var unit: String?

    }

    private var scratch: [UInt8] = []
    private var parts: [Part] = []
    private var valueText: [UInt8] = []
    private var hasValue = false

    /// Starts noting the attributes of an element.
    mutating func beginAttributes() {
        scratch.removeAll(keepingCapacity: true)
        parts.removeAll(keepingCapacity: true)
        hasValue = false
    }

    /// Notes an attribute with its value as text (references already decoded).
    mutating func addAttribute(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        let nameStart = scratch.count
        scratch.append(contentsOf: name)
        let valueStart = scratch.count
        scratch.append(contentsOf: value)
        parts.append(Part(name: nameStart..<valueStart, value: valueStart..<scratch.count))
    }

    /// Notes an attribute whose value is text held in a string.
    mutating func addAttribute(name: UnsafeRawBufferPointer, value: String) {
        var value = value
        value.withUTF8 { addAttribute(name: name, value: UnsafeRawBufferPointer($0)) }
    }

    /// Notes a date attribute as the instant it denotes, so that one sample printed with
    /// different offsets has one identity.
    mutating func addAttribute(name: UnsafeRawBufferPointer, instant: Timestamp) {
        withUnsafeBytes(of: instant.millisecondsSince1970.littleEndian) { addAttribute(name: name, value: $0) }
    }

    /// The 64-bit hash of the noted attributes, sorted by name.
    mutating func finishAttributes(kind: StaticString) -> UInt64 {
        material.removeAll(keepingCapacity: true)
        kind.withUTF8Buffer { material.append(contentsOf: $0) }
        appendNotedAttributes()
        return hashMaterial()
    }

    /// Notes a record's value as written (references decoded): "72" and "72.0" are two
    /// samples, as any two records that differ in an attribute are.
    mutating func noteValue(_ bytes: UnsafeRawBufferPointer) {
        valueText.removeAll(keepingCapacity: true)
        valueText.append(contentsOf: bytes)
        hasValue = true
    }

    /// The 64-bit hash of a record's attributes: the ones every record has in a fixed order,
    /// then any others (noted with ``addAttribute(name:value:)``) sorted by name.
    mutating func recordHash(
        type: String, sourceName: String, sourceVersion: String?, device: String?, unit: String?, created: Timestamp?,
        start: Timestamp, end: Timestamp
    ) -> UInt64 {
        beginShared(.attributes, type: type, sourceName: sourceName, sourceVersion: sourceVersion, device: device, unit: unit)
        // Everything so far is the same for every record of this type, source, version, device
        // and unit: the whole blocks of it are hashed once and resumed from.
        let shared = material.count / 64 * 64
        if hasValue {
            material.append(6)
            material.append(contentsOf: valueText)
        }
        if let created { Self.append(created, tag: 7, to: &material) }
        Self.append(start, tag: 8, to: &material)
        Self.append(end, tag: 9, to: &material)
        if !parts.isEmpty { appendNotedAttributes() }
        return material.withUnsafeBytes { bytes in
            hasher.digest(bytes, reusing: shared, from: recordPrefixes) { UInt64(bigEndian: $0.loadUnaligned(as: UInt64.self)) }
        }
    }

    /// Empties the material and begins it with the fields a record shares with others of its
    /// type, source, version, device and unit, copied from a recent start when there is one.
    mutating func beginShared(
        _ kind: Material, type: String, sourceName: String, sourceVersion: String?, device: String?, unit: String?
    ) {
        material.removeAll(keepingCapacity: true)
        // Through the buffer: each start is asked in place, not copied out (its strings
        // retained and released) for every record.
        var known: Int?
        for index in sharedStarts.indices
        where sharedStarts[index].material == kind && sharedStarts[index].type.hasSameBytes(as: type)
            && sharedStarts[index].sourceName.hasSameBytes(as: sourceName) && sharedStarts[index].sourceVersion.hasSameBytes(as: sourceVersion)
            && sharedStarts[index].device.hasSameBytes(as: device) && sharedStarts[index].unit.hasSameBytes(as: unit)
        {
            known = index
            break
        }
        if let known {
            sharedBytes[known].withUnsafeBytes { material.append(contentsOf: $0) }
            return
        }
        kind.head.withUTF8Buffer { material.append(contentsOf: $0) }
        Self.append(type, tag: 1, to: &material)
        Self.append(sourceName, tag: 2, to: &material)
        if let sourceVersion { Self.append(sourceVersion, tag: 3, to: &material) }
        if let device { Self.append(device, tag: 4, to: &material) }
        if let unit { Self.append(unit, tag: 5, to: &material) }
        if sharedStarts.count == Self.sharedStartsKept {
            sharedStarts.removeLast()
            sharedBytes.removeLast()
        }
        sharedStarts.insert(
            SharedStart(material: kind, type: type, sourceName: sourceName, sourceVersion: sourceVersion, device: device, unit: unit), at: 0)
        sharedBytes.insert(material, at: 0)
    }

    /// Appends the noted attributes to the material, sorted by name: each as a record
    /// separator, its name, a unit separator and its value.
    private mutating func appendNotedAttributes() {
        scratch.withUnsafeBytes { scratch in
            for index in sortedOrder(scratch) {
                material.append(0x1E)
                material.append(contentsOf: scratch[parts[index].name])
                material.append(0x1F)
                material.append(contentsOf: scratch[parts[index].value])
            }
        }
    }

    static func append(_ text: String, tag: UInt8, to material: inout [UInt8]) {
        material.append(tag)
        if text.utf8.withContiguousStorageIfAvailable({ material.append(contentsOf: $0) }) == nil {
            material.append(contentsOf: text.utf8)
        }
        material.append(0x1F)
    }

    static func append(_ instant: Timestamp, tag: UInt8, to material: inout [UInt8]) {
        material.append(tag)
        withUnsafeBytes(of: instant.millisecondsSince1970.littleEndian) { material.append(contentsOf: $0) }
    }

    /// The 64-bit hash of an element's attributes, sorted by name, dates as instants and
    /// references decoded (for elements read without a draft of their own).
    mutating func attributeHash(kind: StaticString, of element: XMLElement, attributes reader: inout AttributeReader) -> UInt64 {
        beginAttributes()
        for attribute in element.attributes {
            let name = element.name(of: attribute)
            let raw = element.rawValue(of: attribute)
            if Self.isDateName(name), let instant = HealthDate.parse(raw) {
                addAttribute(name: name, instant: instant)
            } else if attribute.hasReferences {
                addAttribute(name: name, value: reader.string(attribute, in: element))
            } else {
                addAttribute(name: name, value: raw)
            }
        }
        return finishAttributes(kind: kind)
    }

    private mutating func sortedOrder(_ scratch: UnsafeRawBufferPointer) -> [Int] {
        var signature: UInt64 = 0xCBF2_9CE4_8422_2325
        for part in parts {
            for byte in scratch[part.name] { signature = (signature ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            signature = (signature ^ 0xFF) &* 0x0000_0100_0000_01B3
        }
        if let known = orders[signature], known.count == parts.count { return known }
        order = Array(parts.indices)
        order.sort { scratch[parts[$0].name].lexicographicallyPrecedes(scratch[parts[$1].name]) }
        if orders.count < 1024 { orders[signature] = order }
        return order
    }

    /// The 64-bit hash of text parts (an external UUID, a sync identifier and version).
    mutating func hash(_ parts: String...) -> UInt64 {
        material.removeAll(keepingCapacity: true)
        for part in parts {
            material.append(contentsOf: part.utf8)
            material.append(0x1F)
        }
        return hashMaterial()
    }

    private mutating func hashMaterial() -> UInt64 {
        material.withUnsafeBytes { bytes in
            hasher.digest(bytes) { UInt64(bigEndian: $0.loadUnaligned(as: UInt64.self)) }
        }
    }

    private static func isDateName(_ name: UnsafeRawBufferPointer) -> Bool {
        Names.creationDate.matches(name) || Names.startDate.matches(name) || Names.endDate.matches(name)
    }

    /// The entity and idempotency key of a sample or workout, from its metadata and its
    /// attribute hash.
    mutating func identity(
        kind: EntityKind, type: String, start: Timestamp, metadata: [MetadataEntry], attributeHash: UInt64
    )
        -> (entity: EntityReference, key: IdempotencyKey)
    {
        if let external = metadata.first(where: { $0.key == "HKExternalUUID" })?.value {
            let id = SampleIdentity.make(start: start, hash: hash("external", type, external))
            return (EntityReference(kind, id: id), IdempotencyKey(id))
        }
        if let sync = metadata.first(where: { $0.key == "HKMetadataKeySyncIdentifier" })?.value {
            let version = metadata.first { $0.key == "HKMetadataKeySyncVersion" }?.value ?? "0"
            // The entity spans versions (a higher one supersedes); each version is appended once.
            let entity = SampleIdentity.make(start: Timestamp(millisecondsSince1970: 0), hash: hash("sync", type, sync))
            let key = SampleIdentity.make(start: start, hash: hash("sync", type, sync, version))
            return (EntityReference(kind, id: entity), IdempotencyKey(key))
        }
        let id = SampleIdentity.make(start: start, hash: attributeHash)
        return (EntityReference(kind, id: id), IdempotencyKey(id))
    }
}
