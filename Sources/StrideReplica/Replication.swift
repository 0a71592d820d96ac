import Foundation
import Logging
import StrideEvents
import StrideLedger
import Synchronization

/// A server's side of the copy in PostgreSQL (`stride serve --replica ADDRESS` or
/// `--follow ADDRESS`): for each runner, either copies the ledger's new events to the table
/// (the runner's writer) or brings the ledger up to the table (a follower), in the background,
/// in batches, one runner after another, over one connection.
///
/// Who writes a runner's log is the table's to say (`stride_runners.writer`): a server with
/// `--replica` becomes the writer of a runner the table does not hold yet; a server with
/// `--follow` never does, and becomes one only by `stride runners promote NAME`. A follower keeps
/// a read-only copy of every runner the table holds; a server with `--replica` keeps following
/// only the runners whose ledgers it already holds (a former writer). An append to
/// the table copies sequence N only if the table's last is N−1 and names this server: a
/// server that was cut off and comes back is refused, stops taking that runner's writes and
/// says what to do (``RunnerRole/cutOff(_:)``).
///
/// PostgreSQL unreachable: the server goes on serving and appending; the copy says so
/// (``Status``), tries again every few seconds, and catches up.
public final class Replication: Sendable {
    /// How a server takes part.
    public enum Mode: Sendable {
        /// `--replica`: writes the runners whose ledgers it holds and the table gives it.
        case replica
        /// `--follow`: keeps copies of every runner the table holds; writes none until promoted.
        case follow
    }

    /// What this server does for one runner.
    public enum RunnerRole: Sendable, Hashable {
        /// Not yet known (the table not read since the start).
        case unknown
        /// This server writes the runner's log and copies it.
        case writer
        /// Another server writes it; this one keeps a read-only copy.
        case follower(writer: String)
        /// This server's ledger and the table disagree: it neither writes nor follows.
        case cutOff(Fence)
    }

    /// One runner's copy, as this server sees it.
    public struct RunnerCopy: Sendable, Hashable {
        public var role: RunnerRole = .unknown
        /// The ledger's last sequence.
        public var ledgerLast: UInt64 = 0
        /// The table's last sequence of the runner, as last seen.
        public var tableLast: UInt64 = 0
        /// Events one side holds that the other does not yet: a writer's events not yet
        /// copied, or a follower's not yet brought in.
        public var lag: UInt64 {
            switch role {
            case .follower: tableLast > ledgerLast ? tableLast - ledgerLast : 0
            default: ledgerLast > tableLast ? ledgerLast - tableLast : 0
            }
        }
    }

    /// The copy as a whole, for `/metrics`, the log and `stride runners list`.
    public struct Status: Sendable, Hashable {
        /// Whether PostgreSQL answered the last time it was asked.
        public var isReachable = false
        /// Why it did not, when it did not.
        public var problem: String?
        public var runners: [String: RunnerCopy] = [:]
    }

    public let address: ReplicaAddress
    public let mode: Mode
    /// This server's name in the table (``ServerName``).
    public let me: String
    /// The folder of the runners' ledgers.
    let folder: RunnersFolder
    private let logger: Logger
    /// The server's open ledger of a runner (opening it when needed); nil when it has none.
    private let ledger: @Sendable (String) async throws -> Ledger?
    private let state = Mutex(Status())
    private let table = Mutex<ReplicaTable?>(nil)
    /// Woken by ``nudge()``: a write was answered, or a write waits for its copy.
    private let wake: AsyncStream<Void>.Continuation
    private let wakes: AsyncStream<Void>
    /// Writes waiting for their runner's copy to reach a sequence.
    private let waiters = Mutex<[Waiter]>([])

    private struct Waiter {
        var id: UUID
        var runner: String
        var through: UInt64
        var continuation: CheckedContinuation<Bool, Never>
    }
    /// Where each copier position write stands: only the latest is written.
    private let positions = PositionWriter()
    /// The runners whose ledger could not be read at their last turn, and why.
    private let problems = Mutex<[String: String]>([:])

    /// The events copied or brought in per batch at most.
    static let batchEvents = 2_000
    /// How often the table is looked at when nothing wakes the copy.
    static let pollInterval: Duration = .milliseconds(200)
    /// How long to wait before asking an unreachable PostgreSQL again.
    static let retryInterval: Duration = .seconds(2)

    /// Connects and checks the tables (made when missing): wrong credentials or a table of
    /// another shape are an error now, at the start; an unreachable server is one only when
    /// `requireReachable`.
    public init(
        address: ReplicaAddress, mode: Mode, me: String, folder: RunnersFolder, logger: Logger,
        ledger: @escaping @Sendable (String) async throws -> Ledger?
    ) async throws(ReplicaError) {
        self.address = address
        self.mode = mode
        self.me = me
        self.folder = folder
        self.logger = logger
        self.ledger = ledger
        (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let opened = try await ReplicaTable.open(address, logger: Self.quiet(logger))
        table.withLock { $0 = opened }
        state.withLock { $0.isReachable = true }
    }

    /// postgres-nio's own lines are for its developers: only its errors reach the log.
    private static func quiet(_ logger: Logger) -> Logger {
        var logger = logger
        logger.logLevel = .error
        return logger
    }

    /// The copy now.
    public var status: Status { state.withLock { $0 } }

    /// The role of a runner now.
    public func role(of runner: String) -> RunnerRole {
        state.withLock { $0.runners[runner]?.role ?? .unknown }
    }

    /// Asks the copy to look at the ledgers now (a write was answered).
    public func nudge() {
        wake.yield()
    }

    /// Waits until the table holds the runner's events through `sequence`, or `timeout` has
    /// passed; returns whether it does.
    public func copied(_ runner: String, through sequence: UInt64, timeout: Duration) async -> Bool {
        if state.withLock({ ($0.runners[runner]?.tableLast ?? 0) >= sequence }) { return true }
        let id = UUID()
        return await withCheckedContinuation { continuation in
            // Registered before its timer starts, so that no timer is early for its waiter.
            waiters.withLock { $0.append(Waiter(id: id, runner: runner, through: sequence, continuation: continuation)) }
            Task {
                try? await Task.sleep(for: timeout)
                let expired = waiters.withLock { list in
                    defer { list.removeAll { $0.id == id } }
                    return list.first { $0.id == id }
                }
                expired?.continuation.resume(returning: false)
            }
            nudge()
            release()
        }
    }

    /// Answers the waiters whose events are copied (true), and those of a runner this server
    /// no longer writes (false: their events will not be copied from here).
    private func release() {
        let (reached, stopped) = state.withLock { status in
            (status.runners.mapValues(\.tableLast), Set(status.runners.filter { $0.value.isStopped || $0.value.isFollower }.keys))
        }
        let ready = waiters.withLock { list in
            let answered = list.filter { (reached[$0.runner] ?? 0) >= $0.through || stopped.contains($0.runner) }
            list.removeAll { waiter in answered.contains { $0.id == waiter.id } }
            return answered
        }
        for waiter in ready { waiter.continuation.resume(returning: (reached[waiter.runner] ?? 0) >= waiter.through) }
    }

    /// Copies until the task is cancelled.
    public func run() async {
        while !Task.isCancelled {
            await round()
            release()
            // The table's runners and the folder's are looked at every round; a round that found
            // work goes again at once.
            // (A runner whose ledger cannot be read waits for the next look, not in a loop.)
            let unreadable = problems.withLock { Set($0.keys) }
            let busy = state.withLock { status in
                status.isReachable && status.runners.contains { $0.value.lag > 0 && !$0.value.isStopped && !unreadable.contains($0.key) }
            }
            if !busy {
                await sleepUntilWoken(for: state.withLock(\.isReachable) ? Self.pollInterval : Self.retryInterval)
            }
        }
        await table.withLock { $0 }?.close()
        positions.flush()
    }

    private func sleepUntilWoken(for interval: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: interval) }
            group.addTask { [wakes] in
                var iterator = wakes.makeAsyncIterator()
                _ = await iterator.next()
            }
            await group.next()
            group.cancelAll()
        }
    }

    /// One look at every runner: the table's row and the ledger, then a batch either way.
    private func round() async {
        do {
            let table = try await connectedTable()
            let rows = Dictionary(uniqueKeysWithValues: try await table.runners().map { ($0.runner, $0) })
            let local = (try? folder.names()) ?? []
            for runner in Set(local).union(rows.keys).sorted() {
                do {
                    try await step(runner, row: rows[runner], table: table)
                    if problems.withLock({ $0.removeValue(forKey: runner) }) != nil {
                        logger.notice("replica: the ledger of \(runner) can be read again; its copy goes on")
                    }
                } catch let error as ReplicaError {
                    throw error
                } catch {
                    // One runner's ledger that cannot be read (damaged, unreadable) stops that
                    // runner's copy only: said once, tried again each round.
                    if problems.withLock({ $0.updateValue("\(error)", forKey: runner) }) == nil {
                        logger.error("replica: the ledger of \(runner) cannot be read (\(error)); its copy waits, the other runners' go on")
                    }
                }
            }
            state.withLock {
                if !$0.isReachable { logger.notice("replica: PostgreSQL at \(address) answers again; the copy catches up") }
                $0.isReachable = true
                $0.problem = nil
            }
        } catch {
            let problem = ReplicaError.from(error, address: address)
            let wasReachable = state.withLock { status in
                defer {
                    status.isReachable = false
                    status.problem = problem.description
                }
                return status.isReachable
            }
            if wasReachable {
                logger.error("replica: \(problem); the server goes on serving and appending, and copies when PostgreSQL answers again")
            }
            await dropConnection()
            await measureLedgers()
        }
    }

    /// While PostgreSQL is away, the lag still grows with each write: the ledgers' ends are read
    /// without the table.
    private func measureLedgers() async {
        let writers = state.withLock { $0.runners.filter { $0.value.role == .writer }.map(\.key) }
        for runner in writers {
            guard let ledger = try? await ledger(runner), let last = try? await OffThread.run({ try ledger.lastSequence() }) else { continue }
            update(runner) { $0.ledgerLast = last }
        }
    }

    private func connectedTable() async throws(ReplicaError) -> ReplicaTable {
        if let table = table.withLock({ $0 }), !table.isClosed { return table }
        await dropConnection()
        let opened = try await ReplicaTable.open(address, logger: Self.quiet(logger))
        table.withLock { $0 = opened }
        return opened
    }

    private func dropConnection() async {
        let old = table.withLock { table in
            defer { table = nil }
            return table
        }
        await old?.close()
    }

    /// One runner's turn.
    private func step(_ runner: String, row: ReplicaTable.RunnerRow?, table: ReplicaTable) async throws {
        let current = state.withLock { $0.runners[runner] ?? RunnerCopy() }
        if case .cutOff = current.role { return }
        let writer = row?.writer ?? (mode == .replica ? me : nil)
        guard let writer else { return }  // a follower's own ledger that the table does not hold: left alone
        if writer == me {
            try await copy(runner, row: row, table: table)
        } else if mode == .replica, !folder.holdsLedger(of: runner) {
            return  // another server's runner: only a follower (`--follow`) keeps copies of those
        } else {
            try await follow(runner, row: row!, table: table)
        }
    }

    /// The writer's turn: the ledger's events the table lacks, one batch.
    private func copy(_ runner: String, row: ReplicaTable.RunnerRow?, table: ReplicaTable) async throws {
        guard let ledger = try await ledger(runner) else { return }
        let store = ledger.store
        let tableLast = row?.lastSequence ?? 0
        // Read off the server's threads: the ledger's end, the hash where the table ends, a batch.
        let (ledgerLast, ledgerHashThere, batch) = try await OffThread.run { () throws -> (UInt64, ChainHash?, [CopiedEvent]) in
            let ledgerLast = try store.lastSequence()
            let hash = tableLast > 0 && tableLast <= ledgerLast ? try store.chainHash(at: tableLast) : nil
            var batch: [CopiedEvent] = []
            if ledgerLast > tableLast {
                try store.storedEvents(from: tableLast + 1, through: min(ledgerLast, tableLast + UInt64(Self.batchEvents))) { stored in
                    batch.append(try CopiedEvent(stored))
                    return true
                }
            }
            return (ledgerLast, hash, batch)
        }
        update(runner) {
            $0.role = .writer
            $0.ledgerLast = ledgerLast
            $0.tableLast = tableLast
        }
        // The table must hold a beginning of this ledger's log: the same hash at its last event.
        if tableLast > ledgerLast || (tableLast > 0 && row?.lastHash != ledgerHashThere) {
            return cutOff(
                runner, Fence(runner: runner, writer: row?.writer ?? me, me: me, tableLast: tableLast, ledgerLast: ledgerLast), diverged: true)
        }
        positions.keep(tableLast, for: store)
        guard !batch.isEmpty else { return }
        if let refused = try await table.append(batch, runner: runner, after: tableLast, as: me) {
            if refused.writer != me {
                return cutOff(
                    runner, Fence(runner: runner, writer: refused.writer, me: me, tableLast: refused.lastSequence, ledgerLast: ledgerLast),
                    diverged: false)
            }
            return  // the table moved (another round reads it again)
        }
        let copied = batch.last?.sequence ?? tableLast
        update(runner) { $0.tableLast = copied }
        positions.keep(copied, for: store)
        release()
    }

    /// The follower's turn: the table's events the ledger lacks, one batch, then the figures.
    private func follow(_ runner: String, row: ReplicaTable.RunnerRow, table: ReplicaTable) async throws {
        let path = folder.ledgerPath(of: runner)
        var ledgerLast: UInt64 = 0
        var ledgerHash = ChainHash.genesis
        let existing = folder.holdsLedger(of: runner) ? try await ledger(runner) : nil
        if let existing { (ledgerLast, ledgerHash) = try await OffThread.run { try existing.store.head() } }
        update(runner) {
            $0.role = .follower(writer: row.writer)
            $0.ledgerLast = ledgerLast
            $0.tableLast = row.lastSequence
        }
        let tableHashThere = ledgerLast > 0 && ledgerLast < row.lastSequence ? try await table.hash(of: runner, at: ledgerLast) : row.lastHash
        if ledgerLast > row.lastSequence || (ledgerLast > 0 && tableHashThere != ledgerHash) {
            return cutOff(
                runner, Fence(runner: runner, writer: row.writer, me: me, tableLast: row.lastSequence, ledgerLast: ledgerLast), diverged: true)
        }
        guard row.lastSequence > ledgerLast else { return }
        let batch = try await table.events(of: runner, after: ledgerLast, limit: Self.batchEvents)
        guard !batch.isEmpty else { return }
        // Writing and folding take a while: off the server's threads.
        try await OffThread.run {
            if let existing {
                try existing.store.restore(batch)
                try existing.catchUp()
            } else {
                try FollowedLedger.begin(at: path, with: batch)
            }
        }
        let brought = batch.last?.sequence ?? ledgerLast
        update(runner) { $0.ledgerLast = brought }
        if let existing { positions.keep(brought, for: existing.store) }
    }

    private func update(_ runner: String, _ change: (inout RunnerCopy) -> Void) {
        state.withLock { change(&$0.runners[runner, default: RunnerCopy()]) }
    }

    private func cutOff(_ runner: String, _ fence: Fence, diverged: Bool) {
        update(runner) { $0.role = .cutOff(fence) }
        logger.critical(
            "replica: \(diverged ? "this ledger of \(runner) and its copy in PostgreSQL differ" : "PostgreSQL refused \(runner)'s events"): \(fence)")
        release()
    }
}

extension Replication.RunnerCopy {
    /// Whether the copy of this runner has stopped (a cut-off server).
    var isStopped: Bool {
        if case .cutOff = role { return true }
        return false
    }

    /// Whether this server keeps a read-only copy of the runner's log.
    var isFollower: Bool {
        if case .follower = role { return true }
        return false
    }
}

extension Replication.RunnerCopy {
    /// The role as a word: `writer`, `follower`, `cut_off`, or `unknown`.
    public var roleLabel: String {
        switch role {
        case .unknown: "unknown"
        case .writer: "writer"
        case .follower: "follower"
        case .cutOff: "cut_off"
        }
    }
}
