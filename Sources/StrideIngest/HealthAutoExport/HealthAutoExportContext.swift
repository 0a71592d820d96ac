import Foundation
import StrideEvents

/// The request around a Health Auto Export document: what its points are buckets of, and
/// when it arrived (the version of every point it holds, so that a re-sent point with a new
/// value supersedes the one before).
public struct HealthAutoExportContext: Sendable {
    /// The grouping of the automation (its `automation-aggregation` header), or nil to infer
    /// it per metric (see docs/FORMATS.md, "Health Auto Export").
    public var grouping: HealthAutoExportGrouping?
    /// When the document was received; nil takes the ledger clock's now (`Ledger.ingest`), or
    /// the file's modification time when the reader is called on its own.
    public var receivedAt: Timestamp?

    /// Creates a context.
    public init(grouping: HealthAutoExportGrouping? = nil, receivedAt: Timestamp? = nil) {
        self.grouping = grouping
        self.receivedAt = receivedAt
    }

    /// The context of a request: its `automation-aggregation` header's value as sent (any
    /// case; absent, empty, `Default` or a value Stride does not know means "infer it"),
    /// and when it was received.
    public init(aggregationHeader: String?, receivedAt: Timestamp?) {
        self.init(grouping: aggregationHeader.flatMap(HealthAutoExportGrouping.init(header:)), receivedAt: receivedAt)
    }
}

/// The "time grouping" of a Health Auto Export automation: each metric point is HealthKit's
/// statistic over one such bucket, starting at the point's `date`.
public enum HealthAutoExportGrouping: String, Sendable, CaseIterable, CustomStringConvertible {
    /// One-second buckets (the app's default for heart rate: each point one reading).
    case seconds
    /// Minute buckets (the app's default for every other metric).
    case minutes
    /// Hour buckets.
    case hours
    /// Local days, midnight to midnight (23 or 25 hours when the clocks change).
    case days
    /// Seven local days.
    case weeks
    /// Local calendar months.
    case months
    /// Local calendar years.
    case years

    /// Reads the `automation-aggregation` header's value (`minutes`, `Hours`, `day`…); nil for
    /// `Default`, an empty value or one not listed.
    public init?(header: String) {
        var word = header.trimmingCharacters(in: .whitespaces).lowercased()
        if !word.hasSuffix("s") { word += "s" }
        guard let grouping = HealthAutoExportGrouping(rawValue: word) else { return nil }
        self = grouping
    }

    /// Whether a bucket is a span of local calendar days (days, weeks, months, years), whose
    /// length varies with daylight saving time and the calendar.
    var isCalendarSpan: Bool {
        switch self {
        case .seconds, .minutes, .hours: false
        case .days, .weeks, .months, .years: true
        }
    }

    public var description: String { rawValue }
}
