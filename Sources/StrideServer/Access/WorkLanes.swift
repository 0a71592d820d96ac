import Glibc
import NIOPosix
import Synchronization

/// The threads every ledger a server serves runs its work on: LMDB ties a write transaction
/// to its thread and every ledger call blocks, so none runs on the server's event loops or
/// Swift's cooperative pool. One set of lanes serves one runner or two hundred: threads are
/// not multiplied by runners.
///
/// Two lanes, so that a token check or a day's record never waits behind a replay:
/// - the **quick lane** (4 threads) takes token checks, reads, pages and actions — work
///   bounded by a request's size or a page's range;
/// - the **heavy lane** (``ServerSettings/heavyWorkers`` threads) takes work that grows with
///   the ledger or the body: ingests, pushes, and every read that replays the log (as
///   recorded). It admits at most ``ServerSettings/heavyAdmitted`` requests at once across all
///   runners (running or waiting, an upload in flight included), and each ``LedgerWorker``
///   admits at most its own share. Admitted work waits in its ledger's own queue, and the
///   queues are taken in turn (``HeavyTurns``): one runner's queued work never runs before
///   another runner's first job. Its threads run at a lower priority (``yieldToReads()``).
final class WorkLanes: Sendable {
    let quick: NIOThreadPool
    private let heavy: NIOThreadPool
    /// The heavy lane's threads.
    let heavyThreads: Int
    /// The heavy requests admitted at once, across every ledger.
    let heavyPlaces: Quota
    /// The most heavy requests admitted at once, across every ledger.
    var heavyLimit: Int { heavyPlaces.limit }
    /// On a shared server, the heavy threads one runner's work may hold at once: all but one
    /// (at least one), so that another runner's first job finds a thread free.
    var heavyThreadsPerRunner: Int { max(1, heavyThreads - 1) }
    /// Whose heavy job runs next.
    private let turns: Mutex<HeavyTurns<ObjectIdentifier, CheckedContinuation<Void, any Error>>>
    private let lastJob = Atomic<UInt64>(0)
    /// Heavy jobs admitted and waiting for their turn.
    var heavyWaiting: Int { turns.withLock { $0.waitingCount } }

    init(quickThreads: Int = 4, heavyThreads: Int, heavyAdmitted: Int) {
        quick = NIOThreadPool(numberOfThreads: quickThreads)
        quick.start()
        self.heavyThreads = max(1, heavyThreads)
        heavy = NIOThreadPool(numberOfThreads: self.heavyThreads)
        heavy.start()
        heavyPlaces = Quota(limit: max(heavyAdmitted, self.heavyThreads))
        turns = Mutex(HeavyTurns(threads: self.heavyThreads))
    }

    /// Runs `body` on a heavy-lane thread once it is `ledger`'s turn: after the jobs already
    /// running, before the queued jobs of ledgers served more recently, with at most `share`
    /// of `ledger`'s jobs running at once. A job whose task is cancelled while it waits is not
    /// started.
    /// - Throws: `CancellationError` when the task is cancelled before its turn; what `body`
    ///   throws; a pool error once the server is shutting down.
    func runHeavy<T: Sendable>(for ledger: ObjectIdentifier, share: Int, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await waitForTurn(of: ledger, share: share)
        defer { endTurn(of: ledger) }
        return try await heavy.runIfActive {
            Self.yieldToReads()
            return try body()
        }
    }

    private func waitForTurn(of ledger: ObjectIdentifier, share: Int) async throws {
        let id = lastJob.add(1, ordering: .relaxed).newValue
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // Under the lock, so that a cancellation is either seen here or finds the job queued.
                let startsNow = turns.withLock { turns -> Bool? in
                    if Task.isCancelled { return nil }
                    return turns.arrive(continuation, id: id, of: ledger, share: share)
                }
                switch startsNow {
                case nil: continuation.resume(throwing: CancellationError())
                case true?: continuation.resume()
                case false?: break
                }
            }
        } onCancel: {
            turns.withLock { $0.leave(id, of: ledger) }?.resume(throwing: CancellationError())
        }
    }

    private func endTurn(of ledger: ObjectIdentifier) {
        for next in turns.withLock({ $0.finish(ledger) }) { next.resume() }
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
