import CLMDB

/// A named database inside an environment, opened once when the environment opens.
struct Database: Hashable, Sendable {
    /// LMDB's handle.
    let handle: MDB_dbi

    /// How a database orders and stores its entries.
    struct Flags: OptionSet, Hashable, Sendable {
        let rawValue: UInt32

        /// Keys are native-endian unsigned integers of one size, compared as numbers.
        static let integerKeys = Flags(rawValue: UInt32(MDB_INTEGERKEY))
        /// A key may hold several values, kept sorted.
        static let duplicateSort = Flags(rawValue: UInt32(MDB_DUPSORT))
        /// Duplicate values all have one size (stored packed).
        static let duplicateFixed = Flags(rawValue: UInt32(MDB_DUPFIXED))
        /// Duplicate values are native-endian unsigned integers.
        static let integerDuplicates = Flags(rawValue: UInt32(MDB_INTEGERDUP))
    }
}

/// How a put treats an existing key.
struct PutFlags: OptionSet, Sendable {
    let rawValue: UInt32

    /// Fail with ``LMDBError/Code/keyExists`` rather than overwrite.
    static let noOverwrite = PutFlags(rawValue: UInt32(MDB_NOOVERWRITE))
    /// The key sorts after every key in the database: skip the search.
    static let append = PutFlags(rawValue: UInt32(MDB_APPEND))
    /// The value sorts after every value of its key: skip the search.
    static let appendDuplicate = PutFlags(rawValue: UInt32(MDB_APPENDDUP))
    /// Fail rather than add a value the key already has.
    static let noDuplicateData = PutFlags(rawValue: UInt32(MDB_NODUPDATA))
}
