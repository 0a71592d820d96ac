/// Who runs next on the heavy lane: each ledger's waiting work in a queue of its own, the queues
/// taken in turn — the ledger served longest ago first — and no ledger on more than its share of
/// the lane's threads.
///
/// So one runner's queued uploads and replays never get ahead of another runner's first: that one
/// waits at most for a job already running, never for the queue behind it. A plain value, with no
/// threads or clock: ``WorkLanes`` keeps one behind a lock and starts what it answers.
struct HeavyTurns<Ledger: Hashable, Waiter> {
    /// The lane's threads: the most jobs running at once.
    let threads: Int
    /// Jobs running now, by ledger.
    private(set) var running: [Ledger: Int] = [:]
    /// Jobs running now, in all.
    private(set) var runningCount = 0
    /// Each ledger's waiting jobs, oldest first, with the id each was given.
    private var queues: [Ledger: [(id: UInt64, waiter: Waiter)]] = [:]
    /// Each ledger's share of the threads, as its last job said.
    private var shares: [Ledger: Int] = [:]
    /// When each ledger's latest job started (a count of starts), for the turns.
    private var lastStart: [Ledger: UInt64] = [:]
    /// When each ledger began waiting, for ledgers never served yet (first come, first served).
    private var waitingSince: [Ledger: UInt64] = [:]
    private var starts: UInt64 = 0
    private var arrivals: UInt64 = 0

    init(threads: Int) {
        self.threads = max(1, threads)
    }

    /// Jobs waiting, in all.
    var waitingCount: Int { queues.values.reduce(0) { $0 + $1.count } }

    /// A job of `ledger` (`id` names it for ``leave(_:of:)``) asks to run, on at most `share`
    /// threads at once for its ledger.
    /// - Returns: whether it starts now; otherwise it waits in its ledger's queue until
    ///   ``finish(_:)`` hands it a thread.
    mutating func arrive(_ waiter: Waiter, id: UInt64, of ledger: Ledger, share: Int) -> Bool {
        shares[ledger] = max(1, share)
        if queues[ledger, default: []].isEmpty, mayStart(ledger) {
            start(ledger)
            return true
        }
        arrivals += 1
        if queues[ledger, default: []].isEmpty { waitingSince[ledger] = arrivals }
        queues[ledger, default: []].append((id, waiter))
        return false
    }

    /// A job of `ledger` has ended, and frees its thread.
    /// - Returns: the waiting jobs that start now (at most one, unless shares changed), in turn.
    mutating func finish(_ ledger: Ledger) -> [Waiter] {
        running[ledger, default: 1] -= 1
        runningCount -= 1
        if running[ledger] == 0 { running[ledger] = nil }
        var started: [Waiter] = []
        while let next = nextLedger() {
            var queue = queues[next, default: []]
            let first = queue.removeFirst()
            queues[next] = queue.isEmpty ? nil : queue
            waitingSince[next] = nil
            if !queue.isEmpty {
                arrivals += 1
                waitingSince[next] = arrivals
            }
            start(next)
            started.append(first.waiter)
        }
        return started
    }

    /// A waiting job leaves (its client has gone).
    /// - Returns: the job, when it was still waiting (not started).
    mutating func leave(_ id: UInt64, of ledger: Ledger) -> Waiter? {
        guard var queue = queues[ledger], let index = queue.firstIndex(where: { $0.id == id }) else { return nil }
        let left = queue.remove(at: index).waiter
        queues[ledger] = queue.isEmpty ? nil : queue
        if queue.isEmpty { waitingSince[ledger] = nil }
        return left
    }

    private func mayStart(_ ledger: Ledger) -> Bool {
        runningCount < threads && running[ledger, default: 0] < shares[ledger, default: 1]
    }

    private mutating func start(_ ledger: Ledger) {
        running[ledger, default: 0] += 1
        runningCount += 1
        starts += 1
        lastStart[ledger] = starts
    }

    /// The ledger whose waiting job runs next: of those with a job waiting and a thread free
    /// within their share, the one served longest ago (never served first, then by when it began
    /// waiting).
    private func nextLedger() -> Ledger? {
        guard runningCount < threads else { return nil }
        let candidates = queues.keys.filter { mayStart($0) }
        return candidates.min { first, second in
            let (a, b) = (lastStart[first] ?? 0, lastStart[second] ?? 0)
            if a != b { return a < b }
            return waitingSince[first, default: .max] < waitingSince[second, default: .max]
        }
    }
}
