import StrideEvents
import StrideProjection

extension DailyHealthProjection {
    public func encode(key: Key) -> [UInt8] {
        var writer = BinaryWriter(capacity: 17)
        switch key {
        case .day(let day):
            writer.write(UInt8(1))
            // Big-endian with the sign flipped, so byte order is day order.
            writer.write(fixed: (UInt64(bitPattern: day.daysSince1970) ^ (1 << 63)).bigEndian)
        case .synced(let id):
            writer.write(UInt8(2))
            writer.write(fixed: id.bigEndian)
        }
        return writer.bytes
    }

    public func decodeKey(_ bytes: UnsafeRawBufferPointer) throws -> Key {
        var reader = BinaryReader(bytes)
        switch try reader.readByte() {
        case 1:
            let raw = UInt64(bigEndian: try reader.read(fixed: UInt64.self)) ^ (1 << 63)
            return .day(CivilDate(daysSince1970: Int64(bitPattern: raw)))
        case 2:
            return .synced(UInt128(bigEndian: try reader.read(fixed: UInt128.self)))
        case let other:
            throw DecodingFailure("unknown daily key kind \(other)")
        }
    }

    public func encode(row: Row, into writer: inout BinaryWriter) {
        if let day = row.day {
            writer.write(UInt8(1))
            writer.write(varint: day.lastSequence)
            for facts in day.facts {
                writer.write(varint: UInt64(facts.count))
                for fact in facts { Self.write(fact, into: &writer) }
            }
        } else if let synced = row.synced {
            writer.write(UInt8(2))
            writer.write(signedVarint: Int64(synced.version))
            writer.write(varint: UInt64(synced.days.count))
            for day in synced.days { writer.write(signedVarint: day.daysSince1970) }
        } else {
            writer.write(UInt8(0))
        }
    }

    public func decodeRow(_ bytes: UnsafeRawBufferPointer) throws -> Row {
        var reader = BinaryReader(bytes)
        switch try reader.readByte() {
        case 1:
            var day = DayFacts()
            day.lastSequence = try reader.readVarint()
            for measure in Measure.allCases {
                let count = try reader.readCount()
                var facts: [Fact] = []
                facts.reserveCapacity(count)
                for _ in 0..<count { facts.append(try Self.readFact(&reader)) }
                day[measure] = facts
            }
            return DailyHealthRow(day: day, synced: nil)
        case 2:
            let version = Int(try reader.readSignedVarint())
            let count = try reader.readCount()
            var days: [CivilDate] = []
            for _ in 0..<count { days.append(CivilDate(daysSince1970: try reader.readSignedVarint())) }
            return DailyHealthRow(day: nil, synced: SyncedSample(version: version, days: days))
        case 0:
            return DailyHealthRow(day: nil, synced: nil)
        case let other:
            throw DecodingFailure("unknown daily row kind \(other)")
        }
    }

    private static func write(_ fact: Fact, into writer: inout BinaryWriter) {
        writer.write(fact.start)
        writer.write(signedVarint: fact.end.millisecondsSince1970 - fact.start.millisecondsSince1970)
        writer.write(fact.value)
        writer.write(fact.deviceClass.rawValue)
        writer.write(fact.sleep.map { UInt8(SleepValue.allCases.firstIndex(of: $0) ?? 0) } ?? 0xFF)
        writer.write(varint: fact.sequence)
        writer.write(optional: fact.syncEntity) { $0.write(fixed: $1) }
    }

    private static func readFact(_ reader: inout BinaryReader) throws -> Fact {
        let start = try reader.readTimestamp()
        let end = start.adding(milliseconds: try reader.readSignedVarint())
        let value = try reader.readDouble()
        guard let deviceClass = DeviceClass(rawValue: try reader.readByte()) else { throw DecodingFailure("unknown device class") }
        let stage = try reader.readByte()
        let sleep: SleepValue? = stage == 0xFF ? nil : (Int(stage) < SleepValue.allCases.count ? SleepValue.allCases[Int(stage)] : nil)
        let sequence = try reader.readVarint()
        let sync = try reader.readOptional { try $0.read(fixed: UInt128.self) }
        return Fact(start: start, end: end, value: value, deviceClass: deviceClass, sleep: sleep, sequence: sequence, syncEntity: sync)
    }
}
