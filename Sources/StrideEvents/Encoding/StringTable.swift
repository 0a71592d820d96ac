import Glibc

/// Remembers recently decoded strings so that decoding the same bytes again returns the
/// same string without allocating: a ledger repeats a few source names, units and versions
/// millions of times.
///
/// A fixed number of slots, each holding the last string whose bytes hashed to it; a miss
/// just replaces the slot. Not thread-safe: one table per scan.
public final class StringTable {
    /// The slots, which readers use without touching the table's reference count.
    let slots: StringSlots

    /// Creates a table with 2^`bits` slots.
    public init(bits: Int = 10) {
        slots = StringSlots(count: 1 << bits)
    }

    deinit { slots.deallocate() }

    /// The string for UTF-8 `bytes`, from the table when it holds them.
    public func string(_ bytes: UnsafeRawBufferPointer) -> String {
        slots.string(bytes)
    }

    /// The string that `make` makes of `bytes`, with a mark it sets, from the table when it
    /// holds them: for text whose making costs more than a lookup (decoding references).
    public func string(
        forKey key: UnsafeRawBufferPointer, making make: (UnsafeRawBufferPointer) -> (String, Bool)
    )
        -> (string: String, mark: Bool)
    {
        slots.string(forKey: key, making: make)
    }
}

/// A string table's slots: plain memory, no reference counting, so that a lookup (once per
/// string of every decoded event) costs no atomic operations. Valid while its table lives.
struct StringSlots {
    private struct Slot {
        var hash: UInt64 = 0
        /// The key's bytes, allocated for the slot (nil while empty).
        var key: UnsafeMutableRawBufferPointer?
        var string = ""
        var mark = false
    }

    private let base: UnsafeMutablePointer<Slot>
    private let mask: Int

    fileprivate init(count: Int) {
        base = UnsafeMutablePointer<Slot>.allocate(capacity: count)
        base.initialize(repeating: Slot(), count: count)
        mask = count - 1
    }

    fileprivate func deallocate() {
        for index in 0...mask { base[index].key?.deallocate() }
        base.deinitialize(count: mask + 1)
        base.deallocate()
    }

    /// The string for UTF-8 `bytes`, from the table when it holds them.
    @inline(__always)
    func string(_ bytes: UnsafeRawBufferPointer) -> String {
        // Up to 15 bytes, Swift stores a string inline: nothing to save.
        guard bytes.count > 15 else { return Self.decode(bytes) }
        return string(forKey: bytes) { (Self.decode($0), false) }.string
    }

    /// The string `make` makes of `key`, and its mark, from the table when it holds them.
    @inline(__always)
    func string(
        forKey key: UnsafeRawBufferPointer, making make: (UnsafeRawBufferPointer) -> (String, Bool)
    )
        -> (string: String, mark: Bool)
    {
        let hash = WordHash.of(key)
        let slot = base + WordHash.slot(of: hash, mask: mask)
        if slot.pointee.hash == hash, let stored = slot.pointee.key, WordHash.sameBytes(UnsafeRawBufferPointer(stored), key) {
            return (slot.pointee.string, slot.pointee.mark)
        }
        let (string, mark) = make(key)
        slot.pointee.key?.deallocate()
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: key.count, alignment: 8)
        copy.copyMemory(from: key)
        slot.pointee = Slot(hash: hash, key: copy, string: string, mark: mark)
        return (string, mark)
    }

    private static func decode(_ bytes: UnsafeRawBufferPointer) -> String {
        bytes.withMemoryRebound(to: UInt8.self) { String(decoding: $0, as: UTF8.self) }
    }
}
