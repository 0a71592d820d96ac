/// Why a byte buffer could not be read as what it should hold.
public struct DecodingFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was being read and what was wrong.
    public var reason: String

    /// Creates a failure with a reason.
    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
}

/// Reads values written by ``BinaryWriter`` from a borrowed byte buffer.
///
/// The buffer is borrowed, not copied: a reader is valid only inside the closure that handed
/// out the buffer, and must not be stored. Every read checks bounds and throws
/// ``DecodingFailure`` rather than trapping, because stored bytes may be damaged.
public struct BinaryReader {
    private let buffer: UnsafeRawBufferPointer
    /// The position of the next byte to read.
    public private(set) var offset: Int
    /// Strings decoded before, shared across the readers of one scan: the table is held so
    /// that it lives as long as the reader, and its slots are used without reference counting.
    private let strings: StringTable?
    private let slots: StringSlots?

    /// Creates a reader over a buffer, starting at its first byte.
    /// - Parameter strings: a table of recently decoded strings, to decode repeats without
    ///   allocating.
    public init(_ buffer: UnsafeRawBufferPointer, strings: StringTable? = nil) {
        self.buffer = buffer
        self.offset = 0
        self.strings = strings
        self.slots = strings?.slots
    }

    /// Creates a reader that uses a table's slots without holding the table: for decoders
    /// whose caller holds the table for the whole decode, so that no event pays for retaining
    /// and releasing it.
    init(_ buffer: UnsafeRawBufferPointer, borrowing strings: StringTable?) {
        self.buffer = buffer
        self.offset = 0
        self.strings = nil
        self.slots = strings?.slots
    }

    /// Whether every byte has been read.
    public var isAtEnd: Bool { offset == buffer.count }

    /// The number of bytes not read yet.
    public var remaining: Int { buffer.count - offset }

    /// Reads one byte.
    @inline(__always)
    public mutating func readByte() throws -> UInt8 {
        guard offset < buffer.count else { throw DecodingFailure("unexpected end of data") }
        defer { offset += 1 }
        return buffer[offset]
    }

    /// Reads a fixed-width little-endian integer.
    @inline(__always)
    public mutating func read<T: FixedWidthInteger>(fixed type: T.Type) throws -> T {
        let size = MemoryLayout<T>.size
        guard remaining >= size else { throw DecodingFailure("unexpected end of data") }
        defer { offset += size }
        return T(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: T.self))
    }

    /// Reads a LEB128 varint.
    @inline(__always)
    public mutating func readVarint() throws -> UInt64 {
        // One byte is the common case: small counts, codes and flags.
        if offset < buffer.count, buffer[offset] < 0x80 {
            defer { offset += 1 }
            return UInt64(buffer[offset])
        }
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try readByte()
            guard shift < 64 else { throw DecodingFailure("varint longer than 64 bits") }
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    /// Reads a varint that must fit an `Int` count.
    @inline(__always)
    public mutating func readCount() throws -> Int {
        let value = try readVarint()
        guard value <= UInt64(remaining) else {
            throw DecodingFailure("length \(value) exceeds the \(remaining) bytes left")
        }
        return Int(value)
    }

    /// Reads a zig-zag varint.
    @inline(__always)
    public mutating func readSignedVarint() throws -> Int64 {
        let raw = try readVarint()
        return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }

    /// Reads a Boolean byte; any byte other than 0 or 1 is an error.
    @inline(__always)
    public mutating func readBool() throws -> Bool {
        switch try readByte() {
        case 0: return false
        case 1: return true
        case let other: throw DecodingFailure("byte \(other) is not a Boolean")
        }
    }

    /// Reads an 8-byte double.
    @inline(__always)
    public mutating func readDouble() throws -> Double {
        Double(bitPattern: try read(fixed: UInt64.self))
    }

    /// Reads an instant written as zig-zag milliseconds.
    @inline(__always)
    public mutating func readTimestamp() throws -> Timestamp {
        Timestamp(millisecondsSince1970: try readSignedVarint())
    }

    /// Reads a length-prefixed UTF-8 string.
    ///
    /// Stride only ever writes valid UTF-8 and checksums every event, so the bytes are
    /// decoded on the fast path; a damaged byte would show as U+FFFD, never as invalid text.
    @inline(__always)
    public mutating func readString() throws -> String {
        let bytes = try readBytes(count: try readCount())
        if let slots { return slots.string(bytes) }
        return bytes.withMemoryRebound(to: UInt8.self) { String(decoding: $0, as: UTF8.self) }
    }

    /// Reads an optional written with ``BinaryWriter/write(optional:_:)``.
    @inline(__always)
    public mutating func readOptional<T>(_ readValue: (inout BinaryReader) throws -> T) throws -> T? {
        try readBool() ? try readValue(&self) : nil
    }

    /// Borrows the next `count` bytes; valid only as long as the reader's buffer.
    @inline(__always)
    public mutating func readBytes(count: Int) throws -> UnsafeRawBufferPointer {
        guard count >= 0, remaining >= count else { throw DecodingFailure("unexpected end of data") }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + count])
    }

    /// Throws unless every byte has been read: trailing bytes mean a misread schema.
    public func expectEnd(_ what: @autoclosure () -> String) throws {
        guard isAtEnd else { throw DecodingFailure("\(remaining) unread bytes after \(what())") }
    }
}
