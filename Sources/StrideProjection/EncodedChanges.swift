import StrideEvents

/// A run's rows in stored form, keys and rows in one buffer, in key-byte order: what a fold
/// writes back. One buffer rather than an array per key and row, because a rebuild writes
/// hundreds of thousands of rows, and allocating, sorting and freeing two arrays for each
/// was among the largest costs of its folding thread.
public struct EncodedChanges: ~Copyable {
    /// Where one row's key and bytes lie in the buffer; no row bytes for a deleted row.
    @usableFromInline
    struct Entry {
        /// The key's first sixteen bytes as a big-endian number (zeros past its end): most
        /// keys are told apart by comparing it alone, without a call to `memcmp`.
        @usableFromInline var prefix: UInt128
        @usableFromInline var key: Range<Int>
        @usableFromInline var row: Range<Int>?

        @inlinable init(prefix: UInt128, key: Range<Int>, row: Range<Int>?) {
            self.prefix = prefix
            self.key = key
            self.row = row
        }
    }

    @usableFromInline var buffer: BinaryWriter
    @usableFromInline var entries: [Entry]

    /// Starts an empty set.
    @inlinable
    init() {
        buffer = BinaryWriter(capacity: 4096)
        entries = []
    }

    /// Adds a row: `writeKey` writes its key, `writeRow` its bytes (nil for a deleted row).
    @inlinable
    mutating func add(key writeKey: (inout BinaryWriter) -> Void, row writeRow: ((inout BinaryWriter) -> Void)?) {
        let keyStart = buffer.count
        writeKey(&buffer)
        let rowStart = buffer.count
        var row: Range<Int>?
        if let writeRow {
            writeRow(&buffer)
            row = rowStart..<buffer.count
        }
        let prefix = buffer.withUnsafeBytes { bytes in
            Self.prefix(of: UnsafeRawBufferPointer(rebasing: bytes[keyStart..<rowStart]))
        }
        entries.append(Entry(prefix: prefix, key: keyStart..<rowStart, row: row))
    }

    /// The first sixteen bytes of `key` as a big-endian number, zeros past its end: numbers
    /// in the order of the keys' bytes (equal numbers leave it to the bytes).
    @inlinable
    static func prefix(of key: UnsafeRawBufferPointer) -> UInt128 {
        var prefix: UInt128 = 0
        for index in 0..<16 {
            prefix = prefix << 8 | UInt128(index < key.count ? key[index] : 0)
        }
        return prefix
    }

    /// Puts the rows in key-byte order (LMDB's order).
    @inlinable
    mutating func sortByKey() {
        buffer.withUnsafeBytes { bytes in
            entries.sort { left, right in
                guard left.prefix == right.prefix else { return left.prefix < right.prefix }
                return UnsafeRawBufferPointer(rebasing: bytes[left.key]).sortsBefore(UnsafeRawBufferPointer(rebasing: bytes[right.key]))
            }
        }
    }

    /// How many rows changed (written or removed).
    public var count: Int { entries.count }

    /// Calls `body` with each row's key and bytes (nil for a deleted row), in key-byte order.
    public func forEach(_ body: (_ key: UnsafeRawBufferPointer, _ row: UnsafeRawBufferPointer?) throws -> Void) rethrows {
        try buffer.withUnsafeBytes { bytes in
            for entry in entries {
                try body(
                    UnsafeRawBufferPointer(rebasing: bytes[entry.key]), entry.row.map { UnsafeRawBufferPointer(rebasing: bytes[$0]) })
            }
        }
    }

    /// The rows present, as arrays (for digests and reading replayed state).
    public var presentRows: EncodedRows {
        var rows: EncodedRows = []
        rows.reserveCapacity(entries.count)
        forEach { key, row in
            if let row { rows.append((Array(key), Array(row))) }
        }
        return rows
    }
}
