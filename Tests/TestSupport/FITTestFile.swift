/// A FIT file around messages written byte by byte, for tests that write what a device does:
/// a 12-byte header, the messages, and the file's CRC-16 (CRC-16/ARC, as the protocol says).
public enum FITTestFile {
    /// The whole file around `messages` (definition and data messages, as written).
    public static func file(_ messages: [UInt8]) -> [UInt8] {
        let header: [UInt8] = [12, 0x20, 0x39, 0x08] + littleEndian32(UInt32(messages.count)) + Array(".FIT".utf8)
        let body = header + messages
        return body + littleEndian16(crc16(body))
    }

    /// A 16-bit value as FIT's little-endian messages write it.
    public static func littleEndian16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }

    /// A 32-bit value as FIT's little-endian messages write it.
    public static func littleEndian32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }

    static func crc16(_ bytes: [UInt8]) -> UInt16 {
        var crc: UInt16 = 0
        for byte in bytes {
            crc ^= UInt16(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xA001 : crc >> 1 }
        }
        return crc
    }
}
