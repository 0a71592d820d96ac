import Foundation

/// A PostgreSQL server of its own for one test: Debian's, initialised in a temporary folder,
/// listening only on a Unix socket there (no TCP port), removed when stopped for good.
///
/// PostgreSQL refuses to run as root, so when the tests do, its programs run as the `postgres`
/// user Debian's package creates (through `runuser`), in a folder handed over to that user.
/// The folder stays readable by its owner alone: anyone who could reach the socket could log
/// in as the superuser without a password.
public final class TemporaryPostgres: @unchecked Sendable {
    /// Why a server could not be started, stopped or asked something: what failed and how to
    /// put it right, with the end of the server's log where it tells more.
    public struct Failure: Error, CustomStringConvertible, LocalizedError {
        /// What failed, and how to fix it.
        public let description: String

        /// The same, for `localizedDescription`.
        public var errorDescription: String? { description }

        init(_ description: String) {
            self.description = description
        }
    }

    /// The role the wrong-credentials tests log in as: the one role that must give a password
    /// (SCRAM-SHA-256); every other logs in on the socket without one.
    public static let guardedUser = "guarded"

    /// The password of ``guardedUser``.
    public static let guardedPassword = "right-password"

    /// The socket's folder. It also holds the server's data (`data/`) and logs.
    public let socketFolder: String

    /// The server's data folder (`initdb`'s `-D`).
    let dataFolder: String

    /// The folder of the PostgreSQL version's programs (`/usr/lib/postgresql/<version>/bin`).
    let programs: String

    /// The user and group the server runs as when the tests run as root (`postgres`); nil
    /// when they run as anyone else, who runs it directly.
    let serverUser: (uid: uid_t, gid: gid_t)?

    /// The port in the socket's name (`.s.PGSQL.5432`); no TCP port is opened.
    let port = 5432

    /// Guards `removed` and `running`: tests may stop, kill or remove from any thread.
    private let lock = NSLock()
    private var removed = false
    /// The running server's process (`postgres`, or `runuser` above it) and a semaphore
    /// signalled once it has ended; nil while stopped.
    private var running: (process: Process, ended: DispatchSemaphore)?

    /// Whether Debian's PostgreSQL server is installed (tests that need one are
    /// `.enabled(if: TemporaryPostgres.isInstalled)`).
    public static var isInstalled: Bool { newestPrograms() != nil }

    /// Initialises and starts a server. Throws a clear error (with the server's log tail)
    /// when it cannot.
    public static func start() throws -> TemporaryPostgres {
        guard let programs = newestPrograms() else {
            throw Failure("Debian's PostgreSQL server is not installed (no /usr/lib/postgresql/*/bin/initdb): run Tools/setup --tests")
        }
        let serverUser = try userToRunAs()
        let folder = try makeFolder(ownedBy: serverUser)
        let server = TemporaryPostgres(folder: folder, programs: programs, serverUser: serverUser)
        do {
            try server.initialise()
            try server.resume()
            try server.createDatabase()
        } catch {
            server.remove()
            throw error
        }
        return server
    }

    private init(folder: String, programs: String, serverUser: (uid: uid_t, gid: gid_t)?) {
        self.socketFolder = folder
        self.dataFolder = folder + "/data"
        self.programs = programs
        self.serverUser = serverUser
    }

    deinit {
        remove()
    }

    /// The address Stride is given: `postgresql://stride@/stride?host=SOCKETDIR` (libpq's form:
    /// an empty host and `host=` naming the socket's folder).
    public var url: String { "postgresql://stride@/stride?host=" + Self.percentEncoded(socketFolder) }

    /// The same with another user and, when given, a password: ``guardedUser`` must give
    /// ``guardedPassword``, so `url(user: "guarded", password: "wrong")` is refused by the
    /// server with an authentication error.
    public func url(user: String, password: String?) -> String {
        var credentials = Self.percentEncoded(user, keepingSlashes: false)
        if let password { credentials += ":" + Self.percentEncoded(password, keepingSlashes: false) }
        return "postgresql://\(credentials)@/stride?host=" + Self.percentEncoded(socketFolder)
    }

    /// Stops the server (fast shutdown, as `pg_ctl -m fast`: open connections are ended, a
    /// checkpoint is written), keeping its data; ``resume()`` starts it again on the same
    /// socket and data. Waits up to 30 s until every process of the server has ended.
    public func stop() throws {
        try checkNotRemoved()
        guard let running = lock.withLock({ running }), let postmaster = postmasterProcess() else {
            throw Failure("The PostgreSQL server in \(dataFolder) is not running: resume() starts it")
        }
        _ = sendSignal(postmaster, SIGINT)
        guard running.ended.wait(timeout: .now() + 30) == .success else {
            throw Failure("The PostgreSQL server in \(dataFolder) did not stop within 30 s; its log ends:\n\(serverLogTail())")
        }
        lock.withLock { self.running = nil }
    }

    /// Starts the server again after ``stop()`` or ``kill()``, on the same socket and data
    /// (after a kill PostgreSQL first recovers from its write-ahead log). Waits up to 30 s
    /// until it accepts connections.
    public func resume() throws {
        try checkNotRemoved()
        if let running = lock.withLock({ running }), running.process.isRunning {
            throw Failure("The PostgreSQL server in \(dataFolder) is already running: stop() or kill() it first")
        }
        // postgres itself, not `pg_ctl start`, and as this process's child: Foundation learns
        // that a process has ended when a socket it inherits closes, and the server pg_ctl
        // leaves behind would hold it open, so that waiting for pg_ctl would never end. Held
        // by every process of the server, that socket instead says when all have ended.
        if !FileManager.default.fileExists(atPath: serverLog) {
            _ = FileManager.default.createFile(atPath: serverLog, contents: nil)
        }
        guard let log = FileHandle(forWritingAtPath: serverLog) else {
            throw Failure("Could not open the PostgreSQL server's log \(serverLog) for writing")
        }
        log.seekToEndOfFile()
        let process = Process()
        let (executable, arguments) = serverProgramCommand("postgres", ["-D", dataFolder])
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: socketFolder)
        process.standardOutput = log
        process.standardError = log
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        do {
            try process.run()
        } catch {
            try? log.close()
            throw Failure("Could not run \(executable): \(error)")
        }
        try? log.close()
        lock.withLock { running = (process, ended) }
        // Ready once the server says so in postmaster.pid, as `pg_ctl -w` waits.
        let deadline = Date().addingTimeInterval(30)
        while postmasterStatus() != "ready" || postmasterProcess() == nil {
            if !process.isRunning {
                lock.withLock { running = nil }
                throw Failure(
                    "The PostgreSQL server in \(dataFolder) stopped while starting (exit status \(process.terminationStatus)); "
                        + "its log ends:\n\(serverLogTail())")
            }
            if Date() > deadline {
                kill()
                throw Failure("The PostgreSQL server in \(dataFolder) did not accept connections within 30 s; its log ends:\n\(serverLogTail())")
            }
            usleep(20_000)
        }
    }

    /// Kills the server at once (SIGKILL of the postmaster and of every process it started),
    /// keeping its data, for crash tests; returns once they are all gone. ``resume()`` then
    /// starts it again.
    public func kill() {
        let server = lock.withLock { running }
        let lines = postmasterFile()
        if let postmaster = postmasterProcess() {
            // Its children are looked up first: once it is dead they are the init process's,
            // and harder to tell. (Stopping it meanwhile with SIGSTOP would stop `runuser`
            // above it too, which then never reaps it.) One it starts in between ends by
            // itself when it finds the postmaster gone.
            let all = [postmaster] + Self.children(of: postmaster)
            for process in all { _ = sendSignal(process, SIGKILL) }
            // The server's processes all hold the socket that tells Foundation its process
            // has ended; without one of ours, /proc tells.
            if let server {
                _ = server.ended.wait(timeout: .now() + 10)
            } else {
                Self.waitUntilGone(all)
            }
        }
        lock.withLock { self.running = nil }
        // What the dead server left would make the next one refuse to start when its process
        // lingers unreaped (a zombie) or its number is reused: the lock files and the shared
        // memory segment they name. PostgreSQL tells a crash from pg_control, not from these.
        if lines.count > 6, let segment = lines[6].split(separator: " ").last.flatMap({ Int32($0) }) {
            _ = shmctl(segment, IPC_RMID, nil)
        }
        try? FileManager.default.removeItem(atPath: dataFolder + "/postmaster.pid")
        try? FileManager.default.removeItem(atPath: socketFolder + "/.s.PGSQL.\(port).lock")
        try? FileManager.default.removeItem(atPath: socketFolder + "/.s.PGSQL.\(port)")
    }

    /// Runs SQL with psql (`psql -X -A -t -q -v ON_ERROR_STOP=1`) as the owner user against
    /// database `stride`; returns its standard output trimmed. Throws with psql's standard
    /// error when it fails.
    @discardableResult
    public func psql(_ sql: String) throws -> String {
        try psql(sql, database: "stride")
    }

    /// Stops the server and removes its folder (also done at deinit). Calling it again does
    /// nothing.
    public func remove() {
        let first = lock.withLock {
            defer { removed = true }
            return !removed
        }
        guard first else { return }
        // The folder goes too, so there is nothing to shut down cleanly for.
        kill()
        try? FileManager.default.removeItem(atPath: socketFolder)
    }

    // MARK: - Starting

    /// The server's log: what `postgres` writes to its standard output and error.
    var serverLog: String { socketFolder + "/server.log" }

    /// The programs of the newest PostgreSQL version installed with its server, or nil.
    static func newestPrograms() -> String? {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        let withServer = versions.filter { version in
            ["initdb", "postgres"].allSatisfy {
                FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/\(version)/bin/\($0)")
            }
        }
        func numbers(_ version: String) -> [Int] { version.split(separator: ".").map { Int($0) ?? -1 } }
        return withServer.max { numbers($0).lexicographicallyPrecedes(numbers($1)) }.map { "/usr/lib/postgresql/\($0)/bin" }
    }

    /// The `postgres` user when the tests run as root (PostgreSQL will not), nil otherwise.
    static func userToRunAs() throws -> (uid: uid_t, gid: gid_t)? {
        guard getuid() == 0 else { return nil }
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser") else {
            throw Failure("PostgreSQL refuses to run as root and /usr/sbin/runuser is missing to run it as postgres: install util-linux")
        }
        var entry = passwd()
        var buffer = [CChar](repeating: 0, count: 16_384)
        var found: UnsafeMutablePointer<passwd>?
        guard getpwnam_r("postgres", &entry, &buffer, buffer.count, &found) == 0, found != nil else {
            throw Failure(
                "PostgreSQL refuses to run as root and there is no postgres user to run it as: "
                    + "install Debian's postgresql package (Tools/setup --tests), which creates it")
        }
        return (entry.pw_uid, entry.pw_gid)
    }

    /// A new folder of the server's own (`stride-pg-XXXXXX`), mode 0700, owned by the user it
    /// runs as. It is under the temporary directory unless the socket's path would be too long
    /// there (Unix sockets' paths are limited to 107 bytes) or, as root, `postgres` could not
    /// reach it; then under `/tmp`.
    static func makeFolder(ownedBy serverUser: (uid: uid_t, gid: gid_t)?) throws -> String {
        var base = FileManager.default.temporaryDirectory.path
        while base.count > 1, base.hasSuffix("/") { base.removeLast() }
        if (base + "/stride-pg-XXXXXX/.s.PGSQL.5432").utf8.count > 100 || (serverUser != nil && !traversableByAll(base)) {
            base = "/tmp"
        }
        var template = Array((base + "/stride-pg-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!).map { String(cString: $0) } }
        guard let folder = made else {
            throw Failure("Could not create a folder for PostgreSQL under \(base): \(String(cString: strerror(errno)))")
        }
        if let serverUser, chown(folder, serverUser.uid, serverUser.gid) != 0 {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: folder)
            throw Failure("Could not hand \(folder) over to the postgres user: \(reason)")
        }
        return folder
    }

    /// Whether every folder from `/` down to `path` may be passed through by any user.
    static func traversableByAll(_ path: String) -> Bool {
        var folder = URL(fileURLWithPath: path)
        while true {
            let permissions = (try? FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as? Int) ?? 0
            if permissions & 0o001 == 0 { return false }
            if folder.path == "/" { return true }
            folder = folder.deletingLastPathComponent()
        }
    }

    /// Runs `initdb`, then sets the server to listen on the socket alone and writes who may
    /// log in how.
    func initialise() throws {
        // `--no-sync`: a test's crash kills processes, not the machine, so what initdb wrote
        // stays in the page cache either way; syncing it would only slow every test down.
        let result = try runServerProgram(
            "initdb", ["-D", dataFolder, "-U", "stride", "--auth=trust", "-E", "UTF8", "--no-locale", "--no-sync"])
        let log = socketFolder + "/initdb.log"
        try? Data((result.standardOutput + result.standardError).utf8).write(to: URL(fileURLWithPath: log))
        guard result.status == 0 else {
            throw Failure(
                "initdb could not initialise a PostgreSQL data folder in \(dataFolder) (exit status \(result.status)); it said:\n"
                    + Self.tail(Self.trimmed(result.standardOutput + result.standardError)))
        }
        let settings = """

            # TemporaryPostgres (StrideTestSupport): a socket in the test's own folder, no TCP port.
            listen_addresses = ''
            unix_socket_directories = '\(socketFolder.replacingOccurrences(of: "'", with: "''"))'
            port = \(port)
            fsync = on
            password_encryption = 'scram-sha-256'

            """
        let configuration = dataFolder + "/postgresql.conf"
        let existing = try String(contentsOfFile: configuration, encoding: .utf8)
        try writeServerFile(configuration, existing + settings)
        // The first matching line decides: `guarded` must give its password, everyone else
        // logs in on the socket without one (there is no TCP port to reach otherwise).
        try writeServerFile(
            dataFolder + "/pg_hba.conf",
            """
            # TYPE  DATABASE  USER     METHOD
            local   all       \(Self.guardedUser)  scram-sha-256
            local   all       all      trust

            """)
    }

    /// Creates the database `stride` (owned by `stride`) and the role that must give a password.
    func createDatabase() throws {
        try psql("CREATE DATABASE stride", database: "postgres")
        try psql(
            """
            SET password_encryption = 'scram-sha-256';
            CREATE ROLE \(Self.guardedUser) LOGIN PASSWORD '\(Self.guardedPassword)';
            GRANT ALL ON DATABASE stride TO \(Self.guardedUser);
            """, database: "postgres")
        try psql("GRANT ALL ON SCHEMA public TO \(Self.guardedUser)")
    }

    // MARK: - Running programs

    /// Runs psql against `database` as `stride` over the socket.
    @discardableResult
    func psql(_ sql: String, database: String) throws -> String {
        let psql = FileManager.default.isExecutableFile(atPath: programs + "/psql") ? programs + "/psql" : "/usr/bin/psql"
        let result = try runProcess(
            psql,
            ["-X", "-A", "-t", "-q", "-v", "ON_ERROR_STOP=1", "-h", socketFolder, "-p", "\(port)", "-U", "stride", "-d", database, "-c", sql])
        guard result.status == 0 else {
            throw Failure("psql failed (exit status \(result.status)) running \(sql):\n\(Self.trimmed(result.standardError))")
        }
        return Self.trimmed(result.standardOutput)
    }

    /// Runs one of the version's programs (`initdb`) to completion as the user the server runs
    /// as, in the server's folder (a folder that user may enter).
    func runServerProgram(_ name: String, _ arguments: [String]) throws -> ProcessResult {
        let (executable, arguments) = serverProgramCommand(name, arguments)
        return try runProcess(executable, arguments, in: socketFolder)
    }

    /// The executable and arguments that run one of the version's programs as the user the
    /// server runs as: through `runuser` when this process is root's.
    func serverProgramCommand(_ name: String, _ arguments: [String]) -> (executable: String, arguments: [String]) {
        let program = programs + "/" + name
        guard serverUser != nil else { return (program, arguments) }
        return ("/usr/sbin/runuser", ["-u", "postgres", "--", program] + arguments)
    }

    /// Replaces a file of the data folder, leaving it the server user's (mode 0600).
    func writeServerFile(_ path: String, _ contents: String) throws {
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        if let serverUser { _ = chown(path, serverUser.uid, serverUser.gid) }
        _ = chmod(path, 0o600)
    }

    /// Throws once ``remove()`` has run: the server's folder is gone.
    func checkNotRemoved() throws {
        if lock.withLock({ removed }) {
            throw Failure("This PostgreSQL server in \(socketFolder) was removed: start another with TemporaryPostgres.start()")
        }
    }

    // MARK: - Processes

    /// The lines of the data folder's `postmaster.pid` (process, folder, start time, port,
    /// socket folder, listen address, shared memory, status), trimmed; empty when there is
    /// none (the server is stopped).
    func postmasterFile() -> [String] {
        guard let data = FileManager.default.contents(atPath: dataFolder + "/postmaster.pid") else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
    }

    /// The running postmaster's process, from `postmaster.pid`, or nil when there is none.
    func postmasterProcess() -> pid_t? {
        guard let pid = postmasterFile().first.flatMap({ pid_t($0) }), pid > 0, Self.isPostgres(pid) else { return nil }
        return pid
    }

    /// The server's state as `postmaster.pid` tells it (`starting`, `ready`, `stopping`), or nil.
    func postmasterStatus() -> String? {
        let lines = postmasterFile()
        return lines.count > 7 ? lines[7] : nil
    }

    /// Whether process `pid` is a PostgreSQL one (`postgres`), so that a stale number is
    /// never killed. Without `/proc` (not Linux) any living process is taken to be.
    static func isPostgres(_ pid: pid_t) -> Bool {
        guard FileManager.default.fileExists(atPath: "/proc/self/stat") else { return sendSignal(pid, 0) == 0 }
        guard let name = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8) else { return false }
        return name.trimmingCharacters(in: .whitespacesAndNewlines) == "postgres"
    }

    /// The processes whose parent is `pid` (from `/proc`; none without it).
    static func children(of pid: pid_t) -> [pid_t] {
        let processes = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return processes.compactMap { pid_t($0) }.filter { status(of: $0)?.parent == pid }
    }

    /// A process's state letter and parent from `/proc/PID/stat`, or nil when it is gone.
    static func status(of pid: pid_t) -> (state: Character, parent: pid_t)? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let nameEnd = stat.lastIndex(of: ")")
        else { return nil }
        // After the name (in parentheses, and free to hold spaces): state, parent, …
        let fields = stat[stat.index(after: nameEnd)...].split(separator: " ")
        guard fields.count > 1, let state = fields[0].first, let parent = pid_t(fields[1]) else { return nil }
        return (state, parent)
    }

    /// Waits (up to 10 s) until the processes have ended: gone, or dead and waiting to be
    /// reaped (a zombie, which holds nothing of the server's any more).
    static func waitUntilGone(_ pids: [pid_t]) {
        let deadline = Date().addingTimeInterval(10)
        func gone(_ pid: pid_t) -> Bool {
            if FileManager.default.fileExists(atPath: "/proc/self/stat") {
                guard let state = status(of: pid)?.state else { return true }
                return state == "Z" || state == "X"
            }
            return sendSignal(pid, 0) != 0 && errno == ESRCH
        }
        while !pids.allSatisfy(gone), Date() < deadline { usleep(10_000) }
    }

    // MARK: - Text

    /// The end of the server's log, for errors.
    func serverLogTail() -> String {
        guard let data = FileManager.default.contents(atPath: serverLog) else { return "(no log at \(serverLog))" }
        return Self.tail(String(decoding: data, as: UTF8.self))
    }

    /// The last `count` lines of `text`.
    static func tail(_ text: String, lines count: Int = 30) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).suffix(count).joined(separator: "\n")
    }

    /// `text` without the blank space and newlines around it.
    static func trimmed(_ text: String) -> String { text.trimmingCharacters(in: .whitespacesAndNewlines) }

    /// `text` with all but unreserved characters (and `/`, in a query) percent-encoded, for a
    /// URL's user, password or query.
    static func percentEncoded(_ text: String, keepingSlashes: Bool = true) -> String {
        let unreserved = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~" + (keepingSlashes ? "/" : "")
        return text.addingPercentEncoding(withAllowedCharacters: CharacterSet(charactersIn: unreserved)) ?? text
    }
}

/// `kill(2)`, under a name the type's own `kill()` does not hide.
private func sendSignal(_ pid: pid_t, _ signal: Int32) -> Int32 {
    kill(pid, signal)
}
