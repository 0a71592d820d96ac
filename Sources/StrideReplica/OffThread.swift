import Dispatch
import Foundation
import StrideEvents
import StrideStore
import Synchronization

/// Work on the ledgers that may wait on LMDB's writer lock or fold many events: on a queue of
/// the copy's own, never on the threads that answer requests.
enum OffThread {
    private static let queue = DispatchQueue(label: "stride.replica.ledgers", qos: .utility)

    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body() }) }
        }
    }
}

/// Keeps each ledger's copy position (``LMDBEventStore/replicaPosition()``) in the background,
/// the latest only: writing it may wait behind an ingest's long commit, and the copy never
/// waits for it (the table, not the position, says where the copy stands).
final class PositionWriter: Sendable {
    private struct Entry {
        var store: LMDBEventStore
        var wanted: UInt64
        var written: UInt64?
        var isScheduled = false
    }

    private let queue = DispatchQueue(label: "stride.replica.positions", qos: .utility)
    /// By ledger folder.
    private let positions = Mutex<[String: Entry]>([:])

    func keep(_ sequence: UInt64, for store: LMDBEventStore) {
        let path = store.directory
        let schedule = positions.withLock { positions in
            var entry = positions[path] ?? Entry(store: store, wanted: sequence)
            entry.wanted = sequence
            defer { positions[path] = entry }
            guard entry.written != sequence, !entry.isScheduled else { return false }
            entry.isScheduled = true
            return true
        }
        if schedule { queue.async { self.write(path) } }
    }

    private func write(_ path: String) {
        while let entry = positions.withLock({ positions -> Entry? in
            guard let entry = positions[path], entry.written != entry.wanted else {
                positions[path]?.isScheduled = false
                return nil
            }
            return entry
        }) {
            try? entry.store.setReplicaPosition(entry.wanted)
            positions.withLock { $0[path]?.written = entry.wanted }
        }
    }

    /// Waits for the positions being written.
    func flush() {
        queue.sync {}
    }
}

/// A runner's ledger a follower makes from the table: written in a folder of its own, then
/// moved into place, so the server never serves half a first batch.
enum FollowedLedger {
    static func begin(at path: String, with batch: [StoredEvent]) throws {
        let url = URL(fileURLWithPath: path)
        let scratch = url.deletingLastPathComponent().appendingPathComponent(".following-" + url.lastPathComponent).path
        try? FileManager.default.removeItem(atPath: scratch)
        do {
            let store = try LMDBEventStore(directory: scratch)
            try store.restore(batch)
        }
        try FileManager.default.moveItem(atPath: scratch, toPath: path)
    }
}
