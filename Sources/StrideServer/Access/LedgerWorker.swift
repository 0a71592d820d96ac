import HTTPTypes
import NIOPosix
import StrideLedger
import Synchronization

/// Runs ledger work on threads of its own: LMDB ties a write transaction to its thread and
/// every ledger call blocks, so none runs on the server's event loops or Swift's cooperative
/// pool.
///
/// Two lanes, so that a token check or a day's record never waits behind a replay:
/// - the **quick lane** (``run(_:)``, 4 threads) takes token checks, reads, pages and actions —
///   work bounded by a request's size or a page's range;
/// - the **heavy lane** (``runHeavy(_:)``, ``ServerSettings/heavyWorkers`` threads) takes
///   work that grows with the ledger or the body: ingests, pushes, replays and pages of the
///   past. It admits at most ``ServerSettings/heavyAdmitted`` requests at once (running or
///   waiting, an upload in flight included); beyond that a request is 503 with `Retry-After`.
final class LedgerWorker: Sendable {
    let ledger: Ledger
    private let quick: NIOThreadPool
    private let heavy: NIOThreadPool
    private let heavyAdmitted: Mutex<Int>
    private let heavyLimit: Int

    init(ledger: Ledger, threads: Int = 4, heavyThreads: Int = 2, heavyAdmitted: Int = 4) {
        self.ledger = ledger
        quick = NIOThreadPool(numberOfThreads: threads)
        quick.start()
        heavy = NIOThreadPool(numberOfThreads: heavyThreads)
        heavy.start()
        self.heavyAdmitted = Mutex(0)
        heavyLimit = max(heavyAdmitted, heavyThreads)
    }

    /// Runs `body` with the ledger on a quick-lane thread and returns what it returns.
    /// - Throws: what `body` throws, or a pool error once the server is shutting down.
    func run<T: Sendable>(_ body: @escaping @Sendable (Ledger) throws -> T) async throws -> T {
        let ledger = ledger
        return try await quick.runIfActive { try body(ledger) }
    }

    /// Runs `body` with the ledger on a heavy-lane thread, within an admission taken by
    /// ``admitHeavy(_:)``.
    func runHeavy<T: Sendable>(_ body: @escaping @Sendable (Ledger) throws -> T) async throws -> T {
        let ledger = ledger
        return try await heavy.runIfActive { try body(ledger) }
    }

    /// Runs `work` — which runs its ledger work with ``runHeavy(_:)`` — if the heavy lane
    /// admits one more request, and frees its place however `work` ends.
    /// - Throws: ``APIError`` 503 with `Retry-After` when the lane is full; what `work` throws.
    func admitHeavy<T: Sendable>(_ work: () async throws -> T) async throws -> T {
        let admitted = heavyAdmitted.withLock { count in
            guard count < heavyLimit else { return false }
            count += 1
            return true
        }
        guard admitted else {
            throw APIError(
                .serviceUnavailable,
                "the server is busy with \(heavyLimit) ingests, replays or pages of the past; send this again in a few seconds",
                headers: [.retryAfter: "5"])
        }
        defer { heavyAdmitted.withLock { $0 -= 1 } }
        return try await work()
    }

    /// Runs `body` in the heavy lane, if it admits one more request (``admitHeavy(_:)``):
    /// for heavy work that has nothing to do before it reaches the ledger.
    /// - Throws: ``APIError`` 503 when the lane is full; what `body` throws.
    func runAdmittedHeavy<T: Sendable>(_ body: @escaping @Sendable (Ledger) throws -> T) async throws -> T {
        try await admitHeavy { try await runHeavy(body) }
    }

    /// Stops the threads once the work queued has run.
    func shutdown() async throws {
        try await quick.shutdownGracefully()
        try await heavy.shutdownGracefully()
    }
}
