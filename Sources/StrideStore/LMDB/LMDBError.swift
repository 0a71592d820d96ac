import CLMDB

/// An error from LMDB, carrying its result code so callers can catch a specific one.
public struct LMDBError: Error, Hashable, Sendable, CustomStringConvertible {
    /// An LMDB (or `errno`) result code.
    public struct Code: RawRepresentable, Hashable, Sendable {
        public var rawValue: Int32

        public init(rawValue: Int32) { self.rawValue = rawValue }

        /// The key/data pair already exists.
        public static let keyExists = Code(rawValue: MDB_KEYEXIST)
        /// No matching key/data pair.
        public static let notFound = Code(rawValue: MDB_NOTFOUND)
        /// The file is not an LMDB file, or is damaged.
        public static let corrupted = Code(rawValue: MDB_CORRUPTED)
        /// A page the tree names is not in the file: the file is damaged.
        public static let pageNotFound = Code(rawValue: MDB_PAGE_NOTFOUND)
        /// An unrecoverable error.
        public static let panic = Code(rawValue: MDB_PANIC)
        /// The file is not a valid LMDB file.
        public static let invalid = Code(rawValue: MDB_INVALID)
        /// The environment's map size is reached; Stride grows the map and retries.
        public static let mapFull = Code(rawValue: MDB_MAP_FULL)
        /// Another process grew the map; Stride adopts the new size and retries.
        public static let mapResized = Code(rawValue: MDB_MAP_RESIZED)
        /// Too many named databases.
        public static let databasesFull = Code(rawValue: MDB_DBS_FULL)
        /// Too many readers.
        public static let readersFull = Code(rawValue: MDB_READERS_FULL)
        /// Too many dirty pages in one transaction.
        public static let transactionFull = Code(rawValue: MDB_TXN_FULL)
        /// The environment's version does not match the library's.
        public static let versionMismatch = Code(rawValue: MDB_VERSION_MISMATCH)
        /// Permission denied (`EACCES`).
        public static let accessDenied = Code(rawValue: 13)
        /// No such file or directory (`ENOENT`).
        public static let noSuchFile = Code(rawValue: 2)
    }

    /// The result code.
    public var code: Code
    /// The LMDB call that returned it.
    public var operation: String

    /// Creates an error.
    public init(_ code: Code, operation: String) {
        self.code = code
        self.operation = operation
    }

    /// LMDB's own text for the code.
    public var message: String { String(cString: mdb_strerror(code.rawValue)) }

    public var description: String { "\(operation) failed: \(message) (code \(code.rawValue))" }

    /// Throws an ``LMDBError`` unless `result` is 0.
    static func check(_ result: Int32, _ operation: @autoclosure () -> String) throws(LMDBError) {
        guard result == 0 else { throw LMDBError(Code(rawValue: result), operation: operation()) }
    }
}

/// A ledger's `data.mdb` holds fewer bytes than its last commit uses: it was cut short under
/// the open ledger (truncated by hand, a failing disk, a full file system's repair). Nothing is
/// read from it, so the process lives on; the ledger is whole again only from a backup.
public struct DataFileCutShort: Error, Hashable, Sendable, CustomStringConvertible {
    /// The ledger's folder.
    public var directory: String
    /// The file's size now, in bytes.
    public var size: Int
    /// The bytes its last commit uses.
    public var needed: Int

    public var description: String {
        "the ledger's data file \(directory)/data.mdb is \(size) bytes, but its last commit uses \(needed): it was cut short while open (truncated, or a failing disk); nothing more is read from it — put back the copy `stride ledger backup` made, then check it with `stride ledger verify`"
    }
}
