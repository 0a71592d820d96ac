import Glibc
import NIOPosix

/// The threads every ledger a server serves runs its work on: LMDB ties a write transaction
/// to its thread and every ledger call blocks, so none runs on the server's event loops or
/// Swift's cooperative pool. One set of lanes serves one runner or two hundred: threads are
/// not multiplied by runners.
///
/// Two lanes, so that a token check or a day's record never waits behind a replay:
/// - the **quick lane** (4 threads) takes token checks, reads, pages and actions — work
///   bounded by a request's size or a page's range;
/// - the **heavy lane** (``ServerSettings/heavyWorkers`` threads) takes work that grows with
///   the ledger or the body: ingests, pushes, replays and pages as recorded. It admits at most
///   ``ServerSettings/heavyAdmitted`` requests at once across all runners (running or waiting,
///   an upload in flight included), and each ``LedgerWorker`` admits at most its own share.
///   Its threads run at a lower priority (``yieldToReads()``).
final class WorkLanes: Sendable {
    let quick: NIOThreadPool
    let heavy: NIOThreadPool
    /// The heavy requests admitted at once, across every ledger.
    let heavyPlaces: Quota
    /// The most heavy requests admitted at once, across every ledger.
    var heavyLimit: Int { heavyPlaces.limit }

    init(quickThreads: Int = 4, heavyThreads: Int, heavyAdmitted: Int) {
        quick = NIOThreadPool(numberOfThreads: quickThreads)
        quick.start()
        heavy = NIOThreadPool(numberOfThreads: heavyThreads)
        heavy.start()
        heavyPlaces = Quota(limit: max(heavyAdmitted, heavyThreads))
    }

    /// Lowers the calling thread's scheduling priority (nice 10): a heavy-lane thread takes
    /// the processor only when reads leave it free, so one runner's ingest slows the others'
    /// reads as little as the machine allows. (On Linux `setpriority` on process 0 sets the calling
    /// thread's nice value alone.)
    static func yieldToReads() {
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
    }

    /// Stops the threads once the work queued has run.
    func shutdown() async throws {
        try await quick.shutdownGracefully()
        try await heavy.shutdownGracefully()
    }
}
