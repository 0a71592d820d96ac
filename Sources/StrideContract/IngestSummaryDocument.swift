import StrideEvents
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
            "files": .array(
                reports.map { report in
                    // A key that existing documents lack appears only when it has something to say.
                    Self.appending(
                        "notRead",
                        report.counts.notRead.isEmpty
                            ? nil : .object(report.counts.notRead.sorted { $0.key < $1.key }.map { .init($0.key, .integer($0.value)) }),
                        to: Self.appending(
                            "recordsInsideRecordsSkipped",
                            report.counts.recordsInsideRecordsSkipped > 0 ? .integer(Int64(report.counts.recordsInsideRecordsSkipped)) : nil,
                            to: .object([
                                "file": .string(report.file), "format": .string(report.format.description),
                                "newEvents": .integer(report.appended), "duplicates": .integer(report.duplicates),
                                "autoAssigned": .integer(report.autoAssigned),
                                "samples": .integer(report.counts.samples), "workouts": .integer(report.counts.workouts),
                                "activitySummaries": .integer(report.counts.activitySummaries),
                                "samplesByType": .object(
                                    report.counts.samplesByType.sorted { $0.key < $1.key }.map { .init($0.key, .integer($0.value)) }),
                                "leftOut": .object(report.counts.leftOut.sorted { $0.key < $1.key }.map { .init($0.key, .integer($0.value.count)) }),
                                "rejectedLines": .array(report.counts.rejections.map { .string($0) }),
                                "bytes": .integer(report.bytes), "seconds": .number(report.seconds),
                            ])))
                }),
            "newEvents": .integer(reports.reduce(0) { $0 + $1.appended }),
            "duplicates": .integer(reports.reduce(0) { $0 + $1.duplicates }),
        ])
    }

    /// `object` with one more member at its end, when there is a value.
    private static func appending(_ key: String, _ value: JSONValue?, to object: JSONValue) -> JSONValue {
        guard let value, case .object(let members) = object else { return object }
        return .object(members + [JSONValue.Member(key, value)])
    }
}
