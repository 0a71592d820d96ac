import Logging
import StrideEvents
import StrideLedger
import StrideStore
import Synchronization

/// What the operator's log is told about ledgers that cannot be read: a line when a ledger is
/// found damaged or unreadable, and one when it can be read again — once per change, never a
/// line per request (its runner's clients keep getting 503 meanwhile, each with its request's
/// line).
final class DamageReports: Sendable {
    private let logger: Logger
    /// The ledgers found damaged and not read since, by the name the log gives them.
    private let damaged = Mutex<Set<String>>([])

    init(logger: Logger) {
        self.logger = logger
    }

    /// `ledger` (its name in the log: "the ledger of the runner marie") cannot be read: said
    /// once, until it can be read again.
    func found(_ ledger: String, _ problem: String) {
        guard damaged.withLock({ $0.insert(ledger).inserted }) else { return }
        logger.error("\(ledger) \(problem) (said once: its requests get 503 until it can be read again)")
    }

    /// `ledger` was read: said once, when it had been found damaged.
    func readable(_ ledger: String) {
        guard damaged.withLock({ $0.remove(ledger) != nil }) else { return }
        logger.notice("\(ledger) can be read again")
    }

    /// Whether an error says a ledger's files are damaged (cut short, corrupted, an event or a
    /// row that cannot be decoded), rather than that a request was refused or Stride failed.
    static func isDamage(_ error: any Error) -> Bool {
        switch error {
        case is DataFileCutShort, is EventLogFault, is ProjectionFailure: return true
        case let error as LMDBError:
            return [.corrupted, .panic, .invalid, .versionMismatch, .pageNotFound].contains(error.code)
        case let error as LedgerError:
            if case .damaged = error { return true }
            return false
        default: return false
        }
    }
}

/// One ledger's name in the damage reports, and the reports: what a ``LedgerWorker`` tells
/// about every call it runs.
struct LedgerHealth: Sendable {
    /// The ledger as the log names it.
    let name: String
    /// Where to run, for the advice.
    let path: String
    let reports: DamageReports

    /// Runs `body`, telling the reports that the ledger was read, or found damaged.
    /// - Throws: what `body` throws.
    func watching<T>(_ body: () throws -> T) throws -> T {
        do {
            let result = try body()
            reports.readable(name)
            return result
        } catch {
            if DamageReports.isDamage(error) {
                reports.found(name, "cannot be read: \(error); check it with `stride --ledger \(path) ledger verify`")
            }
            throw error
        }
    }
}
