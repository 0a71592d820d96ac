import Foundation
import StrideLedger
import Synchronization

/// The runners a shared server serves (`stride serve --ledgers DIR`): each runner's site,
/// opened at its first request and kept open.
///
/// Before each request is routed, the runner's ledger is looked for on disk (one `stat`): a
/// runner removed with `stride runners remove` is forgotten at once, and one added with
/// `stride runners add` is served at its first request, without a restart.
///
/// A ledger is opened only for a token its ``TokenGate`` admits: a wrong secret opens nothing.
/// A ledger that cannot be opened is tried again at most every ``retryAfterFailure``, so that
/// a stream of requests for it costs no disk read each; the log is told once that it cannot be
/// opened, and once when it opens again (``DamageReports``).
final class Runners: Sendable {
    /// How long a ledger that could not be opened is left before it is tried again.
    static let retryAfterFailure: Duration = .seconds(30)

    let folder: RunnersFolder
    /// Makes a runner's site over its ledger, just opened.
    private let makeSite: @Sendable (String, Ledger) throws -> RunnerSite
    private let lanes: WorkLanes
    private let clock: any LedgerClock
    private let reports: DamageReports
    private let sites = Mutex<[String: RunnerSite]>([:])
    /// When each ledger that could not be opened last failed, and why.
    private let failures = Mutex<[String: (at: ContinuousClock.Instant, error: String)]>([:])
    /// Held while a ledger is opened: one at a time, and never while a request only looks a
    /// site up.
    private let opening = Mutex(())

    init(
        folder: RunnersFolder, lanes: WorkLanes, clock: any LedgerClock, reports: DamageReports,
        makeSite: @escaping @Sendable (String, Ledger) throws -> RunnerSite
    ) {
        self.folder = folder
        self.lanes = lanes
        self.clock = clock
        self.reports = reports
        self.makeSite = makeSite
    }

    /// A runner's ledger as the log names it.
    static func logName(of runner: String) -> String {
        "the ledger of the runner \(runner)"
    }

    /// The site of the runner named `name`, opened now if it is not yet; nil when no runner of
    /// that name has a ledger in the folder, or when `token` is given and the ledger's gate
    /// refuses it (a session's requests give none: its token was checked at sign-in).
    /// - Throws: ``RunnerUnavailable`` when the ledger cannot be opened (damaged, unreadable).
    func site(named name: String, presenting token: String?) async throws -> RunnerSite? {
        guard folder.holdsLedger(of: name) else {
            _ = sites.withLock { $0.removeValue(forKey: name) }
            return nil
        }
        if let site = sites.withLock({ $0[name] }) { return site }
        if let token, TokenGate.verdict(on: token, ledgerAt: folder.ledgerPath(of: name)) == .refused { return nil }
        if let failure = failures.withLock({ $0[name] }), ContinuousClock.now - failure.at < Self.retryAfterFailure {
            throw RunnerUnavailable(runner: name, reason: failure.error)
        }
        // Opening reads the disk: on a quick-lane thread, one runner at a time (LMDB allows
        // one environment per file in a process).
        do {
            return try await lanes.quick.runIfActive { try self.open(name) }
        } catch {
            failures.withLock { $0[name] = (.now, "\(error)") }
            reports.found(
                Self.logName(of: name),
                "cannot be opened: \(error); check it with `stride --ledger \(folder.ledgerPath(of: name)) ledger verify` (tried again at the first request after \(Self.retryAfterFailure))"
            )
            throw RunnerUnavailable(runner: name, reason: "\(error)")
        }
    }

    /// The sites open now.
    var openSites: [RunnerSite] { sites.withLock { Array($0.values) } }

    private func open(_ name: String) throws -> RunnerSite? {
        try opening.withLock { _ in
            if let site = sites.withLock({ $0[name] }) { return site }
            guard folder.holdsLedger(of: name) else { return nil }
            let ledger = try Ledger.open(at: folder.ledgerPath(of: name), clock: clock)
            // A ledger an earlier Stride wrote gets its gate now.
            try ledger.writeTokenGate()
            let site = try makeSite(name, ledger)
            sites.withLock { $0[name] = site }
            if failures.withLock({ $0.removeValue(forKey: name) }) != nil { reports.readable(Self.logName(of: name)) }
            return site
        }
    }
}

/// A runner's ledger that cannot be opened: its runner's clients get 503.
struct RunnerUnavailable: Error {
    let runner: String
    /// Why, as opening it said.
    let reason: String
}
