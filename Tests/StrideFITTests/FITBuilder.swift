import StrideFIT

/// Builds FIT files byte by byte for the decoder's tests.
struct FITBuilder {
    private(set) var records: [UInt8] = []

    /// A definition message: `fields` as (number, size, base type byte), developer fields as
    /// (number, size, developer data index).
    mutating func define(
        local: UInt8, global: UInt16, fields: [(UInt8, UInt8, UInt8)], developerFields: [(UInt8, UInt8, UInt8)] = [],
        bigEndian: Bool = false
    ) {
        records.append(0x40 | (developerFields.isEmpty ? 0 : 0x20) | local)
        records += [0, bigEndian ? 1 : 0]
        records += bigEndian ? Self.bigEndian16(global) : Self.littleEndian16(global)
        records.append(UInt8(fields.count))
        for field in fields { records += [field.0, field.1, field.2] }
        if !developerFields.isEmpty {
            records.append(UInt8(developerFields.count))
            for field in developerFields { records += [field.0, field.1, field.2] }
        }
    }

    /// A data message with a normal header.
    mutating func data(local: UInt8, _ content: [UInt8]) {
        records.append(local)
        records += content
    }

    /// A data message with a compressed-timestamp header.
    mutating func compressed(local: UInt8, timeOffset: UInt8, _ content: [UInt8]) {
        records.append(0x80 | local << 5 | timeOffset & 0x1F)
        records += content
    }

    /// The whole file: header (12 or 14 bytes), records, CRC.
    func file(headerSize: Int = 14) -> [UInt8] {
        var header: [UInt8] = [UInt8(headerSize), 0x20] + Self.littleEndian16(2105) + Self.littleEndian32(UInt32(records.count))
        header += Array(".FIT".utf8)
        if headerSize == 14 { header += Self.littleEndian16(FITCRC.checksum(header)) }
        let body = header + records
        return body + Self.littleEndian16(FITCRC.checksum(body))
    }

    static func littleEndian16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    static func bigEndian16(_ value: UInt16) -> [UInt8] { littleEndian16(value).reversed() }
    static func littleEndian32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }
    static func bigEndian32(_ value: UInt32) -> [UInt8] { littleEndian32(value).reversed() }

    /// A one-session running file: file_id (Garmin, serial 1234, created at `created`), then a
    /// session that started at `created`, ran 1800 s (1750 on the timer), 5012.34 m, 321 kcal,
    /// heart rate 150 average and 181 maximum.
    static func run(created: UInt32 = 1_000_000_000, bigEndian: Bool = false, headerSize: Int = 14) -> [UInt8] {
        var builder = FITBuilder()
        builder.appendRun(created: created, bigEndian: bigEndian)
        return builder.file(headerSize: headerSize)
    }

    /// Appends the records of ``run(created:bigEndian:headerSize:)``.
    mutating func appendRun(created: UInt32, bigEndian: Bool = false, sport: UInt8 = 1, subSport: UInt8 = 0) {
        let u16 = bigEndian ? Self.bigEndian16 : Self.littleEndian16
        let u32 = bigEndian ? Self.bigEndian32 : Self.littleEndian32
        define(local: 0, global: 0, fields: [(0, 1, 0x00), (1, 2, 0x84), (2, 2, 0x84), (3, 4, 0x8C), (4, 4, 0x86)], bigEndian: bigEndian)
        data(local: 0, [4] + u16(1) + u16(4315) + u32(1234) + u32(created))
        define(
            local: 1, global: 18,
            fields: [
                (253, 4, 0x86), (2, 4, 0x86), (5, 1, 0x00), (6, 1, 0x00), (7, 4, 0x86), (8, 4, 0x86), (9, 4, 0x86), (11, 2, 0x84),
                (16, 1, 0x02), (17, 1, 0x02),
            ], bigEndian: bigEndian)
        data(
            local: 1,
            u32(created + 1800) + u32(created) + [sport, subSport] + u32(1_800_000) + u32(1_750_000) + u32(501_234) + u16(321) + [150, 181])
    }
}
