import CLMDB
import Glibc

/// An LMDB environment: one directory holding `data.mdb` and `lock.mdb`, both mode 0600.
///
/// Transactions are closures: ``write(_:)`` commits when its closure returns and aborts when
/// it throws; ``read(_:)`` always aborts (read transactions have nothing to commit). The
/// environment is opened with `MDB_NOTLS`, so transactions are not tied to threads, but a
/// write closure must not suspend: LMDB's writer lock belongs to the thread that took it.
final class Environment: @unchecked Sendable {
    private let handle: OpaquePointer
    private let gate = ResizeGate()
    /// The directory holding the files.
    let directory: String
    /// Reader slots freed on open because their processes had died.
    let staleReadersCleared: Int
    /// The absolute path of `data.mdb`, symbolic links resolved, as /proc/self/maps names it.
    private let dataFilePath: String?
    /// LMDB's page size for this file, read once as it opens (see ``checkDataFileHoldsPages()``).
    private let pageSize: Int

    /// Opens (creating if needed, with the folders above it that are missing) the environment
    /// in `directory`.
    ///
    /// - Parameters:
    ///   - initialMapSize: the map size for a new environment; an existing one keeps its own.
    ///     The map grows by itself when full.
    ///   - maxDatabases: the number of named databases.
    /// - Throws: ``LMDBError`` (for instance ``LMDBError/Code/accessDenied``).
    init(directory: String, initialMapSize: Int, maxDatabases: UInt32) throws {
        self.directory = directory
        try Self.makeDirectory(directory)
        var pointer: OpaquePointer?
        try LMDBError.check(mdb_env_create(&pointer), "mdb_env_create")
        guard let pointer else { throw LMDBError(.invalid, operation: "mdb_env_create") }
        do {
            try LMDBError.check(mdb_env_set_maxdbs(pointer, maxDatabases), "mdb_env_set_maxdbs")
            try LMDBError.check(mdb_env_set_mapsize(pointer, initialMapSize), "mdb_env_set_mapsize")
            try LMDBError.check(mdb_env_open(pointer, directory, UInt32(MDB_NOTLS), 0o600), "mdb_env_open(\(directory))")
            var dead: Int32 = 0
            try LMDBError.check(mdb_reader_check(pointer, &dead), "mdb_reader_check")
            staleReadersCleared = Int(dead)
            // Opening read the meta pages with read(2), so they are there to be mapped.
            var statistics = MDB_stat()
            try LMDBError.check(mdb_env_stat(pointer, &statistics), "mdb_env_stat")
            pageSize = Int(statistics.ms_psize)
        } catch {
            mdb_env_close(pointer)
            throw error
        }
        handle = pointer
        dataFilePath = realpath(directory + "/data.mdb", nil).map { resolved in
            defer { free(resolved) }
            return String(cString: resolved)
        }
    }

    deinit {
        mdb_env_close(handle)
    }

    /// Creates `directory` and the folders above it that are missing (`stride --ledger
    /// new/stride.ledger init` where `new/` is not there yet), each mode 0700: a folder made
    /// for health data is the runner's alone. A directory that is there already is left as it is.
    /// - Throws: ``LMDBError`` naming the folder that cannot be made.
    static func makeDirectory(_ directory: String) throws {
        if mkdir(directory, 0o700) == 0 { return }
        var failure = errno
        if failure == ENOENT, let parent = parent(of: directory) {
            try makeDirectory(parent)
            if mkdir(directory, 0o700) == 0 { return }
            failure = errno
        }
        guard failure == EEXIST else {
            throw LMDBError(LMDBError.Code(rawValue: failure), operation: "creating the directory \(directory)")
        }
    }

    /// The folder above a path (`new` for `new/stride.ledger`, `/` for `/data`); nil for a
    /// name alone, which lies in the working directory.
    private static func parent(of path: String) -> String? {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return nil }
        let parent = trimmed[..<slash]
        return parent.isEmpty ? "/" : String(parent)
    }

    /// Opens (creating) named databases in one write transaction.
    func openDatabases(_ specifications: [(name: String, flags: Database.Flags)]) throws -> [Database] {
        try openDatabases(specifications) { _, _ in }
    }

    /// Opens (creating) named databases, then runs `body` with them in the same write
    /// transaction: a new environment is set up in one commit.
    func openDatabases(
        _ specifications: [(name: String, flags: Database.Flags)], then body: ([Database], borrowing Transaction) throws -> Void
    ) throws -> [Database] {
        try write { transaction in
            let databases = try specifications.map { specification in
                var dbi: MDB_dbi = 0
                let flags = specification.flags.rawValue | UInt32(MDB_CREATE)
                try LMDBError.check(
                    mdb_dbi_open(transaction.handle, specification.name, flags, &dbi), "mdb_dbi_open(\(specification.name))")
                return Database(handle: dbi)
            }
            try body(databases, transaction)
            return databases
        }
    }

    /// The read transaction a ``view(_:)`` holds open on this thread, if one does.
    private var openView: OpaquePointer? {
        guard let view = Self.openView, view.environment == handle else { return nil }
        return view.transaction
    }

    /// Whether the code running now reads through a ``view(_:)`` of this environment.
    var isInView: Bool { openView != nil }

    /// Runs `body` with one read transaction open: every ``read(_:)`` of this environment that
    /// `body` makes on this thread reads that one snapshot, however many there are and
    /// whichever function makes them — as GRDB's `DatabaseReader.read`. Writes are refused
    /// inside it. A view inside a view is the outer one.
    /// - Throws: what `body` throws, ``DataFileCutShort``, or ``LMDBError``.
    func view<R>(_ body: () throws -> R) throws -> R {
        if isInView { return try body() }
        return try readTransaction { pointer in
            try Self.$openView.withValue(OpenView(environment: handle, transaction: pointer)) { try body() }
        }
    }

    /// Runs `body` in a read-only snapshot of the environment: the open ``view(_:)``'s, or one
    /// of its own.
    /// - Throws: what `body` throws, ``DataFileCutShort``, or ``LMDBError``.
    func read<R>(_ body: (borrowing Transaction) throws -> R) throws -> R {
        if let openView { return try body(Transaction(handle: openView, isReadOnly: true)) }
        return try readTransaction { try body(Transaction(handle: $0, isReadOnly: true)) }
    }

    /// Runs `body` with a read-only transaction of its own, aborted afterwards.
    private func readTransaction<R>(_ body: (OpaquePointer) throws -> R) throws -> R {
        try retryingResizes {
            try gate.shared {
                try checkDataFileHoldsPages()
                let pointer = try begin(flags: UInt32(MDB_RDONLY))
                defer { mdb_txn_abort(pointer) }
                return try body(pointer)
            }
        }
    }

    /// Runs `body` in a write transaction, committed when `body` returns, aborted when it throws.
    ///
    /// When the map is full the transaction is aborted, the map grows and `body` runs again
    /// from the start: keep every effect of `body` inside the transaction.
    /// - Throws: what `body` throws, ``DataFileCutShort``, or ``LMDBError``.
    func write<R>(_ body: (borrowing Transaction) throws -> R) throws -> R {
        guard !isInView else { throw WriteInReadView(directory: directory) }
        return try retryingResizes {
            try gate.shared {
                try checkDataFileHoldsPages()
                let pointer = try begin(flags: 0)
                let result: R
                do {
                    result = try body(Transaction(handle: pointer, isReadOnly: false))
                } catch {
                    mdb_txn_abort(pointer)
                    throw error
                }
                try LMDBError.check(mdb_txn_commit(pointer), "mdb_txn_commit")
                return result
            }
        }
    }

    /// Checks, before a transaction touches the map, that `data.mdb` still holds every page its
    /// last commit uses. LMDB reads the file through a memory map: a page past the file's end
    /// (a file truncated under an open ledger, by a person or a failing disk) is not an error
    /// but a SIGBUS that kills the whole process — on a shared server, every runner's service.
    /// One `fstat` and a look at the meta page turn that into an error for this ledger alone.
    /// A truncation during a transaction is not caught (see docs/SERVING.md).
    /// - Throws: ``DataFileCutShort``.
    private func checkDataFileHoldsPages() throws {
        var descriptor: Int32 = -1
        var status = stat()
        guard mdb_env_get_fd(handle, &descriptor) == 0, fstat(descriptor, &status) == 0 else { return }
        let size = Int(status.st_size)
        // The two meta pages come first: below them, even reading the meta would fault.
        guard size >= 2 * pageSize else { throw DataFileCutShort(directory: directory, size: size, needed: 2 * pageSize) }
        var info = MDB_envinfo()
        guard mdb_env_info(handle, &info) == 0 else { return }
        let needed = (info.me_last_pgno + 1) * pageSize
        guard size >= needed else { throw DataFileCutShort(directory: directory, size: size, needed: needed) }
    }

    /// The current map size in bytes.
    var mapSize: Int {
        var info = MDB_envinfo()
        mdb_env_info(handle, &info)
        return info.me_mapsize
    }

    /// Reserves disk blocks for at least `bytes` past the end of the data file, when fewer
    /// than a quarter of that are reserved already (`fallocate`, the file's size unchanged).
    ///
    /// LMDB grows its file by writing past the end; every commit that does so makes the file
    /// system allocate blocks and journal the change before `fdatasync` returns. Writes into
    /// blocks reserved beforehand cost less. Best effort: where the file system cannot reserve, nothing changes.
    /// - Returns: whether space is reserved past the end now.
    @discardableResult
    func reserveSpace(ahead bytes: Int) -> Bool {
        var descriptor: Int32 = -1
        guard mdb_env_get_fd(handle, &descriptor) == 0 else { return false }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return false }
        let reserved = Int(status.st_blocks) * 512 - Int(status.st_size)
        guard reserved < bytes / 4 else { return true }
        return fallocate(descriptor, STRIDE_FALLOC_FL_KEEP_SIZE, status.st_size, off_t(bytes)) == 0
    }

    /// Gives back the blocks ``reserveSpace(ahead:)`` reserved past the end of the data file.
    /// Done in a write transaction, so that no other process extends the file meanwhile.
    func releaseReservedSpace() throws {
        var descriptor: Int32 = -1
        guard mdb_env_get_fd(handle, &descriptor) == 0 else { return }
        try write { _ in
            var status = stat()
            guard fstat(descriptor, &status) == 0, Int(status.st_blocks) * 512 > Int(status.st_size) else { return }
            // Setting the size it has frees the blocks past it (ext4, XFS, tmpfs).
            _ = ftruncate(descriptor, status.st_size)
        }
    }

    /// Writes a copy of the environment into `directory` (created, mode 0700), leaving out
    /// free pages; the copy's data file is mode 0600.
    /// - Throws: ``LMDBError`` when the copy cannot be written.
    func copy(toDirectory target: String) throws {
        try Self.makeDirectory(target)
        let path = target + "/data.mdb"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw LMDBError(LMDBError.Code(rawValue: errno), operation: "creating \(path)") }
        defer { close(descriptor) }
        do {
            try gate.shared {
                try LMDBError.check(mdb_env_copyfd2(handle, descriptor, UInt32(MDB_CP_COMPACT)), "mdb_env_copyfd2")
            }
            guard fsync(descriptor) == 0 else { throw LMDBError(LMDBError.Code(rawValue: errno), operation: "fsync(\(path))") }
        } catch {
            unlink(path)
            throw error
        }
    }

    /// Drops this process's mapping of the ledger's pages from its resident memory (the
    /// kernel's page cache keeps them; the next read maps them again). LMDB maps the file
    /// read-only and shared, so nothing is lost; a long ingest calls this between batches
    /// so that its memory does not grow with the ledger it has already written.
    func releaseMappedPages() {
        gate.exclusive {
            // The map moves only when its size changes (LMDB maps anew in
            // `mdb_env_set_mapsize`): where it lies is looked up once per size.
            let size = mapSize
            if mappedRegions?.mapSize != size { mappedRegions = (size, findMappedRegions()) }
            for region in mappedRegions?.regions ?? [] { _ = madvise(region.start, region.length, MADV_DONTNEED) }
        }
    }

    /// Where the data file is mapped, and the map size then; touched inside the gate's
    /// exclusive section only.
    private var mappedRegions: (mapSize: Int, regions: [(start: UnsafeMutableRawPointer, length: Int)])?

    /// The mappings of the data file, from /proc/self/maps: LMDB does not say where it mapped
    /// the file (`me_mapaddr` is only set for a fixed map).
    private func findMappedRegions() -> [(start: UnsafeMutableRawPointer, length: Int)] {
        guard let path = dataFilePath, let maps = fopen("/proc/self/maps", "r") else { return [] }
        defer { fclose(maps) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        var regions: [(start: UnsafeMutableRawPointer, length: Int)] = []
        while getline(&line, &capacity, maps) > 0, let line {
            let text = String(cString: line)
            guard text.hasSuffix(" " + path + "\n") || text.hasSuffix(" " + path),
                let dash = text.firstIndex(of: "-"), let space = text.firstIndex(of: " "),
                let start = UInt(text[..<dash], radix: 16), let end = UInt(text[text.index(after: dash)..<space], radix: 16),
                let address = UnsafeMutableRawPointer(bitPattern: start)
            else { continue }
            regions.append((address, Int(end - start)))
        }
        return regions
    }

    private func begin(flags: UInt32) throws -> OpaquePointer {
        var pointer: OpaquePointer?
        try LMDBError.check(mdb_txn_begin(handle, nil, flags, &pointer), "mdb_txn_begin")
        guard let pointer else { throw LMDBError(.invalid, operation: "mdb_txn_begin") }
        return pointer
    }

    /// Runs `attempt`, growing the map when it is full and adopting another process's larger
    /// map when it has grown, until `attempt` gets through.
    private func retryingResizes<R>(_ attempt: () throws -> R) throws -> R {
        while true {
            do {
                return try attempt()
            } catch let error as LMDBError where error.code == .mapFull {
                try gate.exclusive {
                    let current = mapSize
                    let grown = current < 1 << 30 ? current * 2 : current + 1 << 30
                    try LMDBError.check(mdb_env_set_mapsize(handle, grown), "mdb_env_set_mapsize")
                }
            } catch let error as LMDBError where error.code == .mapResized {
                try gate.exclusive {
                    try LMDBError.check(mdb_env_set_mapsize(handle, 0), "mdb_env_set_mapsize")
                }
            }
        }
    }
}

extension Environment {
    /// A read transaction held open by ``view(_:)`` for the code it runs (a task-local value,
    /// which falls back to the thread where no task runs: the ledger threads' case).
    struct OpenView: @unchecked Sendable {
        let environment: OpaquePointer
        let transaction: OpaquePointer
    }

    @TaskLocal static var openView: OpenView?
}

/// A write asked for inside a read view: a programming error (catching up, or acting, belongs
/// before the view opens), refused rather than left to deadlock on the resize gate.
struct WriteInReadView: Error, CustomStringConvertible {
    let directory: String

    var description: String { "a write to the ledger at \(directory) was asked for inside a read view; this is a bug in Stride, please report it" }
}
