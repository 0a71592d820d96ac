import NIOPosix
import StrideLedger

/// Runs ledger work on threads of its own: LMDB ties a write transaction to its thread and
/// every ledger call blocks, so none runs on the server's event loops or Swift's cooperative
/// pool. A handful of threads: writers queue on LMDB's single writer anyway, readers never wait.
final class LedgerWorker: Sendable {
    let ledger: Ledger
    private let pool: NIOThreadPool

    init(ledger: Ledger, threads: Int = 4) {
        self.ledger = ledger
        pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
    }

    /// Runs `body` with the ledger on a worker thread and returns what it returns.
    /// - Throws: what `body` throws, or a pool error once the server is shutting down.
    func run<T: Sendable>(_ body: @escaping @Sendable (Ledger) throws -> T) async throws -> T {
        let ledger = ledger
        return try await pool.runIfActive { try body(ledger) }
    }

    /// Stops the threads once the work queued has run.
    func shutdown() async throws {
        try await pool.shutdownGracefully()
    }
}
