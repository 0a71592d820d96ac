import Foundation
import Logging
import StrideEvents
import StrideLedger
import StrideStore

/// A runner's log read back from PostgreSQL: restored into a new ledger
/// (`stride ledger restore --from`), or compared with a ledger (`stride ledger verify --against`).
public enum ReplicaCopy {
    /// What a restore wrote.
    public struct Restored: Sendable, Hashable {
        public var events: UInt64
        public var lastHash: ChainHash
        /// Seconds spent reading, writing and checking the events, and rebuilding the figures.
        public var copySeconds: Double
        public var rebuildSeconds: Double
    }

    /// How many events are read from the table at once.
    static let restoreBatch = 10_000

    /// Writes the runner's log from the table into a new ledger at `path`, checking every
    /// event's checksum and chain link as it goes, then folds the projections. The ledger is
    /// written in a folder beside `path` and moved there only once whole: a restore cut short
    /// leaves nothing at `path` (run it again).
    /// - Throws: ``ReplicaError`` (unreachable, no such runner, a broken copy), or
    ///   ``LedgerError/alreadyExists`` when `path` holds a ledger.
    public static func restore(
        _ runner: String, from address: ReplicaAddress, into path: String, logger: Logger, progress: @Sendable (UInt64, UInt64) -> Void = { _, _ in }
    ) async throws -> Restored {
        guard !FileManager.default.fileExists(atPath: path + "/data.mdb") else {
            throw ReplicaError.refused("a ledger is already at \(path): restore into a new folder, or remove that one first")
        }
        let table = try await ReplicaTable.open(address, logger: logger)
        defer { Task { await table.close() } }
        guard let row = try await table.runner(runner) else { throw ReplicaError.noSuchRunner(runner, address) }
        let scratch = path + ".restoring"
        try? FileManager.default.removeItem(atPath: scratch)
        let started = ContinuousClock.now
        var after: UInt64 = 0
        do {
            let store = try LMDBEventStore(directory: scratch)
            while after < row.lastSequence {
                let batch = try await table.events(of: runner, after: after, limit: restoreBatch)
                guard let last = batch.last else { break }
                do {
                    try store.restore(batch)
                } catch let fault as EventLogFault {
                    throw ReplicaError.brokenCopy(runner: runner, sequence: fault.sequence, problem: fault.problem)
                }
                after = last.sequence
                progress(after, row.lastSequence)
            }
            let head = try store.head()
            guard head.sequence == row.lastSequence, head.hash == row.lastHash else {
                throw ReplicaError.brokenCopy(
                    runner: runner, sequence: head.sequence + 1,
                    problem: "the table says the log ends at \(row.lastSequence) with another hash than the events it holds")
            }
        } catch {
            try? FileManager.default.removeItem(atPath: scratch)
            throw error
        }
        let copied = ContinuousClock.now
        let ledger = try Ledger.open(at: scratch)
        try ledger.catchUp()
        let rebuilt = ContinuousClock.now
        let lastHash = try ledger.store.head().hash
        try FileManager.default.createDirectory(
            atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path, withIntermediateDirectories: true)
        if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
        try FileManager.default.moveItem(atPath: scratch, toPath: path)
        return Restored(
            events: after, lastHash: lastHash, copySeconds: (copied - started).seconds, rebuildSeconds: (rebuilt - copied).seconds)
    }

    /// How a ledger and its copy compare.
    public struct Comparison: Sendable, Hashable {
        public var ledgerLast: UInt64
        public var tableLast: UInt64
        /// The first sequence at which they differ (an event of other bytes, or one side ends);
        /// nil when they agree.
        public var firstDifference: UInt64?
        public var agree: Bool { firstDifference == nil }
    }

    /// Compares the ledger's log with the runner's copy, event by event (their bytes, and so their
    /// hashes).
    public static func compare(_ ledger: Ledger, runner: String, with address: ReplicaAddress, logger: Logger) async throws -> Comparison {
        let table = try await ReplicaTable.open(address, logger: logger)
        defer { Task { await table.close() } }
        guard let row = try await table.runner(runner) else { throw ReplicaError.noSuchRunner(runner, address) }
        let ledgerLast = try ledger.store.lastSequence()
        var after: UInt64 = 0
        while after < min(ledgerLast, row.lastSequence) {
            let batch = try await table.events(of: runner, after: after, limit: restoreBatch)
            guard let last = batch.last else { break }
            var index = 0
            var difference: UInt64?
            try ledger.store.storedEvents(from: after + 1, through: last.sequence) { stored in
                if index >= batch.count || batch[index] != stored {
                    difference = index < batch.count ? min(stored.sequence, batch[index].sequence) : stored.sequence
                    return false
                }
                index += 1
                return true
            }
            if difference == nil, index < batch.count { difference = batch[index].sequence }
            if let difference { return Comparison(ledgerLast: ledgerLast, tableLast: row.lastSequence, firstDifference: difference) }
            after = last.sequence
        }
        let difference = ledgerLast == row.lastSequence ? nil : min(ledgerLast, row.lastSequence) + 1
        return Comparison(ledgerLast: ledgerLast, tableLast: row.lastSequence, firstDifference: difference)
    }
}

extension Duration {
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

extension ReplicaCopy {
    /// What a promotion found.
    public enum Promotion: Sendable, Hashable {
        /// This server now writes the runner's log, from this sequence on.
        case promoted(after: UInt64, formerWriter: String)
        /// It already did.
        case alreadyWriter
    }

    /// Makes the server of `folder` the runner's writer in the table (`stride runners promote`):
    /// only when its copy of the runner's ledger holds every event the table holds — the same
    /// last sequence and hash — so the log goes on from where the table ends, never forked.
    /// The former writer, if it comes back, is refused at its next copy and stops writing.
    /// - Throws: ``ReplicaError``: no such runner, or a copy behind or other than the table's.
    public static func promote(_ runner: String, in folder: RunnersFolder, address: ReplicaAddress, logger: Logger) async throws -> Promotion {
        let me = try ServerName.of(folder)
        let table = try await ReplicaTable.open(address, logger: logger)
        defer { Task { await table.close() } }
        guard let row = try await table.runner(runner) else { throw ReplicaError.noSuchRunner(runner, address) }
        if row.writer == me { return .alreadyWriter }
        guard folder.holdsLedger(of: runner) else {
            throw ReplicaError.refused(
                "this server holds no ledger of \(runner) at \(folder.ledgerPath(of: runner)): follow the table first (`stride serve --ledgers \(folder.path) --follow ADDRESS`) or restore it (`stride ledger restore`)"
            )
        }
        let head = try LMDBEventStore(directory: folder.ledgerPath(of: runner)).head()
        guard head.sequence == row.lastSequence, head.hash == row.lastHash || row.lastSequence == 0 else {
            throw ReplicaError.refused(
                head.sequence < row.lastSequence
                    ? "this server's copy of \(runner) holds \(head.sequence) events, the table \(row.lastSequence): let the follower catch up (`stride runners list` shows the lag), then promote"
                    : "this server's ledger of \(runner) differs from the table's log (\(head.sequence) events here, \(row.lastSequence) there): restore it from the table (`stride ledger restore`) before promoting"
            )
        }
        guard try await table.promote(runner, to: me, expectingLast: row.lastSequence) else {
            throw ReplicaError.refused("\(row.writer) copied more of \(runner)'s log meanwhile: let this server catch up, then promote again")
        }
        return .promoted(after: row.lastSequence, formerWriter: row.writer)
    }
}

extension ReplicaCopy {
    /// One runner's log as the table holds it.
    public struct RunnerInTable: Sendable, Hashable {
        /// The server that writes it.
        public var writer: String
        /// Its last sequence copied.
        public var lastSequence: UInt64
    }

    /// Every runner the table holds, by name.
    public static func runners(at address: ReplicaAddress, logger: Logger) async throws -> [String: RunnerInTable] {
        let table = try await ReplicaTable.open(address, logger: logger)
        defer { Task { await table.close() } }
        return Dictionary(
            uniqueKeysWithValues: try await table.runners().map { ($0.runner, RunnerInTable(writer: $0.writer, lastSequence: $0.lastSequence)) })
    }
}
