import StrideEvents
import StrideProjection

extension DailyHealthProjection {
    /// The first byte of each kind of key: facts sort first, then synced samples, then the
    /// superseded facts.
    enum KeyKind {
        static let facts: UInt8 = 1
        static let synced: UInt8 = 2
        static let superseded: UInt8 = 3
    }

    /// Of a fold's rows, the rows of facts alone (without the synced samples' and the
    /// superseded facts'): what the past as recorded is compared on.
    public static func factRows(of rows: EncodedRows) -> EncodedRows {
        rows.filter { $0.key.first == KeyKind.facts }
    }

    /// The keys of the superseded facts, `lower..<upper`: the rows kept to take the daily
    /// records back to a point of the past.
    public static let supersededKeys = (lower: [KeyKind.superseded], upper: [KeyKind.superseded + 1])

    public func encode(key: Key) -> [UInt8] {
        var writer = BinaryWriter(capacity: 17)
        encode(key: key, into: &writer)
        return writer.bytes
    }

    public func encode(key: Key, into writer: inout BinaryWriter) {
        switch key {
        case .facts(let day, let measure, let hour):
            writer.write(KeyKind.facts)
            Self.writePlace(day, measure, hour, into: &writer)
        case .synced(let id):
            writer.write(KeyKind.synced)
            writer.write(fixed: id.bigEndian)
        case .superseded(let day, let measure, let hour, let sequence):
            // The facts key's bytes after its kind, then the sequence: a row's superseded
            // facts sort by day, measure and hour as its facts do (see `DailyRowsAsRecorded`).
            writer.write(KeyKind.superseded)
            Self.writePlace(day, measure, hour, into: &writer)
            writer.write(fixed: sequence.bigEndian)
        }
    }

    /// A day, measure and hour as key bytes: in that order, so rows sort by them.
    private static func writePlace(_ day: CivilDate, _ measure: Measure, _ hour: UInt8, into writer: inout BinaryWriter) {
        writer.write(orderedDay: day)
        writer.write(measure.rawValue)
        writer.write(hour)
    }

    private static func readPlace(_ reader: inout BinaryReader) throws -> (day: CivilDate, measure: Measure, hour: UInt8) {
        let day = try reader.readOrderedDay()
        guard let measure = Measure(rawValue: try reader.readByte()) else { throw DecodingFailure("unknown measure") }
        return (day, measure, try reader.readByte())
    }

    /// The key bytes before every row of a day (and after every row of the days before).
    public func firstKey(of day: CivilDate) -> [UInt8] {
        encode(key: .firstKey(of: day))
    }

    public func decodeKey(_ bytes: UnsafeRawBufferPointer) throws -> Key {
        var reader = BinaryReader(bytes)
        return try readKey(&reader)
    }

    private func readKey(_ reader: inout BinaryReader) throws -> Key {
        switch try reader.readByte() {
        case KeyKind.facts:
            let place = try Self.readPlace(&reader)
            return .facts(day: place.day, measure: place.measure, hour: place.hour)
        case KeyKind.synced:
            return .synced(UInt128(bigEndian: try reader.read(fixed: UInt128.self)))
        case KeyKind.superseded:
            let place = try Self.readPlace(&reader)
            return .superseded(day: place.day, measure: place.measure, hour: place.hour, at: UInt64(bigEndian: try reader.read(fixed: UInt64.self)))
        case let other:
            throw DecodingFailure("unknown daily key kind \(other)")
        }
    }

    public func encode(row: Row, into writer: inout BinaryWriter) {
        writer.write(varint: row.lastSequence)
        writer.write(varint: UInt64(row.facts.count))
        for fact in row.facts { Self.write(fact, into: &writer) }
        writer.write(optional: row.synced) { writer, synced in
            writer.write(signedVarint: Int64(synced.version))
            writer.write(varint: UInt64(synced.places.count))
            for place in synced.places { encode(key: place, into: &writer) }
            writer.write(synced.leftOut.rawValue)
        }
    }

    public func decodeRow(_ bytes: UnsafeRawBufferPointer) throws -> Row {
        var reader = BinaryReader(bytes)
        var row = DailyHealthRow()
        row.lastSequence = try reader.readVarint()
        let count = try reader.readCount()
        row.facts.reserveCapacity(count)
        for _ in 0..<count { row.facts.append(try Self.readFact(&reader)) }
        row.synced = try reader.readOptional { reader in
            let version = Int(try reader.readSignedVarint())
            let count = try reader.readCount()
            var places: [DailyHealthKey] = []
            for _ in 0..<count { places.append(try readKey(&reader)) }
            return SyncedSample(version: version, places: places, leftOut: LeftOut(rawValue: try reader.readByte()))
        }
        try reader.expectEnd("a daily row")
        return row
    }

    /// A row's `lastSequence`, its first field, read without decoding the rest.
    public static func lastSequence(ofRow bytes: UnsafeRawBufferPointer) throws -> UInt64 {
        var reader = BinaryReader(bytes)
        return try reader.readVarint()
    }

    /// The sequence of a facts row's first fact (the earliest: facts are in the order they
    /// were recorded), read without decoding the rest; nil for a row without facts.
    static func firstFactSequence(_ bytes: UnsafeRawBufferPointer) throws -> UInt64? {
        var reader = BinaryReader(bytes)
        _ = try reader.readVarint()
        guard try reader.readCount() > 0 else { return nil }
        return try readFact(&reader).sequence
    }

    private static func write(_ fact: Fact, into writer: inout BinaryWriter) {
        writer.write(fact.start)
        writer.write(signedVarint: fact.end.millisecondsSince1970 - fact.start.millisecondsSince1970)
        writer.write(fact.value)
        writer.write(fact.deviceClass.rawValue)
        writer.write(fact.sleep.map { UInt8(SleepValue.allCases.firstIndex(of: $0) ?? 0) } ?? 0xFF)
        writer.write(varint: fact.sequence)
        writer.write(optional: fact.syncEntity) { $0.write(fixed: $1) }
        writer.write(fact.leftOut.rawValue)
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
        let leftOut = LeftOut(rawValue: try reader.readByte())
        return Fact(
            start: start, end: end, value: value, deviceClass: deviceClass, sleep: sleep, sequence: sequence, syncEntity: sync, leftOut: leftOut)
    }
}
