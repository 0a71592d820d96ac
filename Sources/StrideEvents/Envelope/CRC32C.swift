import CChecksum

/// CRC-32C (Castagnoli), the per-event checksum: cheap, and it catches any burst error of up
/// to 32 bits in a stored event without walking the hash chain.
public enum CRC32C {
    /// The checksum of a byte buffer.
    public static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        stride_crc32c(bytes.baseAddress, bytes.count)
    }
}
