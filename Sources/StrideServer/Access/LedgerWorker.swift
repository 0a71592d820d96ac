import HTTPTypes
import NIOPosix
import StrideLedger

/// Runs one ledger's work on the server's ``WorkLanes``: reads and actions in the quick lane,
/// work that grows with the ledger or the body in the heavy lane.
///
/// The heavy lane admits this ledger's requests up to ``heavyLimit`` at once (its share of
/// the lanes') and the lanes' own limit across all ledgers; beyond either, a request is 503
/// with `Retry-After`. Admitted work waits in this ledger's own queue and runs on at most
/// ``heavyThreads`` of the lane's threads at once, the ledgers' queues taken in turn. So on a
/// shared server one runner's uploads and replays leave places and threads for another's, and
/// nobody's reads ever wait in the heavy lane.
final class LedgerWorker: Sendable {
    let ledger: Ledger
    let lanes: WorkLanes
    /// This ledger's share of the heavy lane's places.
    private let heavyPlaces: Quota
    /// The most heavy requests of this ledger admitted at once.
    var heavyLimit: Int { heavyPlaces.limit }
    /// The most of this ledger's heavy jobs running at once (the others wait their turn).
    let heavyThreads: Int
    /// Where every call tells whether the ledger could be read.
    private let health: LedgerHealth

    /// A worker on lanes shared with other ledgers: at most `heavyLimit` heavy requests
    /// admitted, running on at most `heavyThreads` threads at once. Its calls tell `reports`
    /// when the ledger, `name`d so in the log, is found damaged and when it can be read again.
    init(ledger: Ledger, name: String, lanes: WorkLanes, heavyLimit: Int, heavyThreads: Int, reports: DamageReports) {
        self.ledger = ledger
        self.lanes = lanes
        heavyPlaces = Quota(limit: max(1, heavyLimit))
        self.heavyThreads = max(1, heavyThreads)
        health = LedgerHealth(name: name, path: ledger.path, reports: reports)
    }

    /// Runs `body` with the ledger on a quick-lane thread and returns what it returns.
    /// - Throws: what `body` throws, or a pool error once the server is shutting down.
    func run<T: Sendable>(_ body: @escaping @Sendable (Ledger) throws -> T) async throws -> T {
        let (ledger, health) = (ledger, health)
        return try await lanes.quick.runIfActive { try health.watching { try body(ledger) } }
    }

    /// Runs `body` with the ledger on a heavy-lane thread at this ledger's turn
    /// (``WorkLanes/runHeavy(for:share:_:)``), within an admission taken by ``admitHeavy(_:)``.
    /// - Throws: what `body` throws; `CancellationError` when the request is cancelled before
    ///   its turn; a pool error once the server is shutting down.
    func runHeavy<T: Sendable>(_ body: @escaping @Sendable (Ledger) throws -> T) async throws -> T {
        let (ledger, health) = (ledger, health)
        return try await lanes.runHeavy(for: ObjectIdentifier(self), share: heavyThreads) { try health.watching { try body(ledger) } }
    }

    /// Runs `work` — which runs its ledger work with ``runHeavy(_:)`` — if the heavy lane
    /// admits one more request of this ledger, and frees its place however `work` ends.
    /// - Throws: ``APIError`` 503 with `Retry-After` when the lane is full; what `work` throws.
    func admitHeavy<T: Sendable>(_ work: () async throws -> T) async throws -> T {
        guard heavyPlaces.take(alongWith: lanes.heavyPlaces) else { throw busy }
        defer { heavyPlaces.giveBack(alongWith: lanes.heavyPlaces) }
        return try await work()
    }

    /// The answer when the heavy lane has no place for this ledger.
    private var busy: APIError {
        APIError(
            .serviceUnavailable,
            "the server is busy with ingests, replays or pages as recorded (\(heavyLimit) at once for a ledger, \(lanes.heavyLimit) in all); send this again in a few seconds",
            headers: [.retryAfter: "5"])
    }

    /// Runs `body` in the heavy lane, if it admits one more request (``admitHeavy(_:)``):
    /// for heavy work that has nothing to do before it reaches the ledger.
    /// - Throws: ``APIError`` 503 when the lane is full; what `body` throws.
    func runAdmittedHeavy<T: Sendable>(_ body: @escaping @Sendable (Ledger) throws -> T) async throws -> T {
        try await admitHeavy { try await runHeavy(body) }
    }
}
