import Glibc

/// Remembers recently decoded strings so that decoding the same bytes again returns the
/// same string without allocating: a ledger repeats a few source names, units and versions
/// millions of times.
///
/// A fixed number of slots, each holding the last string whose bytes hashed to it; a miss
/// just replaces the slot. Not thread-safe: one table per scan.
public final class StringTable {
    private struct Slot {
        var hash: UInt64 = 0
        var string = ""
    }

    private var slots: [Slot]
    private let mask: Int

    /// Creates a table with 2^`bits` slots.
    public init(bits: Int = 10) {
        slots = Array(repeating: Slot(), count: 1 << bits)
        mask = (1 << bits) - 1
    }

    /// The string for UTF-8 `bytes`, from the table when it holds them.
    public func string(_ bytes: UnsafeRawBufferPointer) -> String {
        // Up to 15 bytes, Swift stores a string inline: nothing to save.
        guard bytes.count > 15 else { return Self.decode(bytes) }
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
        let slot = Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
        return slots.withUnsafeMutableBufferPointer { slots in
            if slots[slot].hash == hash, Self.equal(&slots[slot].string, bytes) { return slots[slot].string }
            let string = Self.decode(bytes)
            slots[slot] = Slot(hash: hash, string: string)
            return string
        }
    }

    private static func decode(_ bytes: UnsafeRawBufferPointer) -> String {
        bytes.withMemoryRebound(to: UInt8.self) { String(decoding: $0, as: UTF8.self) }
    }

    private static func equal(_ string: inout String, _ bytes: UnsafeRawBufferPointer) -> Bool {
        string.withUTF8 { utf8 in
            guard utf8.count == bytes.count else { return false }
            guard let left = utf8.baseAddress, let right = bytes.baseAddress else { return utf8.isEmpty }
            return memcmp(left, right, utf8.count) == 0
        }
    }
}
