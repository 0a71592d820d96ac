import Foundation
import StrideEvents

/// Why a ledger operation was refused, each with a sentence saying what to do.
public enum LedgerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No ledger at the path.
    case notFound(path: String)
    /// `init` on a path that already holds a ledger.
    case alreadyExists(path: String, timeZone: String)
    /// The path is a file, not a ledger directory.
    case notADirectory(path: String)
    /// The time zone is not an IANA identifier.
    case unknownTimeZone(String)
    /// The ledger's first event is not its creation.
    case damaged(path: String, problem: String)
    /// A file to write already exists.
    case fileExists(path: String)
    /// A file to read cannot be read.
    case unreadable(path: String, reason: String)
    /// A file to write cannot be written.
    case unwritable(path: String, reason: String)
    /// A line of an export file is not what `stride export` writes.
    case malformedExport(path: String, line: Int, problem: String)
    /// An export file's chain is broken.
    case brokenExport(path: String, line: Int, sequence: UInt64, problem: String)
    /// The ledger holds events the export file does not start with.
    case importConflict(path: String, ledger: String, problem: String)
    /// A projection name that is not one of the ledger's.
    case unknownProjection(String, known: [String])
    /// What a command read kept changing under it (other processes writing); nothing was
    /// appended.
    case busy(String)
    /// An action dated later than the ledger's clock allows (see
    /// ``Ledger/allowedClockSkewMilliseconds``); the times print in the ledger's time zone.
    case aheadOfClock(at: Timestamp, clock: Timestamp, timeZone: String)

    public var description: String {
        switch self {
        case .notFound(let path):
            "there is no ledger at \(path); create one with `stride init --time-zone ZONE`, or point --ledger (or STRIDE_LEDGER) at an existing one"
        case .alreadyExists(let path, let timeZone):
            "a ledger already exists at \(path) (time zone \(timeZone)); nothing was changed — use it as it is, or choose another path with --ledger"
        case .notADirectory(let path):
            "\(path) is a file, not a ledger directory; pass --ledger a directory path"
        case .unknownTimeZone(let zone):
            "\"\(zone.shownInMessage)\" is not an IANA time zone; use a name such as Europe/Paris or America/New_York"
        case .damaged(let path, let problem):
            "the ledger at \(path) is damaged: \(problem); run `stride verify` and restore from a backup"
        case .fileExists(let path):
            "\(path) already exists; choose another file name or remove it first"
        case .unreadable(let path, let reason):
            "cannot read \(path): \(reason); check the path and its permissions"
        case .unwritable(let path, let reason):
            "cannot write \(path): \(reason); check the folder exists and is writable"
        case .malformedExport(let path, let line, let problem):
            "\(path), line \(line): \(problem); import only files written by `stride export`"
        case .brokenExport(let path, let line, let sequence, let problem):
            "\(path), line \(line): event \(sequence): \(problem); the file was altered or damaged — nothing was imported, import an intact export"
        case .importConflict(let path, let ledger, let problem):
            "cannot import \(path) into \(ledger): \(problem); import into a new ledger with --ledger NEW-PATH"
        case .unknownProjection(let name, let known):
            "there is no projection named \"\(name.shownInMessage)\"; name one of: \(known.joined(separator: ", "))"
        case .busy(let subject):
            "\(subject) kept changing under this command (another stride was writing); nothing was changed — run it again"
        case .aheadOfClock(let at, let clock, let timeZone):
            "the time given, \(Self.format(at, in: timeZone)), is ahead of the ledger's clock, \(Self.format(clock, in: timeZone)), "
                + "by more than \(Ledger.allowedClockSkewMilliseconds / 60_000) minutes; nothing was recorded — give a time that has come "
                + "(an earlier one back-dates the action), or leave the time out for now"
        }
    }

    /// An instant with the offset its zone had then (UTC for a zone this machine lacks).
    private static func format(_ instant: Timestamp, in timeZone: String) -> String {
        let date = Date(timeIntervalSince1970: TimeInterval(instant.millisecondsSince1970) / 1000)
        return ISO8601.format(instant, offsetSeconds: TimeZone(identifier: timeZone)?.secondsFromGMT(for: date) ?? 0)
    }
}
