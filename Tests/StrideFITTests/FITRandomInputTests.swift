import StrideFIT
import StrideTestSupport
import Testing

/// Any bytes, even with a CRC that checks, end in a result or a ``FITError``, never a crash
/// or a runaway allocation.
@Suite("FIT decoder on random input")
struct FITRandomInputTests {
    @Test("random records behind a valid header and CRC", arguments: 0..<8)
    func randomRecords(seed: UInt64) {
        // The same inputs as before the generator moved to StrideTestSupport.
        var generator = SeededGenerator(state: seed &+ 0x9E37_79B9_7F4A_7C15)
        for _ in 0..<500 {
            var builder = FITBuilder()
            builder.appendRun(created: 1_000_000_000)
            var records = builder.records
            for _ in 0..<Int(generator.next() % 8 + 1) {
                records[Int(generator.next() % UInt64(records.count))] = UInt8(truncatingIfNeeded: generator.next())
            }
            records += (0..<Int(generator.next() % 64)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let file = Self.file(records)
            let (activity, failure) = file.withUnsafeBytes { FITActivity.decode($0) }
            if let failure { #expect(failure.offset <= file.count) } else { #expect(activity.counts.files == 1) }
        }
    }

    /// Header (12 bytes), records, CRC.
    static func file(_ records: [UInt8]) -> [UInt8] {
        let header: [UInt8] = [12, 0x20] + FITBuilder.littleEndian16(2105) + FITBuilder.littleEndian32(UInt32(records.count)) + Array(".FIT".utf8)
        let body = header + records
        return body + FITBuilder.littleEndian16(FITCRC.checksum(body))
    }
}
