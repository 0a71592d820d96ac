import Foundation
import StrideLedger
import Synchronization

/// The runners a shared server serves (`stride serve --ledgers DIR`): each runner's site,
/// opened at its first request and kept open.
///
/// Before each request is routed, the runner's ledger is looked for on disk (one `stat`): a
/// runner removed with `stride runners remove` is forgotten at once, and one added with
/// `stride runners add` is served at its first request, without a restart.
final class Runners: Sendable {
    let folder: RunnersFolder
    /// Makes a runner's site over its ledger, just opened.
    private let makeSite: @Sendable (String, Ledger) throws -> RunnerSite
    private let lanes: WorkLanes
    private let clock: any LedgerClock
    private let sites = Mutex<[String: RunnerSite]>([:])
    /// Held while a ledger is opened: one at a time, and never while a request only looks a
    /// site up.
    private let opening = Mutex(())

    init(folder: RunnersFolder, lanes: WorkLanes, clock: any LedgerClock, makeSite: @escaping @Sendable (String, Ledger) throws -> RunnerSite) {
        self.folder = folder
        self.lanes = lanes
        self.clock = clock
        self.makeSite = makeSite
    }

    /// The site of the runner named `name`, opened now if it is not yet; nil when no runner of
    /// that name has a ledger in the folder.
    /// - Throws: when the ledger cannot be opened (damaged, unreadable).
    func site(named name: String) async throws -> RunnerSite? {
        guard folder.holdsLedger(of: name) else {
            _ = sites.withLock { $0.removeValue(forKey: name) }
            return nil
        }
        if let site = sites.withLock({ $0[name] }) { return site }
        // Opening reads the disk: on a quick-lane thread, one runner at a time (LMDB allows
        // one environment per file in a process).
        return try await lanes.quick.runIfActive { try self.open(name) }
    }

    /// The sites open now.
    var openSites: [RunnerSite] { sites.withLock { Array($0.values) } }

    private func open(_ name: String) throws -> RunnerSite? {
        try opening.withLock { _ in
            if let site = sites.withLock({ $0[name] }) { return site }
            guard folder.holdsLedger(of: name) else { return nil }
            let site = try makeSite(name, try Ledger.open(at: folder.ledgerPath(of: name), clock: clock))
            sites.withLock { $0[name] = site }
            return site
        }
    }
}
