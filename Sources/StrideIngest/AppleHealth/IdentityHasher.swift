import StrideEvents

/// Computes the identity of what an export holds, by the rules of the ingest:
/// `HKExternalUUID` metadata first; else `HKMetadataKeySyncIdentifier` (its version telling
/// versions apart); else a hash of every attribute with dates taken as instants — so the
/// same sample from exports printed months apart, with other offsets, has one identity,
/// and two samples that differ in any attribute have two.
final class IdentityHasher {
    private let hasher = SHA256Hasher()
    private var material: [UInt8] = []
    private var order: [Int] = []

    /// The 64-bit hash of an element's attributes, sorted by name, dates as instants and
    /// references decoded.
    func attributeHash(kind: StaticString, of element: XMLElement) -> UInt64 {
        material.removeAll(keepingCapacity: true)
        kind.withUTF8Buffer { material.append(contentsOf: $0) }
        order.removeAll(keepingCapacity: true)
        order.append(contentsOf: element.attributes.indices)
        order.sort { left, right in
            element.name(of: element.attributes[left]).lexicographicallyPrecedes(element.name(of: element.attributes[right]))
        }
        for index in order {
            let attribute = element.attributes[index]
            let name = element.name(of: attribute)
            material.append(0x1E)
            material.append(contentsOf: name)
            material.append(0x1F)
            let raw = element.rawValue(of: attribute)
            if Self.isDateName(name), let instant = HealthDate.parse(raw) {
                withUnsafeBytes(of: instant.millisecondsSince1970.littleEndian) { material.append(contentsOf: $0) }
            } else if attribute.hasReferences {
                material.append(contentsOf: XMLReferences.decode(raw).bytes)
            } else {
                material.append(contentsOf: raw)
            }
        }
        return hashMaterial()
    }

    /// The 64-bit hash of text parts (an external UUID, a sync identifier and version).
    func hash(_ parts: String...) -> UInt64 {
        material.removeAll(keepingCapacity: true)
        for part in parts {
            material.append(contentsOf: part.utf8)
            material.append(0x1F)
        }
        return hashMaterial()
    }

    private func hashMaterial() -> UInt64 {
        material.withUnsafeBytes { bytes in
            hasher.digest(bytes) { UInt64(bigEndian: $0.loadUnaligned(as: UInt64.self)) }
        }
    }

    private static func isDateName(_ name: UnsafeRawBufferPointer) -> Bool {
        Names.creationDate.matches(name) || Names.startDate.matches(name) || Names.endDate.matches(name)
    }

    /// The entity and idempotency key of a sample or workout, from its metadata and its
    /// attribute hash.
    func identity(kind: EntityKind, type: String, start: Timestamp, metadata: [MetadataEntry], attributeHash: UInt64)
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
