import StrideFIT
import Testing

/// The decoder's edge cases, on files built byte by byte.
@Suite("FIT decoder")
struct FITDecoderTests {
    @Test("the CRC is CRC-16/ARC") func crc() {
        #expect(FITCRC.checksum(Array("123456789".utf8)) == 0xBB3D)
    }

    @Test("a session is read with either header size and either byte order", arguments: [12, 14], [false, true])
    func session(headerSize: Int, bigEndian: Bool) throws {
        let activity = try FITActivity(decoding: FITBuilder.run(bigEndian: bigEndian, headerSize: headerSize))
        let session = try #require(activity.sessions.first)
        #expect(activity.sessions.count == 1)
        #expect(FITNames.sport(session.sport) == "running")
        #expect(session.startTime == FITDateTime(rawValue: 1_000_000_000))
        #expect(session.timestamp == FITDateTime(rawValue: 1_000_001_800))
        #expect(session.totalElapsedTime == 1800)
        #expect(session.totalTimerTime == 1750)
        #expect(session.totalDistance == 5012.34)
        #expect(session.totalCalories == 321)
        #expect(session.averageHeartRate == 150)
        #expect(session.maximumHeartRate == 181)
        #expect(activity.fileID?.serialNumber == 1234)
        #expect(activity.fileID?.product == 4315)
        #expect(activity.creator?.name == "Garmin Forerunner 965")
    }

    @Test("compressed timestamps count from the last timestamp and roll over its 32-second window")
    func compressedTimestamps() throws {
        var builder = FITBuilder()
        builder.define(local: 0, global: 20, fields: [(253, 4, 0x86), (3, 1, 0x02)])
        builder.data(local: 0, FITBuilder.littleEndian32(0x2000_0010) + [100])
        builder.define(local: 1, global: 20, fields: [(3, 1, 0x02)])
        builder.compressed(local: 1, timeOffset: 0x12, [101])
        builder.compressed(local: 1, timeOffset: 0x02, [102])
        var timestamps = Timestamps()
        try builder.file().withUnsafeBytes { try FITDecoder.decode($0, into: &timestamps) }
        #expect(timestamps.values == [0x2000_0010, 0x2000_0012, 0x2000_0022])
        #expect(timestamps.heartRates == [100, 101, 102])
        #expect(timestamps.compressed == [false, true, true])
    }

    @Test("a local type redefined mid-file reads with its new definition")
    func redefinedLocalType() throws {
        var builder = FITBuilder()
        builder.define(local: 0, global: 0, fields: [(3, 4, 0x8C)])
        builder.data(local: 0, FITBuilder.littleEndian32(77))
        builder.define(local: 0, global: 18, fields: [(5, 1, 0x00), (9, 4, 0x86)])
        builder.data(local: 0, [2] + FITBuilder.littleEndian32(1_000_000))
        let activity = try FITActivity(decoding: builder.file())
        #expect(activity.fileID?.serialNumber == 77)
        #expect(activity.sessions.map(\.sport) == [2])
        #expect(activity.sessions.first?.totalDistance == 10_000)
    }

    @Test("developer fields are skipped by their declared sizes, and what follows reads right")
    func developerFields() throws {
        var builder = FITBuilder()
        builder.define(local: 0, global: 20, fields: [(3, 1, 0x02)], developerFields: [(0, 3, 0), (1, 1, 0)])
        builder.data(local: 0, [140, 0xAA, 0xBB, 0xCC, 0xDD])
        builder.appendRun(created: 1_000_000_000)
        let activity = try FITActivity(decoding: builder.file())
        #expect(activity.counts.messagesWithDeveloperFields == 1)
        #expect(activity.counts.records == 1)
        #expect(activity.sessions.first?.totalDistance == 5012.34)
    }

    @Test("invalid-value patterns read as no value")
    func invalidValues() throws {
        var builder = FITBuilder()
        builder.define(local: 0, global: 0, fields: [(3, 4, 0x8C), (4, 4, 0x86)])
        builder.data(local: 0, FITBuilder.littleEndian32(0) + FITBuilder.littleEndian32(UInt32.max))
        builder.define(local: 1, global: 18, fields: [(5, 1, 0x00), (16, 1, 0x02), (11, 2, 0x84), (9, 4, 0x86), (22, 2, 0x84)])
        builder.data(local: 1, [0xFF, 0xFF, 0xFF, 0xFF] + [0xFF, 0xFF, 0xFF, 0xFF] + [0, 0])
        let activity = try FITActivity(decoding: builder.file())
        let session = try #require(activity.sessions.first)
        #expect(activity.fileID?.serialNumber == nil)
        #expect(activity.fileID?.timeCreated == nil)
        #expect(session.sport == nil && session.averageHeartRate == nil && session.totalCalories == nil)
        #expect(session.totalDistance == nil)
        #expect(session.totalAscent == 0)
    }

    @Test("a field whose size is not a whole number of values is unreadable, not misread")
    func misalignedField() throws {
        var builder = FITBuilder()
        builder.define(local: 0, global: 18, fields: [(9, 1, 0x86), (11, 2, 0x84)])
        builder.data(local: 0, [7, 42, 0])
        let session = try #require(try FITActivity(decoding: builder.file()).sessions.first)
        #expect(session.totalDistance == nil)
        #expect(session.totalCalories == 42)
    }

    @Test("a damaged byte fails the file's CRC, naming where the CRC sits")
    func badFileCRC() {
        var bytes = FITBuilder.run()
        bytes[20] ^= 0x01
        #expect(throws: FITError.fileCRCMismatch(offset: bytes.count - 2)) { try FITActivity(decoding: bytes) }
    }

    @Test("a damaged header fails the header's CRC")
    func badHeaderCRC() {
        var bytes = FITBuilder.run()
        bytes[2] ^= 0x01
        #expect(throws: FITError.headerCRCMismatch(offset: 0)) { try FITActivity(decoding: bytes) }
    }

    @Test("a file cut short is refused, naming the byte where it ends", arguments: [5, 13, 30, 60])
    func truncated(keeping count: Int) {
        let bytes = Array(FITBuilder.run().prefix(count))
        #expect(throws: FITError.self) { try FITActivity(decoding: bytes) }
        let failure = bytes.withUnsafeBytes { FITActivity.decode($0).failure }
        #expect(failure?.offset == count)
        #expect(bytes.withUnsafeBytes { FITActivity.decode($0).activity.sessions.isEmpty })
    }

    @Test("a file missing only its CRC is truncated at its end")
    func missingCRC() {
        let bytes = Array(FITBuilder.run().dropLast(2))
        #expect(throws: FITError.truncated(offset: bytes.count)) { try FITActivity(decoding: bytes) }
    }

    @Test("a data size far beyond the file is refused without allocating it")
    func absurdDataSize() {
        var bytes = FITBuilder.run(headerSize: 12)
        bytes.replaceSubrange(4..<8, with: [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(throws: FITError.truncated(offset: bytes.count)) { try FITActivity(decoding: bytes) }
    }

    @Test("chained files give every session; a damaged second file keeps the first")
    func chained() throws {
        let first = FITBuilder.run(created: 1_000_000_000)
        let second = FITBuilder.run(created: 1_000_002_000, bigEndian: true, headerSize: 12)
        let activity = try FITActivity(decoding: first + second)
        #expect(activity.counts.files == 2)
        #expect(activity.sessions.map(\.index) == [0, 1])
        #expect(activity.sessions.map(\.startTime?.rawValue) == [1_000_000_000, 1_000_002_000])
        var damaged = second
        damaged[30] ^= 0xFF
        let (kept, failure) = (first + damaged).withUnsafeBytes { FITActivity.decode($0) }
        #expect(failure == .fileCRCMismatch(offset: first.count + damaged.count - 2))
        #expect(kept.sessions.count == 1)
    }

    @Test("bytes after the last file that are no FIT header are refused, naming where")
    func trailingBytes() {
        let bytes = FITBuilder.run() + [1, 2, 3]
        #expect(throws: FITError.notFIT(offset: bytes.count - 3)) { try FITActivity(decoding: bytes) }
    }

    @Test("a data message before any definition of its local type is refused")
    func undefinedLocalType() {
        var builder = FITBuilder()
        builder.data(local: 3, [1, 2])
        #expect(throws: FITError.undefinedLocalType(offset: 14, localType: 3)) { try FITActivity(decoding: builder.file()) }
    }

    @Test("a byte order other than 0 or 1 is refused")
    func unknownByteOrder() {
        var builder = FITBuilder()
        builder.define(local: 0, global: 0, fields: [])
        var bytes = builder.file()
        bytes[16] = 7
        bytes.removeLast(2)
        bytes += FITBuilder.littleEndian16(FITCRC.checksum(bytes))
        #expect(throws: FITError.unknownByteOrder(offset: 14, value: 7)) { try FITActivity(decoding: bytes) }
    }

    @Test("not a FIT file") func notFIT() {
        #expect(throws: FITError.notFIT(offset: 0)) { try FITActivity(decoding: Array("<?xml version='1.0'?><gpx/>".utf8)) }
    }
}

/// Collects record timestamps and heart rates.
private struct Timestamps: FITMessageHandler {
    var values: [UInt32] = []
    var heartRates: [UInt64] = []
    var compressed: [Bool] = []
    mutating func beginFile(at offset: Int, dataSize: Int) {}
    mutating func message(_ message: FITMessage) throws {
        values.append(message.timestamp?.rawValue ?? 0)
        heartRates.append(message.unsigned(3) ?? 0)
        compressed.append(message.hasCompressedTimestamp)
    }
    mutating func endFile(at offset: Int) {}
}
