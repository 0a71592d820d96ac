import Foundation
import StrideEvents
import StrideProjection

extension TravelProjection {
    private enum Prefix: UInt8 {
        case period = 1, observation, changed, reading
    }

    public func encode(key: Key) -> [UInt8] {
        var writer = BinaryWriter(capacity: 48)
        switch key {
        case .period(let sequence):
            writer.write(Prefix.period.rawValue)
            writer.write(fixed: sequence.bigEndian)
        case .observation(let hour, let reading, let source):
            writer.write(Prefix.observation.rawValue)
            // Biased so that byte order is time order before 1970 too.
            writer.write(fixed: (UInt64(bitPattern: hour) ^ 1 << 63).bigEndian)
            writer.write(UInt8(ZoneObservation.Source.allCases.firstIndex(of: source) ?? 0))
            writer.write(raw: Array(reading.utf8))
        case .changed:
            writer.write(Prefix.changed.rawValue)
        case .reading(let reading):
            writer.write(Prefix.reading.rawValue)
            writer.write(raw: Array(reading.utf8))
        }
        return writer.bytes
    }

    public func decodeKey(_ bytes: UnsafeRawBufferPointer) throws -> Key {
        var reader = BinaryReader(bytes)
        switch Prefix(rawValue: try reader.readByte()) {
        case .period: return .period(UInt64(bigEndian: try reader.read(fixed: UInt64.self)))
        case .observation:
            let hour = Int64(bitPattern: UInt64(bigEndian: try reader.read(fixed: UInt64.self)) ^ 1 << 63)
            let sources = ZoneObservation.Source.allCases
            let index = Int(try reader.readByte())
            guard index < sources.count else { throw DecodingFailure("unknown observation source \(index)") }
            return .observation(hour: hour, reading: String(decoding: bytes.dropFirst(10), as: UTF8.self), source: sources[index])
        case .changed: return .changed
        case .reading: return .reading(String(decoding: bytes.dropFirst(), as: UTF8.self))
        case nil: throw DecodingFailure("unknown travel key kind")
        }
    }

    public func encode(row: Row, into writer: inout BinaryWriter) {
        switch row {
        case .period(let period):
            writer.write(Prefix.period.rawValue)
            period.encode(into: &writer)
        case .observation(let observation, let sequence):
            writer.write(Prefix.observation.rawValue)
            ZonesObserved(file: "", observations: [observation]).encode(into: &writer)
            writer.write(varint: sequence)
        case .changed(let sequence):
            writer.write(Prefix.changed.rawValue)
            writer.write(varint: sequence)
        }
    }

    public func decodeRow(_ bytes: UnsafeRawBufferPointer) throws -> Row {
        var reader = BinaryReader(bytes)
        let row: Row
        switch Prefix(rawValue: try reader.readByte()) {
        case .period: row = .period(try TravelPeriodSet(decoding: &reader, schemaVersion: TravelPeriodSet.schemaVersion))
        case .observation:
            let observed = try ZonesObserved(decoding: &reader, schemaVersion: ZonesObserved.schemaVersion)
            let sequence = try reader.readVarint()
            // A zone this machine no longer knows is no evidence.
            guard let observation = observed.observations.first else { return .changed(0) }
            row = .observation(observation, sequence: sequence)
        case .changed, .reading: row = .changed(try reader.readVarint())
        case nil: throw DecodingFailure("unknown travel row kind")
        }
        try reader.expectEnd("a travel row")
        return row
    }
}
