import Glibc

/// A fast, non-cryptographic hash of short byte strings, for the in-memory tables of the
/// hot paths (recently decoded strings, the health-type catalog): FNV-1a taken eight bytes
/// at a time, then the remaining bytes one by one. Not stable across versions; never stored.
enum WordHash {
    /// Whether two byte strings are the same: what a table compares once the hashes agree.
    @inline(__always)
    static func sameBytes(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer) -> Bool {
        guard left.count == right.count else { return false }
        guard let leftBase = left.baseAddress, let rightBase = right.baseAddress else { return true }
        return memcmp(leftBase, rightBase, left.count) == 0
    }

    /// The 64-bit hash of `bytes`.
    @inline(__always)
    static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        var index = 0
        while index + 8 <= bytes.count {
            hash = (hash ^ bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* 0x0000_0100_0000_01B3
            index += 8
        }
        while index < bytes.count {
            hash = (hash ^ UInt64(bytes[index])) &* 0x0000_0100_0000_01B3
            index += 1
        }
        return hash
    }

    /// A slot in a table of 2^n slots (`mask` = 2^n − 1) for a hash, its high bits folded in.
    @inline(__always)
    static func slot(of hash: UInt64, mask: Int) -> Int {
        Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
    }
}
