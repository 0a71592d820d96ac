import Foundation
import StrideEvents
import StrideIngest
import StrideStore

/// What the upgrade of a ledger's identities found.
public struct IdentityUpgradeReport: Hashable, Sendable {
    /// Events read.
    public var eventsRead: UInt64 = 0
    /// Samples and workouts given the identity an export gives them today.
    public var identitiesAdded = 0
    /// Samples an earlier Stride appended twice (the same record of two exports), now
    /// counted once.
    public var sampleRepeats = 0
    /// Workouts an earlier Stride appended twice (already counted once, as copies of one run).
    public var workoutRepeats = 0
    /// Step awards brought in line with the days' steps counted once.
    public var stepAwards = StepAwardChanges()
    /// Wall time in seconds.
    public var seconds: Double = 0

    /// An upgrade that found nothing yet.
    public init() {}
}

/// How a caller follows the upgrade of a ledger's identities, which opening a ledger written
/// by an earlier Stride runs once.
public struct UpgradeObserver: Sendable {
    /// Called now and then with the events read and the events to read.
    public var progress: @Sendable (UInt64, UInt64) -> Void
    /// Called once the upgrade is complete.
    public var finished: @Sendable (IdentityUpgradeReport) -> Void

    /// An observer.
    public init(progress: @escaping @Sendable (UInt64, UInt64) -> Void, finished: @escaping @Sendable (IdentityUpgradeReport) -> Void) {
        self.progress = progress
        self.finished = finished
    }
}

extension Ledger {
    /// The meta number holding how far an interrupted upgrade had come.
    static let identityUpgradeReachedKey = "identityUpgradeReached"
    /// The events one round of the upgrade reads: its aliases, repeats and award corrections
    /// are committed before the next.
    static let identityUpgradeRound: UInt64 = 400_000

    /// Upgrades a ledger written by a Stride that identified an exported record by its
    /// attributes as written — the `HKDevice` memory address, new in every export, included —
    /// so that the same history exported twice was appended twice.
    ///
    /// Events are never edited. For every sample and workout whose device prints an address,
    /// the identity an export gives it today (its content, see `ExportContentIdentity`) is
    /// recorded as an alias of its event in the key index: a later export finds it there and
    /// appends nothing. A sample whose identity an earlier sample holds already is a repeat:
    /// a `sample.repeated` decision is appended for it, and every figure counts it once; the
    /// step awards of the days it doubled are brought in line. (A workout appended twice was
    /// already counted once, as a copy of one run.) The aliases are a rebuildable part of the
    /// ledger: `verify` checks each against its event.
    ///
    /// Runs in rounds, each committed with how far it came: an upgrade interrupted at any
    /// moment resumes where it stopped, and running it twice changes nothing. The ledger's
    /// storage format is raised to 2 at the end, so an earlier Stride no longer writes to it.
    /// - Returns: what it found, or nil when the ledger needed no upgrade.
    /// - Throws: a storage failure.
    @discardableResult
    func upgradeIdentitiesIfNeeded(progress: (UInt64, UInt64) -> Void = { _, _ in }) throws -> IdentityUpgradeReport? {
        guard try store.storedFormat() < LMDBEventStore.storageFormat else { return nil }
        let began = Date()
        var report = IdentityUpgradeReport()
        var reached = try store.metaNumber(Self.identityUpgradeReachedKey) ?? 0
        let last = try store.lastSequence()
        var identity = ExportContentIdentity()
        while reached < last {
            let end = min(last, reached + Self.identityUpgradeRound)
            var aliases: [KeyAlias] = []
            var subjects: [(entity: EntityReference, sample: SampleReference?)] = []
            try store.scan(from: reached + 1, through: end) { event in
                switch event.event {
                case .sampleRecorded(let sample):
                    if let key = identity.key(of: sample), key != event.idempotencyKey {
                        aliases.append(KeyAlias(key: key, sequence: event.sequence, kind: .sample))
                        subjects.append(
                            (
                                event.entity,
                                SampleReference(sequence: event.sequence, healthType: sample.healthType, start: sample.start, end: sample.end)
                            ))
                    }
                case .workoutRecorded(let workout):
                    if let key = identity.key(of: workout), key != event.idempotencyKey {
                        aliases.append(KeyAlias(key: key, sequence: event.sequence, kind: .workout))
                        subjects.append((event.entity, nil))
                    }
                default:
                    break
                }
                report.eventsRead += 1
                return true
            }
            let holders = try store.recordAliases(aliases)
            var repeats: [PendingEvent] = []
            var repeatedSamples: [SampleReference] = []
            for index in aliases.indices {
                guard let holder = holders[index] else {
                    report.identitiesAdded += 1
                    continue
                }
                // The alias names this very event: an earlier round, interrupted, recorded it.
                guard holder != aliases[index].sequence else { continue }
                guard let sample = subjects[index].sample else {
                    report.workoutRepeats += 1
                    continue
                }
                repeats.append(
                    PendingEvent(
                        .sampleRepeated(SampleRepeated(sample: sample, original: holder)), occurredAt: sample.start,
                        entity: subjects[index].entity, idempotencyKey: SampleRepeated.key(sample: sample.sequence)))
                repeatedSamples.append(sample)
            }
            if !repeats.isEmpty {
                try append(repeats)
                report.sampleRepeats += repeats.count
                let changes = try reconcileStepAwards(for: stepDays(of: repeatedSamples), cause: "a repeat of an earlier export counted once")
                report.stepAwards.awarded += changes.awarded
                report.stepAwards.reversed += changes.reversed
            }
            try store.setMetaNumber(Self.identityUpgradeReachedKey, end)
            reached = end
            progress(reached, last)
        }
        try store.setStoredFormat(LMDBEventStore.storageFormat)
        report.seconds = Date().timeIntervalSince(began)
        return report
    }
}
