import DailyHealth
import Foundation
import StrideEvents
import StrideIngest
import StrideStore

/// One runner's ledger: the event log in a directory, its time zone, and a clock.
///
/// Opening never changes anything but the first creation: a ledger is created by
/// ``create(at:timeZone:clock:snapshots:)`` (`stride init`) alone. (It does remove the scratch
/// files a killed ingest left: see ``scratchFolder``.)
public final class Ledger: Sendable {
    /// The event log. Only the ledger reads and writes it; outside this module, the package's
    /// tests and `stride-bench` reach it (package access) to check what is on disk.
    package let store: LMDBEventStore
    /// The time zone local days are counted in, fixed when the ledger was created.
    public let timeZone: TimeZone
    /// The time zone's IANA identifier as given at creation (Foundation may call UTC "GMT").
    public let timeZoneIdentifier: String
    /// Where "now" comes from.
    public let clock: any LedgerClock
    /// The daily-health projection, made once: its calendar reads the zone's transitions.
    let dailyHealth: DailyHealthProjection
    /// The request this ledger acts for, when it was made by ``acting(for:)``.
    let request: RequestStamp?
    /// Daily records computed, kept while their days' facts are unchanged.
    let dailyRecordCache: DailyRecordCache
    /// The workouts, kept while the log is unchanged.
    let workoutListCache: WorkoutListCache
    /// The training log's runs as they stand, kept while the log and the day are unchanged.
    let trainingViewCache: TrainingViewCache
    /// The runner's clocks (the zone timeline and what files showed), kept while their inputs are unchanged.
    let localClocksCache: LocalClocksCache
    /// The ledger's directory.
    public var path: String { store.directory }
    /// Where its ingests keep the files they make while they read (`tmp`, 0700): what a
    /// killed ingest left there is removed when the ledger next opens.
    public var scratchFolder: ScratchFolder { ScratchFolder(path: path + "/tmp") }

    /// The default directory, `./stride.ledger`.
    public static let defaultPath = "stride.ledger"

    private init(store: LMDBEventStore, timeZone: (identifier: String, zone: TimeZone), clock: any LedgerClock) {
        self.store = store
        self.timeZone = timeZone.zone
        self.timeZoneIdentifier = timeZone.identifier
        self.clock = clock
        self.dailyHealth = DailyHealthProjection(timeZone: timeZone.zone)
        self.request = nil
        self.dailyRecordCache = DailyRecordCache()
        self.workoutListCache = WorkoutListCache()
        self.trainingViewCache = TrainingViewCache()
        self.localClocksCache = LocalClocksCache()
    }

    /// The same ledger, acting for one request (see ``acting(for:)``).
    private init(_ ledger: Ledger, request: RequestStamp) {
        store = ledger.store
        timeZone = ledger.timeZone
        timeZoneIdentifier = ledger.timeZoneIdentifier
        clock = ledger.clock
        dailyHealth = ledger.dailyHealth
        self.request = request
        dailyRecordCache = ledger.dailyRecordCache
        workoutListCache = ledger.workoutListCache
        trainingViewCache = ledger.trainingViewCache
        localClocksCache = ledger.localClocksCache
    }

    /// The ledger acting for one request a device sent with an idempotency key: the events an
    /// action appends through it carry keys derived from the request's (those that have none
    /// of their own), so the same request carried out again — after a crash lost its answer —
    /// appends nothing. Use it for one request, on one thread.
    public func acting(for request: RequestStamp) -> Ledger {
        Ledger(self, request: request)
    }

    /// Creates a new ledger; refuses a path that already holds one.
    /// - Parameter timeZone: an IANA identifier; nil takes the machine's.
    /// - Throws: ``LedgerError/alreadyExists(path:timeZone:)``, ``LedgerError/unknownTimeZone(_:)``,
    ///   or a storage error.
    /// - Parameter snapshots: when the small projections' snapshots are taken (tests take them
    ///   often, to cross their boundaries in a small ledger).
    /// - Parameter catchUpRounds: how many times a read catches up with another process's
    ///   unfolded events before it reads on figures behind the log (a test passes 0).
    public static func create(
        at path: String, timeZone: String?, clock: any LedgerClock = SystemClock(),
        snapshots: SnapshotPolicy = SnapshotPolicy(), catchUpRounds: Int = 3
    ) throws -> Ledger {
        let zone = try resolveTimeZone(timeZone)
        if let existing = try openExisting(at: path, clock: clock, snapshots: snapshots) {
            throw LedgerError.alreadyExists(path: path, timeZone: existing.timeZoneIdentifier)
        }
        return try openOrCreate(at: path, timeZone: zone, clock: clock, snapshots: snapshots, catchUpRounds: catchUpRounds)
    }

    /// Opens the ledger at `path`; a missing one is an error (only ``create(at:timeZone:clock:snapshots:)``
    /// makes one). A ledger written by an earlier Stride is upgraded first, once (see
    /// ``upgradeIdentitiesIfNeeded(progress:)``), told to `upgrade` when given.
    /// - Throws: ``LedgerError/notFound(path:)``, ``LedgerError/notADirectory(path:)``, or a storage error.
    public static func open(at path: String, clock: any LedgerClock = SystemClock(), upgrade: UpgradeObserver? = nil) throws -> Ledger {
        guard let existing = try openExisting(at: path, clock: clock) else { throw LedgerError.notFound(path: path) }
        existing.scratchFolder.removeLeftovers()
        if let report = try existing.upgradeIdentitiesIfNeeded(progress: upgrade?.progress ?? { _, _ in }) {
            upgrade?.finished(report)
        }
        try existing.regroupRunsIfNeeded()
        return existing
    }

    /// Whether `path` holds a ledger with at least its creation event.
    public static func exists(at path: String) -> Bool {
        (try? openExisting(at: path, clock: SystemClock())) != nil
    }

    private static func openExisting(
        at path: String, clock: any LedgerClock, snapshots: SnapshotPolicy = SnapshotPolicy()
    ) throws -> Ledger? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        guard isDirectory.boolValue else { throw LedgerError.notADirectory(path: path) }
        guard FileManager.default.fileExists(atPath: path + "/data.mdb") else { return nil }
        let store = try LMDBEventStore(directory: path, snapshots: snapshots)
        // A ledger whose creation never committed (a crash in `init`) is no ledger yet.
        guard let first = try store.event(at: 1) else { return nil }
        return Ledger(store: store, timeZone: try timeZone(of: first, path: path), clock: clock)
    }

    private static func openOrCreate(
        at path: String, timeZone: (identifier: String, zone: TimeZone), clock: any LedgerClock, snapshots: SnapshotPolicy,
        catchUpRounds: Int = 3
    )
        throws -> Ledger
    {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw LedgerError.notADirectory(path: path)
        }
        let store = try LMDBEventStore(directory: path, snapshots: snapshots, catchUpRounds: catchUpRounds)
        // The key makes creation idempotent: two processes creating at once append one event.
        let created = PendingEvent(
            .ledgerCreated(LedgerCreated(timeZone: timeZone.identifier)), occurredAt: clock.now(), entity: .ledger,
            idempotencyKey: IdempotencyKey(hashing: Array("ledger.created".utf8)))
        try Ledger(store: store, timeZone: timeZone, clock: clock).append([created])
        // A new ledger's runs are grouped by today's rule from the first.
        if try store.metaNumber(Self.sameRunRuleKey) == nil, try store.lastSequence() == 1 {
            try store.setMetaNumber(Self.sameRunRuleKey, Self.sameRunRule)
        }
        guard let first = try store.event(at: 1) else {
            throw LedgerError.damaged(path: path, problem: "its creation event is missing")
        }
        // Another process may have created it first, with its own time zone.
        return Ledger(store: store, timeZone: try self.timeZone(of: first, path: path), clock: clock)
    }

    private static func timeZone(of first: RecordedEvent, path: String) throws -> (identifier: String, zone: TimeZone) {
        guard case .ledgerCreated(let created) = first.event else {
            throw LedgerError.damaged(path: path, problem: "event 1 is \(first.event.typeName), not ledger.created")
        }
        guard let zone = TimeZone(identifier: created.timeZone) else {
            throw LedgerError.damaged(path: path, problem: "its time zone \(created.timeZone) is unknown to this machine")
        }
        return (created.timeZone, zone)
    }

    /// The time zone for an IANA identifier, or the machine's for nil.
    ///
    /// A zone is accepted when the system's tz database holds it (`$TZDIR`, else
    /// `/usr/share/zoneinfo`) — or Foundation lists it — and Foundation can make it:
    /// Foundation's own list misses many zones on Linux (`Asia/Kolkata`, `Etc/UTC`). The
    /// identifier is kept as given, for the ledger to record.
    /// - Throws: ``LedgerError/unknownTimeZone(_:)``.
    public static func resolveTimeZone(_ identifier: String?) throws -> (identifier: String, zone: TimeZone) {
        guard let identifier else { return (TimeZone.current.identifier, TimeZone.current) }
        guard
            TimeZoneDatabase.system.holds(identifier) || TimeZone.knownTimeZoneIdentifiers.contains(identifier)
                || ["UTC", "GMT"].contains(identifier),
            let zone = TimeZone(identifier: identifier)
        else { throw LedgerError.unknownTimeZone(identifier) }
        return (identifier, zone)
    }
}
