import Foundation
import StrideEvents

/// The folder a shared server serves (`stride serve --ledgers DIR`): one plain Stride ledger
/// per runner, each a folder named for the runner (`DIR/marie`). Nothing else is kept: the
/// runners are the folders that hold a ledger, so `stride --ledger DIR/marie …` works on a
/// runner's ledger as on any other, while the server runs.
///
/// The folder holds one more file, ``markerName``, which says that its ledgers are runners'
/// and so that `stride tokens add` on one of them prints the token with the runner's name
/// before it (``RunnerToken``).
public struct RunnersFolder: Sendable {
    /// The folder.
    public let path: String

    /// The file that marks a folder of runners' ledgers.
    public static let markerName = ".stride-runners"
    /// Where `stride runners remove` moves a runner's ledger that it keeps.
    public static let removedName = ".removed"

    /// The folder at `path` (nothing is read or made yet).
    public init(path: String) {
        self.path = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
    }

    /// The folder of runners a ledger at `ledgerPath` belongs to, with the runner's name: when
    /// the ledger's parent folder is marked (``markerName``) and its own name is a runner's.
    public static func runner(ofLedgerAt ledgerPath: String) -> (folder: RunnersFolder, name: String)? {
        let url = URL(fileURLWithPath: ledgerPath).standardizedFileURL
        let name = url.lastPathComponent
        let parent = url.deletingLastPathComponent().path
        guard RunnerName.isValid(name), FileManager.default.fileExists(atPath: parent + "/" + markerName) else { return nil }
        return (RunnersFolder(path: parent), name)
    }

    /// The path of a runner's ledger (whether or not it exists).
    public func ledgerPath(of name: String) -> String {
        path + "/" + name
    }

    /// Whether a runner of this name has a ledger here now: a cheap check (one `stat`) a
    /// server makes before each request it routes to an open ledger, so that a removed runner
    /// stops being served at once.
    public func holdsLedger(of name: String) -> Bool {
        RunnerName.isValid(name) && FileManager.default.fileExists(atPath: ledgerPath(of: name) + "/data.mdb")
    }

    /// The runners, by name: the folders that hold a ledger, in name order.
    /// - Throws: ``RunnersError/notAFolder(_:)`` when the folder is missing or unreadable.
    public func names() throws -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue,
            let entries = try? FileManager.default.contentsOfDirectory(atPath: path)
        else { throw RunnersError.notAFolder(path) }
        return entries.filter(holdsLedger(of:)).sorted()
    }

    /// Makes the folder (private to its owner) and its marker when missing.
    /// - Throws: ``RunnersError/unwritable(_:reason:)``.
    public func prepare() throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let marker = path + "/" + Self.markerName
            if !FileManager.default.fileExists(atPath: marker) {
                let text = "Each folder here that holds a Stride ledger is a runner's, served by `stride serve --ledgers \(path)`.\n"
                guard FileManager.default.createFile(atPath: marker, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
                    throw RunnersError.unwritable(marker, reason: "the file could not be created")
                }
            }
        } catch let error as RunnersError {
            throw error
        } catch {
            throw RunnersError.unwritable(path, reason: error.localizedDescription)
        }
    }

    /// Creates a runner's ledger, in `timeZone` (nil: the machine's), and returns it.
    /// - Throws: ``RunnersError/invalidName(_:)``, ``RunnersError/exists(_:path:)``; the
    ///   errors of ``Ledger/create(at:timeZone:clock:)``.
    public func add(name text: String, timeZone: String?, clock: any LedgerClock = SystemClock()) throws -> Ledger {
        let name = try Self.name(text)
        try prepare()
        let ledgerPath = ledgerPath(of: name)
        guard !FileManager.default.fileExists(atPath: ledgerPath) else { throw RunnersError.exists(name, path: ledgerPath) }
        return try Ledger.create(at: ledgerPath, timeZone: timeZone, clock: clock)
    }

    /// Stops serving a runner: moves the ledger to `.removed/NAME-TIME` (kept, every event
    /// intact), or deletes it when `deleting`. Returns where it was moved, or nil when deleted.
    /// - Throws: ``RunnersError/invalidName(_:)``, ``RunnersError/unknown(_:known:)``,
    ///   ``RunnersError/unwritable(_:reason:)``.
    public func remove(name text: String, deleting: Bool, at now: Timestamp) throws -> String? {
        let name = try Self.name(text)
        guard holdsLedger(of: name) else { throw RunnersError.unknown(name, known: (try? names()) ?? []) }
        let source = ledgerPath(of: name)
        do {
            let removed = path + "/" + Self.removedName
            try FileManager.default.createDirectory(atPath: removed, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let stamp = String(ISO8601.format(now, offsetSeconds: 0).filter { $0.isNumber || $0 == "T" }.prefix(15))
            let target = removed + "/" + name + "-" + stamp
            // Moved first, so that a deletion cut short never leaves half a ledger served.
            try FileManager.default.moveItem(atPath: source, toPath: target)
            guard deleting else { return target }
            try FileManager.default.removeItem(atPath: target)
            return nil
        } catch {
            throw RunnersError.unwritable(source, reason: error.localizedDescription)
        }
    }

    private static func name(_ text: String) throws -> String {
        switch RunnerName.check(text) {
        case .success(let name): return name
        case .failure(let refusal): throw RunnersError.invalidName(refusal.problem)
        }
    }
}

/// Why `stride runners` or a shared server could not do what was asked.
public enum RunnersError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidName(String)
    case exists(String, path: String)
    case unknown(String, known: [String])
    case notAFolder(String)
    case unwritable(String, reason: String)
    /// Neither `--ledgers` nor `STRIDE_LEDGERS` named the folder.
    case noFolder

    public var description: String {
        switch self {
        case .invalidName(let problem): "\(problem); choose another name"
        case .exists(let name, let path): "a runner named \(name) already exists (\(path)); nothing was changed — choose another name"
        case .unknown(let name, let known):
            "there is no runner named \(name)"
                + (known.isEmpty ? "; add one with `stride runners add NAME`" : "; the runners are \(known.joined(separator: ", "))")
        case .notAFolder(let path): "\(path) is not a folder of runners' ledgers; make it with `stride runners add NAME --ledgers \(path)`"
        case .unwritable(let path, let reason): "\(path) could not be written: \(reason); nothing of it was changed"
        case .noFolder: "name the folder of runners' ledgers with --ledgers DIR or $STRIDE_LEDGERS"
        }
    }
}
