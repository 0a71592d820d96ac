import DailyHealth
import PointsBalance
import ShoeMileage
import Foundation
import SampleCounts
import StrideEvents
import StrideProjection
import StrideStore

extension Ledger {
    /// The daily records of the days from `from` through `to` that have any data, from the
    /// stored projection (caught up first).
    public func dailyRecords(from: CivilDate?, through to: CivilDate?) throws -> [DailyRecord] {
        try catchUp()
        let projection = dailyHealth
        let lower = from.map { projection.firstKey(of: $0) } ?? [1]
        let upper = to.map { projection.firstKey(of: $0.adding(days: 1)) } ?? [2]
        let rows = try store.storedRows(of: projection.name, from: lower, before: upper)
        return try Self.dailyRecords(rows, projection: projection)
    }

    /// Daily records from encoded rows of the daily projection (rows come in key order, so
    /// a day's rows are together).
    static func dailyRecords(_ rows: EncodedRows, projection: DailyHealthProjection) throws -> [DailyRecord] {
        try factsByDay(rows, projection: projection).map { day, facts in
            DailyRecord.make(day: day, facts: facts, calendar: projection.calendar)
        }
    }

    /// Each day's facts from encoded rows of the daily projection, in key order; with
    /// `measure`, only that measure's rows are decoded.
    static func factsByDay(_ rows: EncodedRows, projection: DailyHealthProjection, only measure: Measure? = nil) throws
        -> [(day: CivilDate, facts: DayFacts)]
    {
        var days: [(day: CivilDate, facts: DayFacts)] = []
        var current: (day: CivilDate, rows: [(key: DailyHealthKey, row: DailyHealthRow)])?
        func finish() {
            guard let current else { return }
            days.append((current.day, projection.dayFacts(current.rows)))
        }
        for entry in rows {
            let key = try entry.key.withUnsafeBytes { try projection.decodeKey($0) }
            guard case .facts(let day, let rowMeasure, _) = key, measure == nil || rowMeasure == measure else { continue }
            let row = try entry.row.withUnsafeBytes { try projection.decodeRow($0) }
            if current?.day != day {
                finish()
                current = (day, [])
            }
            current?.rows.append((key, row))
        }
        finish()
        return days
    }

    /// Each day's step total (nil for a day without steps) from `from` through `to`, as
    /// ``dailyRecords(from:through:)`` gives them, reading only the step rows: an ingest's
    /// step awards ask this for every day a file touches. The projections must be caught up
    /// first. Safe to call from several threads at once (each reads in a snapshot of its own).
    func dailyStepTotals(from: CivilDate, through to: CivilDate) throws -> [(day: CivilDate, steps: Double?)] {
        let projection = dailyHealth
        let rows = try store.storedRows(of: projection.name, from: projection.firstKey(of: from), before: projection.firstKey(of: to.adding(days: 1)))
        return try Self.factsByDay(rows, projection: projection, only: .steps).map { day, facts in
            (day, ActivityPolicy.total(facts[.steps], day: projection.calendar.span(of: day))?.value)
        }
    }

    /// Samples by HealthKit type, from the stored projection (caught up first).
    public func samplesByHealthType() throws -> [NamedCount] {
        try catchUp()
        let projection = SampleCountsProjection()
        return try store.storedRows(of: projection.name).map { entry in
            NamedCount(
                name: String(decoding: entry.key, as: UTF8.self),
                count: Int(try entry.row.withUnsafeBytes { try projection.decodeRow($0) }))
        }
    }

    /// Every projection computed in memory as of a sequence, touching nothing stored.
    public struct Replay: Sendable {
        /// The sequence replayed through.
        public var sequence: UInt64
        /// The daily records as of then.
        public var days: [DailyRecord]
        /// The shoes as of then.
        public var shoes: [ShoeView]
        /// The points account and its history as of then.
        public var account: Account
        public var history: [HistoryLine]
    }

    /// Computes every projection in memory over the events up to `sequence`.
    public func replay(through sequence: UInt64, progress: (UInt64) -> Void = { _ in }) throws -> Replay {
        let last = min(sequence, try store.lastSequence())
        let runs = try store.replay([dailyHealth, mileage, points], through: last, progress: progress)
        var shoes: [Shoe] = []
        var defaultShoe: UInt128?
        for entry in runs[1].encodedRows() {
            switch try entry.row.withUnsafeBytes({ try mileage.decodeRow($0) }) {
            case .shoe(let shoe): shoes.append(shoe)
            case .rack(let rack): defaultShoe = rack.defaultShoe
            default: break
            }
        }
        var account = Account()
        var history: [HistoryLine] = []
        for entry in runs[2].encodedRows() {
            switch try entry.row.withUnsafeBytes({ try points.decodeRow($0) }) {
            case .account(let stored): account = stored
            case .history(let line): history.append(line)
            default: break
            }
        }
        return Replay(
            sequence: last, days: try Self.dailyRecords(runs[0].encodedRows(), projection: dailyHealth),
            shoes: shoes.map { ShoeView(shoe: $0, isDefault: $0.id == defaultShoe) }.sorted { $0.shoe.name.lowercased() < $1.shoe.name.lowercased() },
            account: account, history: history)
    }

    /// The last sequence recorded at or before an instant (0 when none was).
    public func sequence(recordedBy instant: Timestamp) throws -> UInt64 {
        var last: UInt64 = 0
        try store.scan { event in
            guard event.recordedAt <= instant else { return false }
            last = event.sequence
            return true
        }
        return last
    }
}
