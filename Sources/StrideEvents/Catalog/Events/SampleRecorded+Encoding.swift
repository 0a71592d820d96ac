/// How a `sample.recorded` payload is written and read: the fields figures are made of first
/// (``BinaryReader/readSampleLead()``), in the same layout in every version, then the
/// provenance, then (version 2) the sender.
///
/// The speed of this decoding is what `stride-bench rebuild`'s full-rebuild rate measures
/// (1.34 M events/s on the benchmark's million-event ledger, 2026-11-26): a change here is
/// checked against that figure.
extension SampleRecorded {
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

    /// Decodes the payload in either version.
    public init(decoding reader: inout BinaryReader, schemaVersion: UInt16) throws {
        guard schemaVersion == 1 || schemaVersion == 2 else { throw Self.unknownVersion(schemaVersion) }
        // Read into locals and handed to the compiler's memberwise init (see `init(healthType:…)`).
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
