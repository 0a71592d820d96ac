/// Appends values to a byte buffer in Stride's compact payload encoding.
///
/// Integers are little-endian (fixed width) or LEB128 varints; strings are a varint length
/// followed by UTF-8; doubles are their IEEE 754 bit pattern. The encoding carries no field
/// names: a payload's schema version says how to read it back (see ``BinaryReader``).
///
/// Every append of the log and every projection row goes through here, millions of times
/// per ingest or rebuild, so the writer owns a plain buffer and writes into it directly (an
/// array's append checks uniqueness and capacity per byte). It cannot be copied, so no write
/// ever has to ask whether the buffer is shared; take the bytes out with ``bytes``.
public struct BinaryWriter: ~Copyable, @unchecked Sendable {
    // Sendable: the buffer is owned by this writer alone; it cannot be copied.
    @usableFromInline var base: UnsafeMutableRawPointer
    @usableFromInline var capacity: Int
    @usableFromInline var written: Int

    /// The number of bytes written so far.
    public var count: Int { written }

    /// Creates an empty writer with room for `capacity` bytes.
    public init(capacity: Int = 128) {
        self.capacity = max(capacity, 16)
        base = UnsafeMutableRawPointer.allocate(byteCount: self.capacity, alignment: 16)
        written = 0
    }

    deinit {
        base.deallocate()
    }

    /// The bytes written so far, copied out.
    public var bytes: [UInt8] {
        withUnsafeBytes { Array($0) }
    }

    /// Forgets what was written, keeping the allocated capacity.
    public mutating func removeAll() {
        written = 0
    }

    /// Makes room for `extra` more bytes; returns where the next byte goes.
    @inlinable @inline(__always)
    mutating func reserve(_ extra: Int) -> UnsafeMutableRawPointer {
        if _slowPath(written + extra > capacity) { grow(toHold: written + extra) }
        return base + written
    }

    @usableFromInline
    mutating func grow(toHold needed: Int) {
        let larger = Swift.max(capacity * 2, needed)
        let moved = UnsafeMutableRawPointer.allocate(byteCount: larger, alignment: 16)
        moved.copyMemory(from: base, byteCount: written)
        base.deallocate()
        base = moved
        capacity = larger
    }

    /// Writes one byte.
    @inlinable @inline(__always)
    public mutating func write(_ value: UInt8) {
        reserve(1).storeBytes(of: value, as: UInt8.self)
        written += 1
    }

    /// Writes a fixed-width integer, little-endian.
    @inlinable @inline(__always)
    public mutating func write<T: FixedWidthInteger>(fixed value: T) {
        let size = MemoryLayout<T>.size
        reserve(size).storeBytes(of: value.littleEndian, as: T.self)
        written += size
    }

    /// Writes an unsigned integer as a LEB128 varint (1 byte below 128).
    @inlinable @inline(__always)
    public mutating func write(varint value: UInt64) {
        let target = reserve(10)
        var rest = value
        var length = 0
        while rest >= 0x80 {
            target.storeBytes(of: UInt8(truncatingIfNeeded: rest) | 0x80, toByteOffset: length, as: UInt8.self)
            rest >>= 7
            length += 1
        }
        target.storeBytes(of: UInt8(truncatingIfNeeded: rest), toByteOffset: length, as: UInt8.self)
        written += length + 1
    }

    /// Writes a signed integer as a zig-zag varint, so small negative numbers stay short.
    @inlinable @inline(__always)
    public mutating func write(signedVarint value: Int64) {
        write(varint: UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    /// Writes a Boolean as one byte.
    @inlinable @inline(__always)
    public mutating func write(_ value: Bool) {
        write(value ? UInt8(1) : 0)
    }

    /// Writes a double as its 8-byte bit pattern.
    @inlinable @inline(__always)
    public mutating func write(_ value: Double) {
        write(fixed: value.bitPattern)
    }

    /// Writes an instant as a zig-zag varint of milliseconds.
    @inlinable @inline(__always)
    public mutating func write(_ value: Timestamp) {
        write(signedVarint: value.millisecondsSince1970)
    }

    /// Writes a string as a varint byte count followed by its UTF-8.
    @inlinable
    public mutating func write(_ value: String) {
        // Native strings (all Stride makes) lend their UTF-8 without a copy or a check.
        let lent: Void? = value.utf8.withContiguousStorageIfAvailable { utf8 in
            write(varint: UInt64(utf8.count))
            write(raw: UnsafeRawBufferPointer(utf8))
        }
        if lent == nil {
            var value = value
            value.withUTF8 { utf8 in
                write(varint: UInt64(utf8.count))
                write(raw: UnsafeRawBufferPointer(utf8))
            }
        }
    }

    /// Writes an optional: a presence byte, then the value when present.
    @inlinable @inline(__always)
    public mutating func write<T>(optional value: T?, _ writeValue: (inout BinaryWriter, T) -> Void) {
        if let value {
            write(UInt8(1))
            writeValue(&self, value)
        } else {
            write(UInt8(0))
        }
    }

    /// Writes raw bytes with no length prefix.
    public mutating func write(raw: some Sequence<UInt8>) {
        for byte in raw { write(byte) }
    }

    /// Writes raw bytes with no length prefix.
    @inlinable
    public mutating func write(raw: [UInt8]) {
        raw.withUnsafeBytes { write(raw: $0) }
    }

    /// Writes raw bytes with no length prefix.
    @inlinable
    public mutating func write(raw: UnsafeRawBufferPointer) {
        guard let source = raw.baseAddress, !raw.isEmpty else { return }
        reserve(raw.count).copyMemory(from: source, byteCount: raw.count)
        written += raw.count
    }

    /// Overwrites a fixed-width integer written earlier at `offset`.
    @inlinable
    public mutating func overwrite<T: FixedWidthInteger>(fixed value: T, at offset: Int) {
        precondition(offset >= 0 && offset + MemoryLayout<T>.size <= count, "overwrite past the bytes written")
        base.storeBytes(of: value.littleEndian, toByteOffset: offset, as: T.self)
    }

    /// Calls `body` with the bytes written so far.
    @inlinable
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: base, count: written))
    }
}
