/// Appends values to a byte buffer in Stride's compact payload encoding.
///
/// Integers are little-endian (fixed width) or LEB128 varints; strings are a varint length
/// followed by UTF-8; doubles are their IEEE 754 bit pattern. The encoding carries no field
/// names: a payload's schema version says how to read it back (see ``BinaryReader``).
public struct BinaryWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8]

    /// Creates an empty writer with room for `capacity` bytes.
    public init(capacity: Int = 128) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// The number of bytes written so far.
    public var count: Int { bytes.count }

    /// Forgets what was written, keeping the allocated capacity.
    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// Writes one byte.
    public mutating func write(_ value: UInt8) {
        bytes.append(value)
    }

    /// Writes a fixed-width integer, little-endian.
    public mutating func write<T: FixedWidthInteger>(fixed value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Writes an unsigned integer as a LEB128 varint (1 byte below 128).
    public mutating func write(varint value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// Writes a signed integer as a zig-zag varint, so small negative numbers stay short.
    public mutating func write(signedVarint value: Int64) {
        write(varint: UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    /// Writes a Boolean as one byte.
    public mutating func write(_ value: Bool) {
        bytes.append(value ? 1 : 0)
    }

    /// Writes a double as its 8-byte bit pattern.
    public mutating func write(_ value: Double) {
        write(fixed: value.bitPattern)
    }

    /// Writes an instant as a zig-zag varint of milliseconds.
    public mutating func write(_ value: Timestamp) {
        write(signedVarint: value.millisecondsSince1970)
    }

    /// Writes a string as a varint byte count followed by its UTF-8.
    public mutating func write(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            write(varint: UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    /// Writes an optional: a presence byte, then the value when present.
    public mutating func write<T>(optional value: T?, _ writeValue: (inout BinaryWriter, T) -> Void) {
        if let value {
            bytes.append(1)
            writeValue(&self, value)
        } else {
            bytes.append(0)
        }
    }

    /// Writes raw bytes with no length prefix.
    public mutating func write(raw: some Sequence<UInt8>) {
        bytes.append(contentsOf: raw)
    }

    /// Writes raw bytes with no length prefix.
    public mutating func write(raw: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: raw)
    }

    /// Overwrites a fixed-width integer written earlier at `offset`.
    public mutating func overwrite<T: FixedWidthInteger>(fixed value: T, at offset: Int) {
        Swift.withUnsafeBytes(of: value.littleEndian) { source in
            for index in 0..<source.count { bytes[offset + index] = source[index] }
        }
    }

    /// Calls `body` with the bytes written so far.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes(body)
    }
}
