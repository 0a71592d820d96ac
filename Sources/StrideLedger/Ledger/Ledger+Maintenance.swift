import Foundation
import StrideEvents
import StrideStore

extension Ledger {
    /// Checks the whole log: sequences, checksums, the hash chain, payloads and indexes.
    /// - Throws: a storage error when the files cannot be read at all.
    public func verify(progress: (UInt64) -> Void = { _ in }) throws -> LogVerification {
        try store.verify(progress: progress)
    }

    /// Checks the log at `path` without opening it as a ledger first, so that a ledger
    /// whose first event is damaged can still be verified (and the damage named).
    /// - Throws: ``LedgerError/notFound(path:)``, or a storage error.
    public static func verify(at path: String, progress: (UInt64) -> Void = { _ in }) throws -> LogVerification {
        guard FileManager.default.fileExists(atPath: path + "/data.mdb") else { throw LedgerError.notFound(path: path) }
        return try LMDBEventStore(directory: path).verify(progress: progress)
    }

    /// Writes a compact, consistent copy of the ledger into `directory` (created; it must
    /// not exist yet, or be empty). The copy is a ledger: `stride --ledger DIR` opens it.
    /// - Throws: ``LedgerError/fileExists(path:)`` or a storage error.
    public func backup(to directory: String) throws {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: directory, isDirectory: &isDirectory) {
            let contents = (try? manager.contentsOfDirectory(atPath: directory)) ?? ["?"]
            guard isDirectory.boolValue, contents.isEmpty else { throw LedgerError.fileExists(path: directory) }
        }
        // Written beside the target and renamed into place: a backup interrupted half-way
        // leaves no half ledger under the name asked for.
        let temporary = PartialFiles.path(for: directory)
        PartialFiles.removeStale(of: directory)
        try? manager.removeItem(atPath: temporary)
        do {
            try store.backup(toDirectory: temporary)
            if manager.fileExists(atPath: directory) { try manager.removeItem(atPath: directory) }
            try manager.moveItem(atPath: temporary, toPath: directory)
        } catch let error as LMDBError {
            try? manager.removeItem(atPath: temporary)
            throw LedgerError.unwritable(path: directory, reason: error.message)
        } catch {
            try? manager.removeItem(atPath: temporary)
            throw LedgerError.unwritable(path: directory, reason: "\(error)")
        }
    }

    /// The sequence of the last event appended (0 for an empty log): the log's length, and
    /// the tag a reader of the ledger is current to.
    /// - Throws: a storage failure.
    public func lastSequence() throws -> UInt64 {
        try store.lastSequence()
    }

    /// The event at `sequence`, nil when the log holds none there.
    /// - Throws: a storage failure, or an `EventLogFault` for an event that cannot be read.
    public func event(at sequence: UInt64) throws -> RecordedEvent? {
        try store.event(at: sequence)
    }

    /// At most `limit` events just before sequence `before`, by sequence: the page of the log
    /// that ends there (sequences have no gaps).
    /// - Throws: a storage failure.
    public func events(before: UInt64, limit: Int) throws -> [RecordedEvent] {
        let count = UInt64(max(0, limit))
        guard before > 1, count > 0 else { return [] }
        let first = before > count ? before - count : 1
        return try events(from: first, limit: Int(before - first), type: nil)
    }

    /// Events from a sequence on, optionally of one type, at most `limit`.
    /// - Throws: a storage failure.
    public func events(from: UInt64, limit: Int, type: EventType?) throws -> [RecordedEvent] {
        if let type { return try store.events(ofType: type, from: from, limit: limit) }
        var events: [RecordedEvent] = []
        guard limit > 0 else { return events }
        try store.scan(from: from) { event in
            events.append(event)
            return events.count < limit
        }
        return events
    }
}

extension Ledger {
    /// How far the copy of this log in PostgreSQL was last seen to reach (`stride serve
    /// --replica`); 0 when it was never copied.
    public func replicaPosition() throws -> UInt64 {
        try store.replicaPosition()
    }
}
