/// Remembers recently decoded strings so that decoding the same bytes again returns the
/// same string without allocating: a ledger repeats a few source names, units and versions
/// millions of times.
///
/// A fixed number of slots, each holding the last string whose bytes hashed to it; a miss
/// just replaces the slot. Not thread-safe: one table per scan.
public final class StringTable {
    private struct Slot {
        var hash: UInt64 = 0
        var key: [UInt8] = []
        var string = ""
        var mark = false
    }

    // Slots in memory of their own: an array property of a class would be checked for
    // exclusive access on every lookup, and lookups run once per string of every event.
    private let slots: UnsafeMutablePointer<Slot>
    private let mask: Int

    /// Creates a table with 2^`bits` slots.
    public init(bits: Int = 10) {
        slots = UnsafeMutablePointer<Slot>.allocate(capacity: 1 << bits)
        slots.initialize(repeating: Slot(), count: 1 << bits)
        mask = (1 << bits) - 1
    }

    deinit {
        slots.deinitialize(count: mask + 1)
        slots.deallocate()
    }

    /// The string for UTF-8 `bytes`, from the table when it holds them.
    public func string(_ bytes: UnsafeRawBufferPointer) -> String {
        // Up to 15 bytes, Swift stores a string inline: nothing to save.
        guard bytes.count > 15 else { return Self.decode(bytes) }
        return string(forKey: bytes) { (Self.decode($0), false) }.string
    }

    /// The string that `make` makes of `bytes`, with a mark it sets, from the table when it
    /// holds them: for text whose making costs more than a lookup (decoding references).
    public func string(forKey key: UnsafeRawBufferPointer, making make: (UnsafeRawBufferPointer) -> (String, Bool))
        -> (string: String, mark: Bool)
    {
        let hash = WordHash.of(key)
        let slot = WordHash.slot(of: hash, mask: mask)
        if slots[slot].hash == hash, slots[slot].key.withUnsafeBytes({ WordHash.sameBytes($0, key) }) {
            return (slots[slot].string, slots[slot].mark)
        }
        let (string, mark) = make(key)
        slots[slot] = Slot(hash: hash, key: Array(key), string: string, mark: mark)
        return (string, mark)
    }

    private static func decode(_ bytes: UnsafeRawBufferPointer) -> String {
        bytes.withMemoryRebound(to: UInt8.self) { String(decoding: $0, as: UTF8.self) }
    }
}
