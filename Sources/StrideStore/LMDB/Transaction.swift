import CLMDB

/// An open LMDB transaction. It exists only inside the closure given to
/// ``Environment/read(_:)`` or ``Environment/write(_:)``, which commits or aborts it; being
/// non-copyable, it (and the pointer inside it) cannot escape that closure.
///
/// Buffers handed to closures point into the memory map and are valid only inside them.
struct Transaction: ~Copyable {
    let handle: OpaquePointer
    /// Whether writes are refused.
    let isReadOnly: Bool

    /// Calls `body` with the value stored under `key`; nil when there is none.
    func value<R>(
        in database: Database, forKey key: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> R
    )
        throws -> R?
    {
        var keyValue = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var data = MDB_val()
        let result = mdb_get(handle, database.handle, &keyValue, &data)
        if result == MDB_NOTFOUND { return nil }
        try LMDBError.check(result, "mdb_get")
        return try body(UnsafeRawBufferPointer(start: data.mv_data, count: data.mv_size))
    }

    /// Stores `value` under `key`. Returns false when ``PutFlags/noOverwrite`` or
    /// ``PutFlags/noDuplicateData`` found the entry already there.
    /// - Throws: ``LMDBError``; ``LMDBError/Code/mapFull`` is handled by ``Environment/write(_:)``.
    @discardableResult
    func put(
        _ value: UnsafeRawBufferPointer, forKey key: UnsafeRawBufferPointer, in database: Database, flags: PutFlags = []
    ) throws -> Bool {
        var keyValue = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var data = MDB_val(mv_size: value.count, mv_data: UnsafeMutableRawPointer(mutating: value.baseAddress))
        let result = mdb_put(handle, database.handle, &keyValue, &data, flags.rawValue)
        if result == MDB_KEYEXIST { return false }
        try LMDBError.check(result, "mdb_put")
        return true
    }

    /// Deletes `key` (and all its values); returns false when it was not there.
    @discardableResult
    func delete(key: UnsafeRawBufferPointer, in database: Database) throws -> Bool {
        var keyValue = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        let result = mdb_del(handle, database.handle, &keyValue, nil)
        if result == MDB_NOTFOUND { return false }
        try LMDBError.check(result, "mdb_del")
        return true
    }

    /// Removes every entry of a database, keeping the database.
    func empty(_ database: Database) throws {
        try LMDBError.check(mdb_drop(handle, database.handle, 0), "mdb_drop")
    }

    /// The number of entries (counting duplicates) in a database.
    func entryCount(of database: Database) throws -> Int {
        try statistics(of: database).entries
    }

    /// Runs `body` with a cursor over a database, closed afterwards.
    func withCursor<R>(_ database: Database, _ body: (inout Cursor) throws -> R) throws -> R {
        var pointer: OpaquePointer?
        try LMDBError.check(mdb_cursor_open(handle, database.handle, &pointer), "mdb_cursor_open")
        guard let pointer else { throw LMDBError(.invalid, operation: "mdb_cursor_open") }
        var cursor = Cursor(handle: pointer)
        defer { mdb_cursor_close(pointer) }
        return try body(&cursor)
    }
}

extension Transaction {
    /// Calls `body` with the value stored under an integer key.
    func value<R>(in database: Database, forKey key: UInt64, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R? {
        try withUnsafeBytes(of: key) { try value(in: database, forKey: $0, body) }
    }

    /// The value stored under a byte-string key, copied out.
    func bytes(in database: Database, forKey key: [UInt8]) throws -> [UInt8]? {
        try key.withUnsafeBytes { try value(in: database, forKey: $0) { Array($0) } }
    }

    /// Stores bytes under a byte-string key.
    func put(_ value: [UInt8], forKey key: [UInt8], in database: Database) throws {
        try value.withUnsafeBytes { value in
            try key.withUnsafeBytes { key in _ = try put(value, forKey: key, in: database) }
        }
    }
}

extension Transaction {
    /// A copyable view of this transaction for reading, for a closure the compiler cannot
    /// prove stays inside the transaction (a projection run's row loader). Internal to the
    /// store, and never used after the transaction ends.
    var reader: TransactionReader { TransactionReader(handle: handle) }
}

/// See ``Transaction/reader``.
struct TransactionReader {
    let handle: OpaquePointer

    /// The value stored under a byte-string key, copied out.
    func bytes(in database: Database, forKey key: [UInt8]) throws -> [UInt8]? {
        try key.withUnsafeBytes { key in
            var keyValue = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
            var data = MDB_val()
            let result = mdb_get(handle, database.handle, &keyValue, &data)
            if result == MDB_NOTFOUND { return nil }
            try LMDBError.check(result, "mdb_get")
            return Array(UnsafeRawBufferPointer(start: data.mv_data, count: data.mv_size))
        }
    }

    /// The entries with keys from `lower` (included) up to `upper` (excluded), copied out.
    func rows(in database: Database, from lower: [UInt8], before upper: [UInt8]) throws -> [(key: [UInt8], row: [UInt8])] {
        try withCursor(database) { cursor in
            var rows: [(key: [UInt8], row: [UInt8])] = []
            var entry = try lower.withUnsafeBytes { try cursor.seek(atOrAfter: $0) }
            while let current = entry {
                let key = Array(current.key)
                guard key.sortsBefore(upper) else { break }
                rows.append((key, Array(current.value)))
                entry = try cursor.next()
            }
            return rows
        }
    }

    /// Runs `body` with a cursor over a database, closed afterwards.
    func withCursor<R>(_ database: Database, _ body: (inout Cursor) throws -> R) throws -> R {
        var pointer: OpaquePointer?
        try LMDBError.check(mdb_cursor_open(handle, database.handle, &pointer), "mdb_cursor_open")
        guard let pointer else { throw LMDBError(.invalid, operation: "mdb_cursor_open") }
        var cursor = Cursor(handle: pointer)
        defer { mdb_cursor_close(pointer) }
        return try body(&cursor)
    }
}

extension Transaction {
    /// The pages a database takes (branch, leaf and overflow), the page size and its entries.
    func statistics(of database: Database) throws -> (pages: Int, pageSize: Int, entries: Int) {
        var stat = MDB_stat()
        try LMDBError.check(mdb_stat(handle, database.handle, &stat), "mdb_stat")
        return (stat.ms_branch_pages + stat.ms_leaf_pages + stat.ms_overflow_pages, Int(stat.ms_psize), stat.ms_entries)
    }
}

extension TransactionReader {
    /// Every entry of a database, copied out, in key order.
    func allRows(in database: Database) throws -> [(key: [UInt8], row: [UInt8])] {
        try withCursor(database) { cursor in
            var rows: [(key: [UInt8], row: [UInt8])] = []
            var entry = try cursor.first()
            while let current = entry {
                rows.append((Array(current.key), Array(current.value)))
                entry = try cursor.next()
            }
            return rows
        }
    }
}
