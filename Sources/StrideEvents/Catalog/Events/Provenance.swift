/// Who wrote a sample or a workout — creation time, source, version, device, metadata — as
/// both payloads store it, last: one writer and one reader for the two.
struct Provenance {
    var created: Timestamp?
    var sourceName: String
    var sourceVersion: String?
    var device: String?
    var metadata: [MetadataEntry]
}

extension BinaryWriter {
    /// Writes a payload's provenance fields, in their stored order.
    mutating func writeProvenance(
        created: Timestamp?, sourceName: String, sourceVersion: String?, device: String?, metadata: [MetadataEntry]
    ) {
        write(optional: created) { $0.write($1) }
        write(sourceName)
        write(optional: sourceVersion) { $0.write($1) }
        write(optional: device) { $0.write($1) }
        write(metadata: metadata)
    }
}

extension BinaryReader {
    /// Reads fields written by ``BinaryWriter/writeProvenance(created:sourceName:sourceVersion:device:metadata:)``.
    @inline(__always)
    mutating func readProvenance() throws -> Provenance {
        Provenance(
            created: try readOptional { try $0.readTimestamp() }, sourceName: try readString(),
            sourceVersion: try readOptional { try $0.readString() }, device: try readOptional { try $0.readString() },
            metadata: try readMetadata())
    }
}
