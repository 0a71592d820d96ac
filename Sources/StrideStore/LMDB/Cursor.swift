import CLMDB

/// A position in a database, valid inside ``Transaction/withCursor(_:_:)`` only.
struct Cursor: ~Copyable {
    let handle: OpaquePointer

    /// An entry the cursor is on; its buffers point into the map and die with the transaction.
    struct Entry {
        let key: UnsafeRawBufferPointer
        let value: UnsafeRawBufferPointer

        /// The key read as a native-endian integer (for integer-keyed databases).
        var integerKey: UInt64 { key.count == 8 ? key.loadUnaligned(as: UInt64.self) : 0 }
        /// The value read as a native-endian integer (for integer duplicates).
        var integerValue: UInt64 { value.count == 8 ? value.loadUnaligned(as: UInt64.self) : 0 }
    }

    private mutating func get(
        _ operation: MDB_cursor_op, key: UnsafeRawBufferPointer? = nil, value: UnsafeRawBufferPointer? = nil
    )
        throws -> Entry?
    {
        var keyValue = MDB_val(mv_size: key?.count ?? 0, mv_data: UnsafeMutableRawPointer(mutating: key?.baseAddress))
        var data = MDB_val(mv_size: value?.count ?? 0, mv_data: UnsafeMutableRawPointer(mutating: value?.baseAddress))
        let result = mdb_cursor_get(handle, &keyValue, &data, operation)
        if result == MDB_NOTFOUND { return nil }
        try LMDBError.check(result, "mdb_cursor_get")
        return Entry(
            key: UnsafeRawBufferPointer(start: keyValue.mv_data, count: keyValue.mv_size),
            value: UnsafeRawBufferPointer(start: data.mv_data, count: data.mv_size))
    }

    /// Moves to the first entry.
    mutating func first() throws -> Entry? { try get(MDB_FIRST) }
    /// Moves to the last entry.
    mutating func last() throws -> Entry? { try get(MDB_LAST) }
    /// Moves to the previous entry.
    mutating func previous() throws -> Entry? { try get(MDB_PREV) }
    /// Moves to the next entry (the next duplicate, then the next key).
    mutating func next() throws -> Entry? { try get(MDB_NEXT) }
    /// Moves to the first entry of the next key (past the current key's duplicates).
    mutating func nextKey() throws -> Entry? { try get(MDB_NEXT_NODUP) }
    /// Moves to the next duplicate of the current key only.
    mutating func nextDuplicate() throws -> Entry? { try get(MDB_NEXT_DUP) }
    /// Moves to the first key at or after `key`.
    mutating func seek(atOrAfter key: UnsafeRawBufferPointer) throws -> Entry? { try get(MDB_SET_RANGE, key: key) }
    /// Moves to exactly `key` (its first duplicate).
    mutating func seek(exactly key: UnsafeRawBufferPointer) throws -> Entry? { try get(MDB_SET_KEY, key: key) }
    /// Moves to `key` and its first duplicate at or after `value`.
    mutating func seek(key: UnsafeRawBufferPointer, valueAtOrAfter value: UnsafeRawBufferPointer) throws -> Entry? {
        try get(MDB_GET_BOTH_RANGE, key: key, value: value)
    }

    /// The number of duplicates of the current key.
    func duplicateCount() throws -> Int {
        var count = 0
        try LMDBError.check(mdb_cursor_count(handle, &count), "mdb_cursor_count")
        return count
    }

    /// Stores `value` under `key` through this cursor, which stays where it wrote: a run of
    /// puts into one database skips the set-up `mdb_put` repeats for each (about 50 ns a put).
    /// Returns false when `flags` forbid overwriting and the key is there (with `.append`:
    /// or does not sort after the last key).
    mutating func put(_ value: UnsafeRawBufferPointer, forKey key: UnsafeRawBufferPointer, flags: PutFlags) throws -> Bool {
        var keyValue = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var data = MDB_val(mv_size: value.count, mv_data: UnsafeMutableRawPointer(mutating: value.baseAddress))
        let result = mdb_cursor_put(handle, &keyValue, &data, flags.rawValue)
        if result == MDB_KEYEXIST { return false }
        try LMDBError.check(result, "mdb_cursor_put")
        return true
    }

    /// Stores `value` under `key` unless the key is there: nil when stored, else the value
    /// already under the key (its buffer dies with the transaction).
    mutating func putIfAbsent(_ value: UnsafeRawBufferPointer, forKey key: UnsafeRawBufferPointer) throws -> UnsafeRawBufferPointer? {
        var keyValue = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var data = MDB_val(mv_size: value.count, mv_data: UnsafeMutableRawPointer(mutating: value.baseAddress))
        let result = mdb_cursor_put(handle, &keyValue, &data, PutFlags.noOverwrite.rawValue)
        // LMDB points `data` at the value already stored when it refuses.
        if result == MDB_KEYEXIST { return UnsafeRawBufferPointer(start: data.mv_data, count: data.mv_size) }
        try LMDBError.check(result, "mdb_cursor_put")
        return nil
    }

}

extension Cursor {
    /// Moves to the first integer key at or after `key`.
    mutating func seek(atOrAfter key: UInt64) throws -> Entry? {
        try withUnsafeBytes(of: key) { try seek(atOrAfter: $0) }
    }
}
