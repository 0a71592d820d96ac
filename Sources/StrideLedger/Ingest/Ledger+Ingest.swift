import DailyHealth
import Foundation
import PointsBalance
import StrideEvents
import StrideIngest
import StrideStore

/// What ingesting one file did.
public struct FileIngestReport: Sendable {
    /// The file.
    public var file: String
    /// What it was.
    public var format: InputFormat
    /// What was read from it.
    public var counts: ReadCounts
    /// Events appended: what the file holds, and what settling an archive decided (not the
    /// `travel.zonesObserved` of its clocks: see ``zones``).
    public var appended: Int
    /// Events already in the ledger, skipped (for an export: what earlier exports brought),
    /// and those the file holds twice (``repeatedInFile``).
    public var duplicates: Int
    /// Of ``duplicates``, those the file itself holds twice (the second skipped): the same
    /// record written twice in one export, as the Health app now and then does.
    public var repeatedInFile = 0
    /// New runs assigned to the default shoe.
    public var autoAssigned: Int
    /// Points awarded for steps.
    public var stepAwards: [PointsAwarded]
    /// Step awards reversed: days whose steps went down (a sample deleted in Health).
    public var stepReversals: [PointsReversed] = []
    /// For an Apple Health export read whole: its date, and what it shows deleted in Health.
    public var export: ExportSettlement?
    /// For an account archive: the shoes it put on the rack and the runs on them.
    public var archive: ArchiveSettlement?
    /// What the file's clocks showed that the ledger did not know, and the days whose zone it
    /// moved (each now cut where it was lived; `stride travel explain DATE` says why).
    public var zones = ZonesLearned()
    /// Wall time in seconds.
    public var seconds: Double
    /// Bytes read (inflated, for a zip).
    public var bytes: Int
}

extension Ledger {
    /// Ingests a file: reads it on one thread while this one appends its batches, each
    /// batch in one write transaction. A batch already committed stays committed whatever
    /// happens after it; running the same ingest again appends only what is missing.
    ///
    /// A Health Auto Export document is converted whole before anything of it is appended
    /// (a broken one appends nothing); its points are versioned by
    /// `options.healthAutoExport.receivedAt` (the clock's now when nil), and its day buckets
    /// end at the ledger's local midnights unless `options.timeZone` names another zone.
    ///
    /// - Parameters:
    ///   - options: a Health Auto Export push's context (its `automation-aggregation`
    ///     header, when it was received), the format required, if any, and the device that
    ///     sent the file through the server (nil on the machine): recorded in every sample and
    ///     workout read, in the automatic assignments of its runs, and in the step awards.
    ///   - progress: called now and then from the reading thread.
    /// - Throws: `IngestError` naming the file and line, or a storage error; the batches
    ///   before the failure are committed.
    public func ingest(
        file: String, batchSize: Int = IngestReader.defaultBatchSize, options: IngestOptions = IngestOptions(),
        progress: @escaping @Sendable (IngestProgress) -> Void = { _ in }
    ) throws -> FileIngestReport {
        let began = Date()
        var options = options
        if options.healthAutoExport.receivedAt == nil { options.healthAutoExport.receivedAt = clock.now() }
        if options.timeZone == nil { options.timeZone = timeZone }
        options.scratchFolder = scratchFolder
        // The clock as reading begins: the summary judges a sample's start against it; the
        // daily records, against when its batch was recorded (seconds later at most).
        let readAt = options.readAt ?? clock.now()
        options.readAt = readAt
        let session = IngestSession(
            reading: file, batchSize: batchSize, options: options, dailyHealth: dailyHealth, store: store, progress: progress)
        // Append: each batch in one write transaction, its runs auto-assigned by the reactions.
        let lastBefore = try store.lastSequence()
        var tally = AppendTally(lastBefore: lastBefore)
        try session.forEachBatch { batch in
            tally.add(
                try store.append(
                    batch.events, expecting: [], recordedAt: clock.now(), projections: projections, reactions: reactions))
        }
        let (result, stepDays) = try session.finish()
        try catchUp()
        let (appended, duplicates, repeatedInFile, autoAssigned, seen) = (
            tally.appended, tally.duplicates, tally.repeatedInFile, tally.autoAssigned, tally.seen
        )
        let counts = result.counts
        let settlement = try counts.export.flatMap { coverage in
            try settleExport(
                coverage, seen: seen, appendedAfter: lastBefore, file: options.recordedName ?? file,
                records: counts.samples + counts.workouts + counts.activitySummaries,
                added: appended,
                alreadyInLedger: duplicates - repeatedInFile, sentBy: options.sentBy)
        }
        // What the file's clocks showed, once its samples are in: the days whose zone it moves
        // are re-cut as they are read, and their step awards decided again below (its event is
        // counted in `zones`, not among the file's own).
        let zones = try recordZones(counts.zoneObservations, file: options.recordedName ?? file)
        let beforeArchive = try store.lastSequence()
        let archive = try counts.archive.map { try settleArchive($0, shoeNames: options.shoeNames, sentBy: options.sentBy) }
        let settledEvents = Int(try store.lastSequence() - beforeArchive)
        // Step awards, once the last batch is in: for every day the file's steps touch (new or
        // already known, so that a re-run after a crash still awards what was missed), and the
        // days of the step samples it shows deleted.
        let withdrawnDays = self.stepDays(of: settlement?.withdrawn ?? [])
        let stepChanges = try reconcileStepAwards(
            for: try zonedStepDays(stepDays.union(withdrawnDays)).union(zones.daysMoved),
            cause: Self.stepAwardCause(withdrawn: !withdrawnDays.isEmpty, zonesMoved: !zones.daysMoved.isEmpty),
            sentBy: options.sentBy)
        var report = FileIngestReport(
            file: file, format: result.format, counts: counts, appended: appended + settledEvents, duplicates: duplicates, autoAssigned: autoAssigned,
            stepAwards: stepChanges.awarded, seconds: Date().timeIntervalSince(began), bytes: result.bytes)
        report.stepReversals = stepChanges.reversed
        report.repeatedInFile = repeatedInFile
        report.export = settlement
        report.archive = archive
        report.zones = zones
        return report
    }
}

extension Ledger {
    /// Why an ingest's step awards changed, as the history shows it: samples Health deleted,
    /// days the file's clocks moved to another zone, both, or neither said (new samples).
    static func stepAwardCause(withdrawn: Bool, zonesMoved: Bool) -> String? {
        let causes = [withdrawn ? "samples deleted in Health" : nil, zonesMoved ? Self.zoneCutCause : nil].compactMap { $0 }
        return causes.isEmpty ? nil : causes.joined(separator: "; ")
    }
}

/// What the batches of one ingest appended, as they were appended.
private struct AppendTally {
    var appended = 0
    var duplicates = 0
    /// Of the duplicates, those the file holds twice (their first copy appended by this ingest).
    var repeatedInFile = 0
    var autoAssigned = 0
    /// The log's events the file holds again: what an export no longer holds was deleted.
    var seen: SeenSamples
    let lastBefore: UInt64

    init(lastBefore: UInt64) {
        self.lastBefore = lastBefore
        seen = SeenSamples(last: lastBefore)
    }

    mutating func add(_ result: AppendOutcome) {
        appended += result.appendedCount
        duplicates += result.duplicateCount
        for sequence in result.existingSequences {
            if sequence > lastBefore { repeatedInFile += 1 } else { seen.insert(sequence) }
        }
        autoAssigned += result.followUps.count { if case .event(.workoutAssigned) = $0.body { true } else { false } }
    }
}
