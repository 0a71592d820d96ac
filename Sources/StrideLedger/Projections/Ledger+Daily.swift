import DailyHealth
import Foundation
import PointsBalance
import SampleCounts
import ShoeMileage
import StrideEvents
import StrideProjection
import StrideStore

extension Ledger {
    /// The latest day on or before `last` with a daily record, however long ago.
    /// - Throws: a storage or projection failure.
    public func lastDayWithRecord(through last: CivilDate) throws -> CivilDate? {
        try dailyState().lastDayWithRecord(through: last)
    }

    /// The daily records of the days from `from` through `to` that have any data.
    ///
    /// A range's records come from the ledger's ``DailyRecordCache`` for the days whose facts
    /// are unchanged since they were computed (their ``DayVersion``, read without decoding
    /// the facts), and are computed from the facts for the others; an open range is computed
    /// whole. While the cache is empty (a command's one read) the range is computed in one pass
    /// that also gives the versions to keep.
    public func dailyRecords(from: CivilDate?, through to: CivilDate?) throws -> [DailyRecord] {
        let state = try dailyState()
        guard let from, let to, from <= to else { return try state.records(from: from, through: to) }
        // A read on figures behind the log keeps nothing (its days' versions are what it read,
        // but a lagging read is never kept).
        guard try figuresPoint().isCurrent else { return try state.records(from: from, through: to) }
        if dailyRecordCache.isEmpty {
            let read = try state.recordsAndVersions(from: from, through: to)
            dailyRecordCache.keep(
                Dictionary(uniqueKeysWithValues: read.map { ($0.day, $0.record) }),
                at: Dictionary(uniqueKeysWithValues: read.map { ($0.day, $0.version) }))
            return read.compactMap(\.record)
        }
        let versions = try state.dayVersions(from: from, through: to)
        var (known, missing) = dailyRecordCache.lookUp(versions)
        if !missing.isEmpty {
            var computed = Dictionary(uniqueKeysWithValues: missing.map { ($0, DailyRecord?.none) })
            // Each stretch of consecutive missing days read on its own: a day synced late and
            // today do not recompute every cached day between them.
            for (first, last) in Self.stretches(of: missing) {
                for record in try state.records(from: first, through: last) where computed[record.date] != nil {
                    computed[record.date] = .some(record)
                }
            }
            dailyRecordCache.keep(computed, at: versions)
            known.merge(computed) { _, new in new }
        }
        return versions.keys.sorted().compactMap { known[$0] ?? nil }
    }

    /// The stretches of consecutive days in `days` (sorted), each as its first and last day.
    static func stretches(of days: [CivilDate]) -> [(first: CivilDate, last: CivilDate)] {
        var stretches: [(first: CivilDate, last: CivilDate)] = []
        for day in days {
            if let open = stretches.last, open.last.daysSince1970 + 1 == day.daysSince1970 {
                stretches[stretches.count - 1].last = day
            } else {
                stretches.append((day, day))
            }
        }
        return stretches
    }

    /// Each day's version of its facts from `from` through `to` (``DayVersion``): days
    /// without facts are absent.
    /// - Throws: a storage or projection failure.
    public func dayVersions(from: CivilDate, through to: CivilDate) throws -> [CivilDate: DayVersion] {
        try dailyState().dayVersions(from: from, through: to)
    }

    /// Samples by HealthKit type, sorted by type.
    public func samplesByHealthType() throws -> [NamedCount] {
        try state(of: SampleCountsProjection()).samplesByType().map { NamedCount(name: $0.healthType, count: Int($0.count)) }
    }
}
