import Foundation
import SampleCounts
import StrideEvents
import StrideIngest
import StrideProjection

/// What an Apple Health export read whole told the ledger, beyond its new samples.
public struct ExportSettlement: Hashable, Sendable {
    /// When the export was made.
    public var exportDate: Timestamp
    /// The newest export read before, when it is newer than this one.
    public var newerExportRead: Timestamp?
    /// The samples withdrawn now (deleted in Health): those an earlier export held that this
    /// one no longer holds — or, for an export older than one read before, those it brought
    /// that the newer one no longer held.
    public var withdrawn: [SampleReference]
}

extension Ledger {
    /// Records an Apple Health export read whole (`healthExport.ingested`), and withdraws what
    /// it shows deleted in Health, appending both together, each once.
    ///
    /// The Health app exports the whole history, so the newest export read tells what Health
    /// holds. A sample that came by an export (``SampleOrigin``), from a source the newest
    /// export holds, starting inside the span its records cover, that it does not hold, was
    /// deleted. For an export newer than any read before, those are the log's samples it did
    /// not hold again (`seen` has the ones it did). An older export withdraws nothing the newer
    /// one holds; the samples it appended (after `appendedAfter`) that the newer one no longer
    /// held are withdrawn at once, citing the newer one — so the order of the exports changes
    /// no figure.
    /// - Returns: nil for an export that names no export date (nothing can be decided then).
    /// - Throws: a storage failure.
    func settleExport(
        _ coverage: ExportCoverage, seen: SeenSamples, appendedAfter: UInt64, file: String, records: Int, added: Int, alreadyInLedger: Int,
        sentBy: String?
    ) throws -> ExportSettlement? {
        guard let exportDate = coverage.exportDate else { return nil }
        let span = coverage.earliestStart.flatMap { first in coverage.latestStart.map { first...$0 } }
        let newest = try newestExport()
        var withdrawn: [(entity: EntityReference, sample: SampleReference)] = []
        var citedDate = exportDate
        if let newest, newest.exportDate > exportDate {
            if let newestSpan = newest.span {
                withdrawn = try samplesAppended(after: appendedAfter, outside: newest, within: newestSpan)
                citedDate = newest.exportDate
            }
        } else if let span {
            withdrawn = try samplesNoLongerHeld(from: Set(coverage.sources), within: span, seen: seen)
        }
        let ingested = HealthExportIngested(
            exportDate: exportDate, file: (file as NSString).lastPathComponent, records: records, added: added,
            alreadyInLedger: alreadyInLedger, withdrawn: withdrawn.count, sources: coverage.sources.sorted(), span: span, sentBy: sentBy)
        var events = [
            PendingEvent(
                .healthExportIngested(ingested), occurredAt: exportDate, entity: .ledger,
                idempotencyKey: HealthExportIngested.key(exportDate: exportDate))
        ]
        events += withdrawn.map { entity, sample in
            PendingEvent(
                .sampleWithdrawn(SampleWithdrawn(sample: sample, cause: .deletedInHealth(exportDate: citedDate), sentBy: sentBy)),
                occurredAt: citedDate, entity: entity, idempotencyKey: SampleWithdrawn.key(entity: entity, exportDate: citedDate))
        }
        try append(events)
        return ExportSettlement(
            exportDate: exportDate, newerExportRead: newest.flatMap { $0.exportDate > exportDate ? $0.exportDate : nil },
            withdrawn: withdrawn.map(\.sample))
    }

    /// The newest Apple Health export ingested whole, if any.
    /// - Throws: a storage failure.
    func newestExport() throws -> HealthExportIngested? {
        try store.events(ofType: .healthExportIngested, from: 1, limit: .max).compactMap { event in
            if case .healthExportIngested(let ingested) = event.event { ingested } else { nil }
        }.max { $0.exportDate < $1.exportDate }
    }

    /// The samples of the log an export newer than all before shows deleted: those that came
    /// by an export, from one of its sources, starting inside its span, it did not hold again.
    private func samplesNoLongerHeld(
        from sources: Set<String>, within span: ClosedRange<Timestamp>, seen: SeenSamples
    ) throws -> [(entity: EntityReference, sample: SampleReference)] {
        let candidates = try store.sequences(of: .sample, startingFrom: span.lowerBound, through: span.upperBound) { !seen.contains($0) }
        return try deletedInHealth(among: candidates, from: sources) { versions, sequence in
            // A version of the sample held again (or a newer one) means it was not deleted.
            versions.contains { $0 != sequence && seen.contains($0) }
        }
    }

    /// The samples an export older than `newer` appended (after `sequence`) that `newer` no
    /// longer held: from its sources, starting inside its span (those it held were
    /// duplicates, not appended).
    private func samplesAppended(
        after sequence: UInt64, outside newer: HealthExportIngested, within span: ClosedRange<Timestamp>
    ) throws -> [(entity: EntityReference, sample: SampleReference)] {
        let appended = try store.sequences(of: .sample, startingFrom: span.lowerBound, through: span.upperBound) { $0 > sequence }
        return try deletedInHealth(among: appended, from: Set(newer.sources)) { versions, candidate in
            // A version the newer export brought (before this ingest) means it was not deleted.
            versions.contains { $0 != candidate && $0 <= sequence }
        }
    }

    /// Of the samples at `candidates`, those that came by an export from one of `sources`
    /// and are not withdrawn or repeats already; for a sample identified by a sync identifier,
    /// also none of whose versions `isHeld` says an export holds (one withdrawal per sample).
    private func deletedInHealth(
        among candidates: [UInt64], from sources: Set<String>, isHeld: ([UInt64], UInt64) -> Bool
    ) throws -> [(entity: EntityReference, sample: SampleReference)] {
        let statuses = try state(of: SampleCountsProjection())
        var found: [(entity: EntityReference, sample: SampleReference)] = []
        var syncEntitiesFound = Set<EntityReference>()
        for start in stride(from: 0, to: candidates.count, by: 4096) {
            let chunk = Array(candidates[start..<min(start + 4096, candidates.count)])
            for event in try store.events(atSequences: chunk) {
                guard case .sampleRecorded(let sample) = event.event, SampleOrigin.isFromHealthExport(sample),
                    sources.contains(sample.sourceName), try statuses.status(ofSample: event.sequence) == nil
                else { continue }
                if SampleIdentity.isSyncIdentified(event.entity) {
                    let versions = try store.events(about: event.entity).compactMap { version -> UInt64? in
                        if case .sampleRecorded = version.event { version.sequence } else { nil }
                    }
                    let isSettled = try versions.contains { try statuses.status(ofSample: $0) != nil }
                    if isSettled || isHeld(versions, event.sequence) { continue }
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
