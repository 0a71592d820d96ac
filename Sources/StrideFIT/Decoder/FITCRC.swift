/// The FIT protocol's CRC-16 (the reflected polynomial 0xA001 with a zero start, also known
/// as CRC-16/ARC), over the header's first 12 bytes and over a whole file. A CRC run over
/// data followed by its own little-endian CRC gives zero, which is how a file is checked.
public enum FITCRC {
    /// The CRC of `bytes`, continuing from `crc`.
    public static func update(_ crc: UInt16, with bytes: UnsafeRawBufferPointer) -> UInt16 {
        var crc = crc
        table.withUnsafeBufferPointer { table in
            for byte in bytes {
                crc = (crc >> 8) ^ table[Int(UInt8(truncatingIfNeeded: crc) ^ byte)]
            }
        }
        return crc
    }

    /// The CRC of `bytes`.
    public static func checksum(_ bytes: [UInt8]) -> UInt16 {
        bytes.withUnsafeBytes { update(0, with: $0) }
    }

    /// A byte at a time rather than the protocol description's four bits at a time: one
    /// table lookup per byte.
    private static let table: [UInt16] = (0..<256).map { index in
        var crc = UInt16(index)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xA001 : crc >> 1 }
        return crc
    }
}
