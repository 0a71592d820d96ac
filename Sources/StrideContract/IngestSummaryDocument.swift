import ShoeMileage
import StrideEvents
import StrideIngest
import StrideLedger

/// `ingest --json`: what each file gave, and the totals.
public struct IngestSummaryDocument: ContractDocument {
    /// One report per file, in the order ingested.
    public var reports: [FileIngestReport]

    /// A summary of these reports.
    public init(reports: [FileIngestReport]) {
        self.reports = reports
    }

    public var json: JSONValue {
        .object([
            "files": .array(reports.map(Self.json)),
            "newEvents": .integer(reports.reduce(0) { $0 + $1.appended }),
            "duplicates": .integer(reports.reduce(0) { $0 + $1.duplicates }),
        ])
    }

    /// One file's report. A key that earlier documents lack appears only when it has
    /// something to say, so a document that never needed one reads as it always did.
    private static func json(_ report: FileIngestReport) -> JSONValue {
        let counts = report.counts
        var members: [JSONValue.Member] = [
            .init("file", .string(report.file)), .init("format", .string(report.format.description)),
            .init("newEvents", .integer(report.appended)), .init("duplicates", .integer(report.duplicates)),
            .init("autoAssigned", .integer(report.autoAssigned)), .init("samples", .integer(counts.samples)),
            .init("workouts", .integer(counts.workouts)), .init("activitySummaries", .integer(counts.activitySummaries)),
            .init(
                "samplesByType",
                .object(SummaryList.cut(counts.samplesByType.sorted { $0.key < $1.key }).named.map { .init($0.key, .integer($0.value)) })),
            .init(
                "leftOut", .object(SummaryList.cut(counts.leftOut.sorted { $0.key < $1.key }).named.map { .init($0.key, .integer($0.value.count)) })),
            .init("rejectedLines", .array(counts.rejections.map { .string($0) })), .init("bytes", .integer(report.bytes)),
            .init("seconds", .number(report.seconds)),
        ]
        notListed(counts.samplesByType, as: "samplesByTypeNotListed", in: &members)
        notListed(counts.leftOut, as: "leftOutNotListed", in: &members)
        // Only where a file gave streams: a summary without prints as it always did.
        if counts.streams > 0 {
            members.append(.init("streams", .integer(counts.streams)))
            members.append(.init("streamReadings", .integer(counts.streamReadings)))
        }
        if counts.recordsInsideRecordsSkipped > 0 {
            members.append(.init("recordsInsideRecordsSkipped", .integer(counts.recordsInsideRecordsSkipped)))
        }
        if !counts.notRead.isEmpty {
            members.append(
                .init("notRead", .object(SummaryList.cut(counts.notRead.sorted { $0.key < $1.key }).named.map { .init($0.key, .integer($0.value)) })))
            notListed(counts.notRead, as: "notReadNotListed", in: &members)
        }
        if report.repeatedInFile > 0 { members.append(.init("repeatedInFile", .integer(report.repeatedInFile))) }
        if let export = report.export { members.append(.init("export", json(export))) }
        if let archive = counts.archive { members.append(.init("archive", json(archive, settled: report.archive))) }
        // Only where the file's clocks told the ledger something new.
        if report.zones.observations > 0 {
            let moved = report.zones.daysMoved.sorted()
            members.append(
                .init(
                    "zones",
                    .object([
                        "observations": .integer(report.zones.observations), "daysMoved": .integer(moved.count),
                        "firstDayMoved": .string(moved.first?.description), "lastDayMoved": .string(moved.last?.description),
                    ])))
        }
        if !report.stepReversals.isEmpty {
            members.append(
                .init(
                    "stepAwardsReversed",
                    .array(
                        report.stepReversals.map { reversal in
                            .object([
                                "rule": .string(reversal.rule.description), "day": .string(reversal.day.description),
                                "takenBack": .integer(reversal.takenBack), "reason": .string(reversal.reason),
                            ])
                        })))
        }
        return .object(members)
    }

    /// What an account archive held and did to the rack. Each list names at most
    /// ``SummaryList/named`` items; a `…NotListed` member, present only when some are not,
    /// counts the rest.
    private static func json(_ archive: AccountArchive, settled: ArchiveSettlement?) -> JSONValue {
        var members: [JSONValue.Member] = [
            .init("service", .string(archive.service.rawValue)), .init("name", .string(archive.name)),
            .init("newestActivity", .string(archive.asOf?.description)),
            .init(
                "activitiesByType",
                .object(SummaryList.cut(archive.activitiesByType.sorted { $0.key < $1.key }).named.map { .init($0.key, .integer($0.value)) })),
            .init("runs", .integer(archive.runs)), .init("filesRead", .integer(archive.filesRead)),
            .init("dailyTotals", .integer(archive.dailyTotals)), .init("nights", .integer(archive.nights)),
            .init("filesNotRead", .array(archive.unreadFiles.map { .string($0) })), .init("filesNotReadCount", .integer(archive.unreadFileCount)),
            .init("notRead", .object(SummaryList.cut(archive.notRead.sorted { $0.key < $1.key }).named.map { .init($0.key, .integer($0.value)) })),
        ]
        notListed(archive.activitiesByType, as: "activitiesByTypeNotListed", in: &members)
        notListed(archive.notRead, as: "notReadNotListed", in: &members)
        if let settled {
            members += [
                .init("runsAlreadyFromElsewhere", .integer(settled.runsAlreadyFromElsewhere)),
                .init("shoesAdded", .array(SummaryList.cut(settled.shoesAdded).named.map { .string($0) })),
                .init(
                    "shoesMatched",
                    .object(SummaryList.cut(settled.shoesMatched.sorted { $0.key < $1.key }).named.map { .init($0.key, .string($0.value)) })),
                .init("shoesRetired", .array(SummaryList.cut(settled.shoesRetired).named.map { .string($0) })),
                .init("defaultShoe", .string(settled.defaultShoe)),
                .init("runsPutOnShoes", .integer(settled.runsPutOnShoes)), .init("runsAlreadyOnTheirShoe", .integer(settled.runsAlreadyOnTheirShoe)),
                .init("runsTakenOffShoes", .integer(settled.runsTakenOffShoes)),
                .init("olderThanOneRead", .bool(settled.isOlderThanOneRead)),
                .init("notes", .array(SummaryList.cut(settled.notes).named.map { .string($0) })),
                .init("notesNotListed", .integer(SummaryList.cut(settled.notes).notNamed)),
                .init("reconciliation", .array(SummaryList.cut(settled.reconciliation).named.map(json))),
            ]
            notListed(settled.shoesAdded, as: "shoesAddedNotListed", in: &members)
            notListed(settled.shoesMatched, as: "shoesMatchedNotListed", in: &members)
            notListed(settled.shoesRetired, as: "shoesRetiredNotListed", in: &members)
            notListed(settled.reconciliation, as: "reconciliationNotListed", in: &members)
        }
        return .object(members)
    }

    /// `name`: how many of `items` a list leaves unnamed, added only when some are.
    private static func notListed<Items: Collection>(_ items: Items, as name: String, in members: inout [JSONValue.Member]) {
        let count = SummaryList.cut(items).notNamed
        if count > 0 { members.append(.init(name, .integer(count))) }
    }

    /// The differences a reconciled shoe names; the rest are counted by reason.
    public static let listedDifferences = 100

    /// One archive shoe beside its rack shoe, its differences run by run (the first
    /// ``listedDifferences``) and by reason.
    private static func json(_ shoe: ArchiveReconciliation.ReconciledShoe) -> JSONValue {
        var byReason: [ArchiveReconciliation.Reason: (count: Int, kilometers: Double)] = [:]
        for difference in shoe.differences {
            byReason[difference.reason, default: (0, 0)].count += 1
            byReason[difference.reason, default: (0, 0)].kilometers += difference.kilometers
        }
        return .object([
            .init("shoe", .string(shoe.archiveShoe)), .init("place", .string(shoe.place)), .init("rackShoe", .string(shoe.rackShoe)),
            .init("archiveKilometers", .number(rounded(shoe.archiveKilometers))), .init("rackKilometers", .number(rounded(shoe.rackKilometers))),
            .init(
                "differences",
                .array(
                    shoe.differences.prefix(listedDifferences).map { difference in
                        .object([
                            .init("workout", .string(difference.workout.map(Ledger.workoutID))), .init("place", .string(difference.place)),
                            .init("kilometers", .number(rounded(difference.kilometers))), .init("reason", .string(difference.reason.rawValue)),
                            .init("detail", .string(difference.detail)),
                        ])
                    })),
            .init("differencesNotListed", .integer(max(0, shoe.differences.count - listedDifferences))),
            .init(
                "byReason",
                .object(
                    ArchiveReconciliation.Reason.allCases.compactMap { reason in
                        byReason[reason].map {
                            .init(reason.rawValue, .object(["count": .integer($0.count), "kilometers": .number(rounded($0.kilometers))]))
                        }
                    })),
            .init("unexplained", .integer(shoe.unexplained)),
        ])
    }

    /// Kilometres to the metre.
    private static func rounded(_ kilometers: Double) -> Double { (kilometers * 1000).rounded() / 1000 }

    /// What an export read whole settled: its date, a newer one read before, and the samples
    /// withdrawn as deleted in Health (by the sequences of their events).
    private static func json(_ export: ExportSettlement) -> JSONValue {
        .object([
            "exportDate": .string(export.exportDate.description), "newerExportRead": .string(export.newerExportRead?.description),
            "noLongerInExport": .integer(export.withdrawn.count), "withdrawn": .array(export.withdrawn.map { .integer($0.sequence) }),
        ])
    }
}
