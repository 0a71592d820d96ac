/// How the facts of a stored `sample.recorded` payload are read, without the rest of it.
///
/// Its speed is guarded by `stride-bench parts` ("facts decode") and by `stride-bench
/// rebuild`'s full-rebuild rate, not by comments: a change here is checked against them.
extension SampleFacts {
    /// Reads the facts of a stored `sample.recorded` payload of any schema version this Stride
    /// knows: the leading fields (every version begins with them), and the metadata only when
    /// the sample is identified by a sync identifier (its version is there). The one way a
    /// stored sample becomes projection input.
    /// - Throws: ``DecodingFailure``, and ``NewerSchema`` for a version this Stride does not know.
    init(decoding reader: inout BinaryReader, schemaVersion: UInt16, isSyncIdentified: Bool) throws {
        guard (1...SampleRecorded.schemaVersion).contains(schemaVersion) else {
            throw schemaVersion > SampleRecorded.schemaVersion ? NewerSchema() : SampleRecorded.unknownVersion(schemaVersion)
        }
        let (healthType, typeCode, deviceClass, value, unit, start, end) = try reader.readSampleLead()
        let syncVersion = isSyncIdentified ? Self.syncVersion(in: try reader.readProvenance().metadata) : nil
        self.init(
            healthType: healthType, typeCode: typeCode, deviceClass: deviceClass, value: value, unit: unit, start: start,
            end: end, syncVersion: syncVersion)
    }
}
