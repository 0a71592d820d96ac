import Foundation
import SampleCounts
import StrideEvents
import StrideIngest
import StrideProjection

/// What an Apple Health export read whole told the ledger, beyond its new samples.
public struct ExportSettlement: Hashable, Sendable {
    /// When the export was made.
    public var exportDate: Timestamp
    /// The newest export read before, when it is newer than this one: an older export
    /// withdraws nothing.
    public var newerExportRead: Timestamp?
    /// The samples an earlier export held that this one no longer holds, withdrawn now
    /// (deleted in Health).
    public var withdrawn: [SampleReference]
}

extension Ledger {
    /// Records an Apple Health export read whole, and withdraws what it shows deleted in
    /// Health: a sample an earlier export held (one that came by an export, see
    /// ``SampleOrigin``), from a source this export also holds, starting inside the span its
    /// records cover, that it does not hold (`seen` has the log's events it held again).
    /// Nothing is withdrawn when an export newer than this one was read already. The
    /// `healthExport.ingested` event and the withdrawals are appended together, each once.
    /// - Returns: nil for an export that names no export date (nothing can be decided then).
    /// - Throws: a storage failure.
    func settleExport(
        _ coverage: ExportCoverage, seen: SeenSamples, file: String, records: Int, added: Int, alreadyInLedger: Int, sentBy: String?
    ) throws -> ExportSettlement? {
        guard let exportDate = coverage.exportDate else { return nil }
        let newest = try newestExportDate()
        var withdrawn: [(entity: EntityReference, sample: SampleReference)] = []
        if newest.map({ exportDate >= $0 }) ?? true, let first = coverage.earliestStart, let last = coverage.latestStart {
            withdrawn = try samplesNoLongerHeld(by: coverage, seen: seen, from: first, through: last)
        }
        let ingested = HealthExportIngested(
            exportDate: exportDate, file: (file as NSString).lastPathComponent, records: records, added: added,
            alreadyInLedger: alreadyInLedger, withdrawn: withdrawn.count, sentBy: sentBy)
        var events = [
            PendingEvent(
                .healthExportIngested(ingested), occurredAt: exportDate, entity: .ledger,
                idempotencyKey: HealthExportIngested.key(exportDate: exportDate))
        ]
        events += withdrawn.map { entity, sample in
            PendingEvent(
                .sampleWithdrawn(SampleWithdrawn(sample: sample, cause: .deletedInHealth(exportDate: exportDate), sentBy: sentBy)),
                occurredAt: exportDate, entity: entity, idempotencyKey: SampleWithdrawn.key(entity: entity, exportDate: exportDate))
        }
        try append(events)
        return ExportSettlement(
            exportDate: exportDate, newerExportRead: newest.flatMap { $0 > exportDate ? $0 : nil }, withdrawn: withdrawn.map(\.sample))
    }

    /// The export date of the newest Apple Health export ingested whole, if any.
    /// - Throws: a storage failure.
    public func newestExportDate() throws -> Timestamp? {
        try store.events(ofType: .healthExportIngested, from: 1, limit: .max).compactMap { event in
            if case .healthExportIngested(let ingested) = event.event { ingested.exportDate } else { nil }
        }.max()
    }

    /// The samples of the log an export shows deleted: see ``settleExport(_:seen:file:records:added:alreadyInLedger:sentBy:)``.
    private func samplesNoLongerHeld(
        by coverage: ExportCoverage, seen: SeenSamples, from first: Timestamp, through last: Timestamp
    ) throws -> [(entity: EntityReference, sample: SampleReference)] {
        let statuses = try state(of: SampleCountsProjection())
        let candidates = try store.sequences(of: .sample, startingFrom: first, through: last) { !seen.contains($0) }
        var found: [(entity: EntityReference, sample: SampleReference)] = []
        var syncEntitiesFound = Set<EntityReference>()
        for start in stride(from: 0, to: candidates.count, by: 4096) {
            let chunk = Array(candidates[start..<min(start + 4096, candidates.count)])
            for event in try store.events(atSequences: chunk) {
                guard case .sampleRecorded(let sample) = event.event, SampleOrigin.isFromHealthExport(sample),
                    coverage.sources.contains(sample.sourceName), try statuses.status(ofSample: event.sequence) == nil
                else { continue }
                if SampleIdentity.isSyncIdentified(event.entity) {
                    // A version of the sample held again (or newer) means it was not deleted; one
                    // version withdrawn or a repeat means it is settled already.
                    let versions = try store.events(about: event.entity).filter { if case .sampleRecorded = $0.event { true } else { false } }
                    let isSettled = try versions.contains { try statuses.status(ofSample: $0.sequence) != nil }
                    if isSettled || versions.contains(where: { $0.sequence != event.sequence && seen.contains($0.sequence) }) { continue }
                    // One withdrawal for the sample, whichever of its versions is met first.
                    guard syncEntitiesFound.insert(event.entity).inserted else { continue }
                }
                found.append(
                    (event.entity, SampleReference(sequence: event.sequence, healthType: sample.healthType, start: sample.start, end: sample.end)))
            }
        }
        return found
    }
}
