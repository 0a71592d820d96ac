import Glibc
import StrideEvents
import StrideProjection

/// The event log of a ledger, in LMDB.
///
/// Databases:
/// - `events`: sequence (integer key) → envelope, appended in order;
/// - `keys`: idempotency key → ``KeyEntry`` (the sequence holding it), checked in the
///   appending transaction;
/// - `entities`: entity → the sequences about it (sorted duplicates), except the events
///   whose entity id *is* their idempotency key (a sample's or a workout's recording),
///   which `keys` already finds;
/// - `typeRuns`: first sequence (integer key) → type code, for each run of consecutive
///   events of one type (an ingest's batch is a few runs, not thousands of entries);
/// - `meta`: the storage format;
/// - `shortIDs`: samples and workouts by the short id people type, kept up by its lookups
///   (see ``entities(of:shortIDPrefix:limit:)``);
/// - `recorded`: the rises of the recording time, for finding a point of the past by instant
///   (see ``sequence(recordedBy:)``);
/// - `projectionMeta`: each projection's version and checkpoint; `projection:NAME`: its rows;
///   `snapshots`: the small projections' rows as they stood at points of the log (see
///   ``snapshotInterval``).
///
/// Index keys are big-endian so that they sort as numbers: sample and workout identities
/// begin with their start time (see ``SampleIdentity``), so an ingest's batch inserts into a
/// few neighbouring pages instead of touching every page of the index.
///
/// Appends take LMDB's single writer lock, so several processes appending at once are
/// serialised: sequences stay gap-free and unique.
public final class LMDBEventStore: EventStore {
    /// The storage format this version writes; a ledger with a higher one is refused.
    ///
    /// Format 2: the `keys` index may hold aliases (``KeyAlias``), which a Stride of format 1
    /// would take for damage; a format-1 ledger is read as it is, and raised to 2 by the
    /// upgrade of its identities (see the ledger's `IdentityUpgrade`).
    public static let storageFormat: UInt32 = 2
    /// The map size of a new ledger; it grows by itself.
    public static let defaultInitialMapSize = 64 << 20

    let environment: Environment
    let eventsDatabase: Database
    let keysDatabase: Database
    let entitiesDatabase: Database
    let typeRunsDatabase: Database
    let metaDatabase: Database
    let projectionMetaDatabase: Database
    let recordedDatabase: Database
    let snapshotsDatabase: Database
    let shortIDsDatabase: Database
    let projectionDatabases = ProjectionDatabases()

    /// The directory holding the ledger's files.
    public var directory: String { environment.directory }

    /// When the small projections' snapshots are taken.
    public let snapshotPolicy: SnapshotPolicy

    /// Every how many events the small projections' snapshots are taken.
    public var snapshotInterval: UInt64 { snapshotPolicy.interval }

    /// How many times a read catches up with events another process appended without folding
    /// them before it reads on figures that lag the log (``view(caughtUp:_:)``).
    public let catchUpRounds: Int

    /// Opens the log in `directory`, creating the directory (mode 0700) and files (0600).
    /// - Parameters:
    ///   - snapshots: when snapshots are taken.
    ///   - catchUpRounds: how many times a read catches up before it reads on lagging figures
    ///     (3; a test passes 0 to read them at once).
    /// - Throws: ``LMDBError``, or ``LedgerFormatError`` when a newer Stride wrote the ledger.
    public init(
        directory: String, initialMapSize: Int = LMDBEventStore.defaultInitialMapSize, snapshots: SnapshotPolicy = SnapshotPolicy(),
        catchUpRounds: Int = 3
    ) throws {
        snapshotPolicy = snapshots
        self.catchUpRounds = max(0, catchUpRounds)
        environment = try Environment(directory: directory, initialMapSize: initialMapSize, maxDatabases: 32)
        // The format is checked (or, in a new ledger, written) in the transaction that opens
        // the databases: creating a ledger commits once.
        let databases = try environment.openDatabases([
            ("events", [.integerKeys]), ("keys", []),
            ("entities", [.duplicateSort, .duplicateFixed, .integerDuplicates]), ("typeRuns", [.integerKeys]), ("meta", []),
            ("projectionMeta", []), ("recorded", []), ("snapshots", []), ("shortIDs", []),
        ]) { databases, transaction in try Self.checkFormat(of: directory, meta: databases[4], in: transaction) }
        (eventsDatabase, keysDatabase, entitiesDatabase, typeRunsDatabase, metaDatabase, projectionMetaDatabase) =
            (databases[0], databases[1], databases[2], databases[3], databases[4], databases[5])
        (recordedDatabase, snapshotsDatabase, shortIDsDatabase) = (databases[6], databases[7], databases[8])
    }

    private static func checkFormat(of directory: String, meta: Database, in transaction: borrowing Transaction) throws {
        let key = Array("format".utf8)
        if let stored = try transaction.bytes(in: meta, forKey: key) {
            let format = stored.count == 4 ? stored.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) } : 0
            guard format <= storageFormat else { throw LedgerFormatError(directory: directory, format: format) }
        } else {
            try transaction.put(withUnsafeBytes(of: storageFormat) { Array($0) }, forKey: key, in: meta)
        }
    }

    /// The map size now, in bytes (it grows as the ledger does).
    public var mapSize: Int { environment.mapSize }

    /// Reader slots of dead processes that were cleared when the ledger opened.
    public var staleReadersCleared: Int { environment.staleReadersCleared }

    public func append(
        _ events: [PendingEvent], expecting: [VersionExpectation], recordedAt: Timestamp
    ) throws
        -> AppendOutcome
    {
        try append(events, expecting: expecting, recordedAt: recordedAt, projections: [], reactions: [])
    }

    /// Appends a batch and, in the same write transaction, brings projections up to date
    /// with it and lets reactions answer it: one commit holds the events, the rows they
    /// changed, the checkpoints and any events the reactions appended, so projections never
    /// lag the log and a reaction's events are never lost to a crash between two commits.
    ///
    /// - Parameters:
    ///   - projections: brought up to the new last event (from wherever they stood).
    ///   - reactions: asked, after the fold, for events answering the appended ones; those
    ///     are appended and folded in the same transaction, and answered in turn, until none
    ///     answers (``reactionRounds`` rounds at most: beyond, ``ReactionsUnsettled``).
    /// - Throws: as ``append(_:expecting:recordedAt:)``, a ``ProjectionFailure``, or
    ///   ``ReactionsUnsettled`` (nothing is appended then).
    public func append(
        _ events: [PendingEvent], expecting: [VersionExpectation], recordedAt: Timestamp, projections: [any Projection],
        reactions: [any LedgerReaction] = []
    ) throws -> AppendOutcome {
        guard !events.isEmpty || !expecting.isEmpty else { return AppendOutcome(sequences: [], lastSequence: try lastSequence()) }
        let databases = try rowsDatabases(projections)
        return try environment.write { transaction in
            var (lastSequence, lastHash, lastTypeCode) = try tail(in: transaction)
            let previousLast = lastSequence
            var indexer = LogIndexer(store: self, lastTypeCode: lastTypeCode)
            let checkpoints = try prepare(projections, databases: databases, in: transaction)
            if checkpoints.contains(where: { $0 < lastSequence }) {
                _ = try fold(
                    projections, databases: databases, checkpoints: checkpoints, through: lastSequence,
                    from: .log(committed: true), in: transaction)
            }
            var outcome = try appendInTransaction(
                events, expecting: expecting, recordedAt: recordedAt, after: lastSequence, lastHash: &lastHash,
                indexer: &indexer, in: transaction)
            // A few codes: a linear look beats hashing, asked once per appended event.
            let answeredCodes = Array(Set(reactions.flatMap { $0.answeredTypes.map(\.code) }))
            var answered = try Self.eventsToAnswer(events, sequences: outcome.sequences, codes: answeredCodes, recordedAt: recordedAt)
            var round = 0
            while true {
                if outcome.lastSequence > lastSequence, !projections.isEmpty {
                    // The batch itself from memory, as projections see each event; the reactions'
                    // events, read back from the log.
                    let source: FoldSource =
                        round == 0 ? .appended(events, sequences: outcome.sequences, recordedAt: recordedAt) : .log(committed: false)
                    _ = try fold(
                        projections, databases: databases, checkpoints: projections.map { _ in lastSequence },
                        through: outcome.lastSequence, from: source, in: transaction)
                }
                lastSequence = outcome.lastSequence
                guard !answered.isEmpty else { break }
                // Reactions answer each other at most a few times (an assignment answering a run,
                // a note answering the assignment); one that keeps answering is a defect, and
                // nothing of the batch is committed rather than a half-answered one.
                guard round < Self.reactionRounds else {
                    throw ReactionsUnsettled(rounds: round, unanswered: Set(answered.map { $0.content.typeName }).sorted())
                }
                let state = StoredProjectionState(
                    reader: transaction.reader, databases: Dictionary(uniqueKeysWithValues: zip(projections.map(\.name), databases)))
                let followUps = try reactions.flatMap { try $0.react(to: answered, state: state) }
                guard !followUps.isEmpty else { break }
                let more = try appendInTransaction(
                    followUps, expecting: [], recordedAt: recordedAt, after: lastSequence, lastHash: &lastHash, indexer: &indexer,
                    in: transaction)
                outcome.followUps += zip(followUps, more.sequences).compactMap { event, sequence in sequence.map { _ in event } }
                answered = try Self.eventsToAnswer(followUps, sequences: more.sequences, codes: answeredCodes, recordedAt: recordedAt)
                outcome.lastSequence = more.lastSequence
                round += 1
            }
            // The whole batch, reactions' events included, shares one recording time.
            try indexRecordingTimes(
                after: previousLast, through: outcome.lastSequence, runs: [(previousLast + 1, recordedAt)], in: transaction)
            return outcome
        }
    }

    /// How many times reactions may answer the events the reactions before them appended.
    public static let reactionRounds = 4

    /// The appended events (those given a sequence) of the types some reaction answers, as
    /// projections see them.
    private static func eventsToAnswer(
        _ events: [PendingEvent], sequences: [UInt64?], codes: [UInt16], recordedAt: Timestamp
    ) throws -> [ProjectionEvent] {
        guard !codes.isEmpty else { return [] }
        var answered: [ProjectionEvent] = []
        for index in events.indices {
            guard let sequence = sequences[index], codes.contains(events[index].typeCode) else { continue }
            answered.append(try ProjectionEvent(events[index], sequence: sequence, recordedAt: recordedAt))
        }
        return answered
    }

    /// The append algorithm inside an open write transaction.
    private func appendInTransaction(
        _ events: [PendingEvent], expecting: [VersionExpectation], recordedAt: Timestamp, after lastSequence: UInt64,
        lastHash: inout ChainHash, indexer: inout LogIndexer, in transaction: borrowing Transaction
    ) throws -> AppendOutcome {
        // One cursor each for the log and the key index, kept for the whole batch: every
        // event is one put into each.
        let result = try transaction.withCursor(eventsDatabase) { eventCursor in
            try transaction.withCursor(keysDatabase) { keyCursor in
                try LogAppender.append(
                    events, expecting: expecting, recordedAt: recordedAt, after: lastSequence, lastHash: lastHash,
                    version: { try version(of: $0, in: transaction) },
                    claimKey: { entity, key, sequence in
                        try indexer.claim(key, for: entity, sequence: sequence, through: &keyCursor)
                    },
                    holder: { key in try indexer.holder(of: key, through: &keyCursor) },
                    store: { sequence, entity, key, typeCode, envelope in
                        try withUnsafeBytes(of: sequence) { sequenceBytes in
                            // Appends only go after the tail; a refusal means the log is damaged.
                            guard try eventCursor.put(envelope, forKey: sequenceBytes, flags: .append) else {
                                throw EventLogFault(sequence: sequence, problem: "the log already holds it; run `stride verify`")
                            }
                        }
                        try indexer.index(sequence: sequence, entity: entity, key: key, typeCode: typeCode, in: transaction)
                    })
            }
        }
        lastHash = result.lastHash
        return result.outcome
    }

    /// The last sequence, its chain hash and its type code (0, the genesis hash and nil for
    /// an empty log).
    func tail(in transaction: borrowing Transaction) throws -> (UInt64, ChainHash, UInt16?) {
        try transaction.withCursor(eventsDatabase) { cursor in
            guard let last = try cursor.last() else { return (0, ChainHash.genesis, nil) }
            let sequence = last.integerKey
            guard last.value.count >= Envelope.fixedHeaderSize + Envelope.trailerSize,
                let hash = ChainHash(bytes: UnsafeRawBufferPointer(rebasing: last.value[(last.value.count - 32)...]))
            else { throw EventLogFault(sequence: sequence, problem: "it is too short to be an event; run `stride verify`") }
            return (sequence, hash, Envelope.typeCode(ofStored: last.value))
        }
    }

    /// Runs `body` reading through one view of the ledger: every read it makes, on this
    /// thread, sees the one snapshot the view opened (one LMDB read transaction), so that what
    /// it gathers from several reads — a tag and a document, a token and a figure — comes from
    /// one state. Nothing is caught up inside it: bring projections up to date before.
    /// - Throws: what `body` throws, or a storage failure.
    public func view<R>(_ body: () throws -> R) throws -> R {
        try environment.view(body)
    }

    /// Runs `body` in a ``view(_:)`` in which every one of `projections` has folded the whole
    /// log: the view checks that first, in its own snapshot (one transaction in all, the usual
    /// case); when another process appended since, the view is closed, the projections caught
    /// up, and a new view opened.
    /// - Throws: what `body` throws, what ``catchUp(_:roundSize:progress:)`` throws, or a storage failure.
    public func view<R>(caughtUp projections: [any Projection], _ body: () throws -> R) throws -> R {
        if isInView { return try body() }
        // A projection's database is opened (once a process) in a write transaction: before.
        _ = try rowsDatabases(projections)
        var attempts = 0
        while true {
            attempts += 1
            // After a few rounds of catching up with a writer that keeps appending, the view
            // read is still one state: it only lags the newest events (``foldedPoint(of:)`` says
            // by how much, so that nothing keeps or tags it as the log's).
            let result: R? = try view {
                guard try attempts > catchUpRounds || isCaughtUp(projections) else { return nil }
                return .some(try body())
            }
            if let result { return result }
            try catchUp(projections)
        }
    }

    /// Whether the code running now reads through a ``view(_:)`` of this store.
    public var isInView: Bool { environment.isInView }

    /// Lets go of the ledger's pages mapped into this process (they stay in the kernel's
    /// page cache): called between an ingest's batches, it keeps the process's resident
    /// memory from growing with the ledger.
    public func releaseMappedPages() {
        environment.releaseMappedPages()
    }

    /// Reserves disk space for the next `bytes` of the log, so that a long run of appends
    /// (an ingest) does not make the file system allocate at every commit; best effort.
    /// ``releaseReservedSpace()`` gives back what is left unused.
    /// - Returns: whether space is reserved (false where the file system cannot reserve).
    @discardableResult
    public func reserveSpace(ahead bytes: Int) -> Bool {
        environment.reserveSpace(ahead: bytes)
    }

    /// Gives back disk space ``reserveSpace(ahead:)`` reserved and the log did not use.
    /// - Throws: ``LMDBError`` when the write transaction cannot be had.
    public func releaseReservedSpace() throws {
        try environment.releaseReservedSpace()
    }

    /// Writes a compact copy of the ledger into `directory`, which must not hold one already.
    /// - Throws: ``LMDBError`` when the copy cannot be written.
    public func backup(toDirectory directory: String) throws {
        try environment.copy(toDirectory: directory)
    }

    /// The size of the ledger's data file on disk, in bytes.
    public var fileSize: Int {
        var status = stat()
        return stat(directory + "/data.mdb", &status) == 0 ? Int(status.st_size) : 0
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

/// Reactions that kept answering each other past ``LMDBEventStore/reactionRounds`` rounds: a
/// defect in a reaction. The append is rolled back whole.
public struct ReactionsUnsettled: Error, CustomStringConvertible {
    /// The rounds answered before giving up.
    public var rounds: Int
    /// The types of the events still waiting for an answer.
    public var unanswered: [String]

    public var description: String {
        "the ledger's reactions kept answering each other after \(rounds) rounds (still answering \(unanswered.joined(separator: ", "))); nothing was appended — this is a defect in Stride, please report it"
    }
}
