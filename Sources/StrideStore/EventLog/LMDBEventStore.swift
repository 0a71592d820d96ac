import StrideEvents
import Glibc

/// The event log of a ledger, in LMDB.
///
/// Databases:
/// - `events`: sequence (integer key) → envelope, appended in order;
/// - `keys`: idempotency key → sequence, checked in the appending transaction;
/// - `entities`: entity kind and id → the sequences about it (sorted duplicates);
/// - `types`: type code → the sequences of that type (sorted duplicates);
/// - `meta`: the storage format.
///
/// Appends take LMDB's single writer lock, so several processes appending at once are
/// serialised: sequences stay gap-free and unique.
public final class LMDBEventStore: EventStore {
    /// The storage format this version writes; a ledger with a higher one is refused.
    public static let storageFormat: UInt32 = 1
    /// The map size of a new ledger; it grows by itself.
    public static let defaultInitialMapSize = 64 << 20

    let environment: Environment
    let eventsDatabase: Database
    let keysDatabase: Database
    let entitiesDatabase: Database
    let typesDatabase: Database
    let metaDatabase: Database

    /// The directory holding the ledger's files.
    public var directory: String { environment.directory }

    /// Opens the log in `directory`, creating the directory (mode 0700) and files (0600).
    /// - Throws: ``LMDBError``, or ``LedgerFormatError`` when a newer Stride wrote the ledger.
    public init(directory: String, initialMapSize: Int = LMDBEventStore.defaultInitialMapSize) throws {
        environment = try Environment(directory: directory, initialMapSize: initialMapSize, maxDatabases: 16)
        let sequenceList: Database.Flags = [.duplicateSort, .duplicateFixed, .integerDuplicates]
        let databases = try environment.openDatabases([
            ("events", [.integerKeys]), ("keys", []), ("entities", sequenceList),
            ("types", sequenceList.union(.integerKeys)), ("meta", []),
        ])
        (eventsDatabase, keysDatabase, entitiesDatabase, typesDatabase, metaDatabase) =
            (databases[0], databases[1], databases[2], databases[3], databases[4])
        try checkFormat()
    }

    private func checkFormat() throws {
        let key = Array("format".utf8)
        try environment.write { transaction in
            if let stored = try transaction.bytes(in: metaDatabase, forKey: key) {
                let format = stored.count == 4 ? stored.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) } : 0
                guard format <= Self.storageFormat else {
                    throw LedgerFormatError(directory: directory, format: format)
                }
            } else {
                try transaction.put(withUnsafeBytes(of: Self.storageFormat) { Array($0) }, forKey: key, in: metaDatabase)
            }
        }
    }

    /// The map size now, in bytes (it grows as the ledger does).
    public var mapSize: Int { environment.mapSize }

    /// Reader slots of dead processes that were cleared when the ledger opened.
    public var staleReadersCleared: Int { environment.staleReadersCleared }

    // MARK: Appending

    public func append(_ events: [PendingEvent], expecting: [VersionExpectation], recordedAt: Timestamp) throws
        -> AppendOutcome
    {
        guard !events.isEmpty || !expecting.isEmpty else { return AppendOutcome(sequences: [], lastSequence: try lastSequence()) }
        return try environment.write { transaction in
            let (lastSequence, lastHash) = try tail(in: transaction)
            return try LogAppender.append(
                events, expecting: expecting, recordedAt: recordedAt, after: lastSequence, lastHash: lastHash,
                version: { try version(of: $0, in: transaction) },
                claimKey: { key, sequence in
                    try withUnsafeBytes(of: key.value) { key in
                        try withUnsafeBytes(of: sequence) { sequence in
                            try transaction.put(sequence, forKey: key, in: keysDatabase, flags: .noOverwrite)
                        }
                    }
                },
                store: { sequence, entity, typeCode, envelope in
                    try withUnsafeBytes(of: sequence) { sequenceBytes in
                        // Appends can only go after the tail; a refusal means the log is damaged.
                        let stored = try transaction.put(envelope, forKey: sequenceBytes, in: eventsDatabase, flags: .append)
                        let indexedByEntity = try Self.withEntityKey(entity) { key in
                            try transaction.put(sequenceBytes, forKey: key, in: entitiesDatabase, flags: .noDuplicateData)
                        }
                        let indexedByType = try withUnsafeBytes(of: UInt32(typeCode)) { key in
                            try transaction.put(sequenceBytes, forKey: key, in: typesDatabase, flags: .appendDuplicate)
                        }
                        guard stored, indexedByEntity, indexedByType else {
                            throw EventLogFault(sequence: sequence, problem: "the log or its indexes already hold this sequence; run `stride verify`")
                        }
                    }
                }
            ).outcome
        }
    }

    /// The last sequence and its chain hash (0 and the genesis hash for an empty log).
    func tail(in transaction: borrowing Transaction) throws -> (UInt64, ChainHash) {
        try transaction.withCursor(eventsDatabase) { cursor in
            guard let last = try cursor.last() else { return (0, ChainHash.genesis) }
            let sequence = last.integerKey
            guard last.value.count >= 32,
                let hash = ChainHash(bytes: UnsafeRawBufferPointer(rebasing: last.value[(last.value.count - 32)...]))
            else { throw EventLogFault(sequence: sequence, problem: "it is too short to hold a chain hash") }
            return (sequence, hash)
        }
    }

    /// Calls `body` with an entity's 17-byte index key: the kind, then the id big-endian.
    static func withEntityKey<R>(_ entity: EntityReference, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeTemporaryAllocation(byteCount: 17, alignment: 1) { buffer in
            buffer[0] = entity.kind.rawValue
            buffer.storeBytes(of: entity.id.bigEndian, toByteOffset: 1, as: UInt128.self)
            return try body(UnsafeRawBufferPointer(buffer))
        }
    }

    private func version(of entity: EntityReference, in transaction: borrowing Transaction) throws -> UInt64 {
        try transaction.withCursor(entitiesDatabase) { cursor in
            try Self.withEntityKey(entity) { key in
                guard try cursor.seek(exactly: key) != nil else { return 0 }
                return UInt64(try cursor.duplicateCount())
            }
        }
    }

    // MARK: Reading

    public func lastSequence() throws -> UInt64 {
        try environment.read { try tail(in: $0).0 }
    }

    /// The last sequence and its chain hash, read in one snapshot.
    public func head() throws -> (sequence: UInt64, hash: ChainHash) {
        try environment.read { try tail(in: $0) }
    }

    public func scan(from: UInt64, through: UInt64, _ visit: (RecordedEvent) throws -> Bool) throws {
        try environment.read { transaction in
            try transaction.withCursor(eventsDatabase) { cursor in
                var entry = try cursor.seek(atOrAfter: max(from, 1))
                while let current = entry {
                    let sequence = current.integerKey
                    guard sequence <= through else { return }
                    let event = try Self.decode(current.value, sequence: sequence)
                    guard try visit(event) else { return }
                    entry = try cursor.next()
                }
            }
        }
    }

    public func events(ofType type: EventType, from: UInt64, limit: Int) throws -> [RecordedEvent] {
        try environment.read { transaction in
            var sequences: [UInt64] = []
            try transaction.withCursor(typesDatabase) { cursor in
                try withUnsafeBytes(of: UInt32(type.code)) { key in
                    try withUnsafeBytes(of: max(from, 1)) { start in
                        var entry = try cursor.seek(key: key, valueAtOrAfter: start)
                        while let current = entry, sequences.count < limit {
                            sequences.append(current.integerValue)
                            entry = try cursor.nextDuplicate()
                        }
                    }
                }
            }
            return try events(at: sequences, in: transaction)
        }
    }

    public func events(about entity: EntityReference) throws -> [RecordedEvent] {
        try environment.read { transaction in
            var sequences: [UInt64] = []
            try transaction.withCursor(entitiesDatabase) { cursor in
                try Self.withEntityKey(entity) { key in
                    var entry = try cursor.seek(exactly: key)
                    while let current = entry {
                        sequences.append(current.integerValue)
                        entry = try cursor.nextDuplicate()
                    }
                }
            }
            return try events(at: sequences, in: transaction)
        }
    }

    private func events(at sequences: [UInt64], in transaction: borrowing Transaction) throws -> [RecordedEvent] {
        try sequences.map { sequence in
            guard let event = try transaction.value(in: eventsDatabase, forKey: sequence, { try Self.decode($0, sequence: sequence) })
            else { throw EventLogFault(sequence: sequence, problem: "an index names it but the log does not hold it") }
            return event
        }
    }

    public func version(of entity: EntityReference) throws -> UInt64 {
        try environment.read { try version(of: entity, in: $0) }
    }

    public func contains(_ key: IdempotencyKey) throws -> Bool {
        try environment.read { transaction in
            try withUnsafeBytes(of: key.value) { try transaction.value(in: keysDatabase, forKey: $0) { _ in true } } ?? false
        }
    }

    public func storedEvents(from: UInt64, through: UInt64, _ visit: (StoredEvent) throws -> Bool) throws {
        try environment.read { transaction in
            try transaction.withCursor(eventsDatabase) { cursor in
                var entry = try cursor.seek(atOrAfter: max(from, 1))
                while let current = entry, current.integerKey <= through {
                    guard try visit(StoredEvent(sequence: current.integerKey, bytes: Array(current.value))) else { return }
                    entry = try cursor.next()
                }
            }
        }
    }

    static func decode(_ bytes: UnsafeRawBufferPointer, sequence: UInt64) throws -> RecordedEvent {
        do {
            return try Envelope.decodeEvent(bytes)
        } catch {
            throw EventLogFault(sequence: sequence, problem: "it cannot be decoded (\(error)); run `stride verify`")
        }
    }

    /// Writes a compact copy of the ledger into `directory`, which must not hold one already.
    /// - Throws: ``LMDBError`` when the copy cannot be written.
    public func backup(toDirectory directory: String) throws {
        try environment.copy(toDirectory: directory)
    }
}

/// A ledger written by a newer Stride, in a storage format this version cannot read.
public struct LedgerFormatError: Error, CustomStringConvertible {
    /// The ledger's directory.
    public var directory: String
    /// Its storage format.
    public var format: UInt32

    public var description: String {
        "the ledger at \(directory) has storage format \(format), newer than this Stride's \(LMDBEventStore.storageFormat); upgrade Stride to open it"
    }
}

extension LMDBEventStore {
    /// The number of events of each type code, read from the type index.
    public func countsByType() throws -> [UInt16: Int] {
        try environment.read { transaction in
            try transaction.withCursor(typesDatabase) { cursor in
                var counts: [UInt16: Int] = [:]
                var entry = try cursor.first()
                while let current = entry {
                    let code = current.key.count == 4 ? UInt16(truncatingIfNeeded: current.key.loadUnaligned(as: UInt32.self)) : 0
                    counts[code] = try cursor.duplicateCount()
                    entry = try withUnsafeBytes(of: UInt32(code) + 1) { try cursor.seek(atOrAfter: $0) }
                }
                return counts
            }
        }
    }

    /// The size of the ledger's data file on disk, in bytes.
    public var fileSize: Int {
        var status = stat()
        return stat(directory + "/data.mdb", &status) == 0 ? Int(status.st_size) : 0
    }
}
