import StrideEvents
import StrideProjection

/// The daily records as commands, the server and replays read them.
extension ProjectionState where P == DailyHealthProjection {
    /// The records of the days from `first` through `last` (open ends when nil) that have any
    /// data that counts, in date order (a day whose samples are all left out has no record).
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func records(from first: CivilDate? = nil, through last: CivilDate? = nil) throws -> [DailyRecord] {
        try factsByDay(from: first, through: last).compactMap { day, facts, _ in record(of: day, facts) }
    }

    /// Each day with facts from `first` through `last`: its record (nil when none of its facts
    /// count) and the version of its facts (``dayVersions(from:through:)``'s), in one pass over
    /// the rows.
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func recordsAndVersions(
        from first: CivilDate, through last: CivilDate
    ) throws -> [(
        day: CivilDate, record: DailyRecord?, version: DayVersion
    )] {
        try factsByDay(from: first, through: last).map { day, facts, version in (day, record(of: day, facts), version) }
    }

    private func record(of day: CivilDate, _ facts: DayFacts) -> DailyRecord? {
        facts.hasFactsThatCount ? DailyRecord.make(day: day, facts: facts, calendar: projection.days) : nil
    }

    /// A day's facts, those that count and those left out (nil when no sample touches it).
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func facts(of day: CivilDate) throws -> DayFacts? {
        try factsByDay(from: day, through: day).first?.facts
    }

    /// Each day's step total (nil for a day without steps) from `first` through `last`, as
    /// ``records(from:through:)`` gives them, decoding only the step rows: an ingest's step
    /// awards ask this for every day a file touches.
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func stepTotals(from first: CivilDate, through last: CivilDate) throws -> [(day: CivilDate, steps: Double?)] {
        try factsByDay(from: first, through: last, only: .steps).map { day, facts, _ in
            (day, ActivityPolicy.total(facts[.steps], day: projection.days.span(of: day))?.value)
        }
    }

    /// Each day's version from `first` through `last`: how many fact rows it has and the
    /// greatest sequence that changed one of them, read from the start of each row without
    /// decoding its facts. Every change to a day's facts sets its row's last sequence to the
    /// changing event's, always greater than any before, and rows are never removed: so a day
    /// whose version is unchanged has the same facts, and a record computed from them stands
    /// (a rebuild gives the same versions, and the same facts).
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func dayVersions(from first: CivilDate, through last: CivilDate) throws -> [CivilDate: DayVersion] {
        let days = projection.days
        let zoned = !days.timeline.isHomeOnly
        let (lower, upper) = zoned ? (first.adding(days: -2), last.adding(days: 2)) : (first, last)
        var versions: [CivilDate: DayVersion] = [:]
        let heads = try rowHeads(
            from: DailyHealthKey.firstKey(of: lower), before: DailyHealthKey.firstKey(of: upper.adding(days: 1)), bytes: 10)
        for (key, head) in heads {
            guard case .facts(let day, _, _) = key else { continue }
            versions[day, default: DayVersion()].add(rowSequence: try head.withUnsafeBytes(DailyHealthProjection.lastSequence(ofRow:)))
        }
        guard zoned else { return versions }
        // A day cut elsewhere is at the versions of the home days it is read from, and at its cut.
        var cutVersions: [CivilDate: DayVersion] = [:]
        var day = first
        while day <= last {
            if days.isCutAtHome(day) {
                if let version = versions[day] { cutVersions[day] = version }
            } else {
                let cut = DayCut(day, in: days)
                var version = DayVersion()
                for home in cut.homeDays(filedBy: projection.calendar) {
                    if let read = versions[CivilDate(daysSince1970: home)] { version.add(read) }
                }
                if version.rows > 0 {
                    version.cut = cut.word
                    cutVersions[day] = version
                }
            }
            day = day.adding(days: 1)
        }
        return cutVersions
    }

    /// The latest day on or before `last` that has a record (any facts), found with one step
    /// of a cursor however long ago it was.
    /// - Throws: a storage failure, or ``DecodingFailure`` for a key that cannot be read.
    public func lastDayWithRecord(through last: CivilDate) throws -> CivilDate? {
        // Every fact key sorts before the sync-identity keys, so the key before a day's first
        // is a fact key of an earlier day, or nothing.
        guard case .facts(let day, _, _)? = try lastKey(before: DailyHealthKey.firstKey(of: last.adding(days: 1))) else { return nil }
        return day
    }

    /// Each day's facts in date order, with the version of the rows read; with `measure`, only
    /// that measure's rows are decoded (and versioned). Days are cut by ``DailyHealthProjection/days``:
    /// a day cut as at home is its home rows; one cut elsewhere gathers the facts of the home
    /// days around it that touch its span (or, for sleep, its night).
    private func factsByDay(
        from first: CivilDate?, through last: CivilDate?, only measure: Measure? = nil
    ) throws
        -> [(day: CivilDate, facts: DayFacts, version: DayVersion)]
    {
        let days = projection.days
        guard !days.timeline.isHomeOnly else { return try homeFactsByDay(from: first, through: last, only: measure) }
        // Zones differ from home by at most 26 hours: a day's facts lie within two home days of it.
        let home = try homeFactsByDay(from: first?.adding(days: -2), through: last?.adding(days: 2), only: measure)
        guard let firstHome = home.first?.day, let lastHome = home.last?.day else { return [] }
        var filed: [Int64: (facts: DayFacts, version: DayVersion)] = [:]
        for (day, facts, version) in home { filed[day.daysSince1970] = (facts, version) }
        var result: [(day: CivilDate, facts: DayFacts, version: DayVersion)] = []
        var day = max(first ?? firstHome.adding(days: -2), firstHome.adding(days: -2))
        let end = min(last ?? lastHome.adding(days: 2), lastHome.adding(days: 2))
        while day <= end {
            defer { day = day.adding(days: 1) }
            if days.isCutAtHome(day) {
                if let own = filed[day.daysSince1970] { result.append((day, own.facts, own.version)) }
                continue
            }
            let cut = DayCut(day, in: days)
            var facts = DayFacts()
            var version = DayVersion()
            var seen = Set<UInt64>()
            for homeDay in cut.homeDays(filedBy: projection.calendar) {
                guard let own = filed[homeDay] else { continue }
                version.add(own.version)
                facts.lastSequence = max(facts.lastSequence, own.facts.lastSequence)
                for measure in Measure.allCases {
                    for fact in own.facts[measure] + own.facts.leftOut(of: measure) {
                        guard let counted = cut.counted(fact, as: measure, on: day, home: projection.calendar) else { continue }
                        // A fact spanning home days is filed in each: gathered once.
                        guard seen.insert(fact.sequence).inserted else { continue }
                        facts.add([counted], of: measure)
                    }
                }
            }
            guard facts.hasAnyFact else { continue }
            version.cut = cut.word
            result.append((day, facts, version))
        }
        return result
    }

    /// Each home day's facts in date order, as filed: ``factsByDay(from:through:only:)`` for a
    /// runner who never left home.
    private func homeFactsByDay(
        from first: CivilDate?, through last: CivilDate?, only measure: Measure? = nil
    ) throws
        -> [(day: CivilDate, facts: DayFacts, version: DayVersion)]
    {
        let lower = DailyHealthKey.firstKey(of: first ?? DailyHealthKey.earliestDay)
        let upper = last.map { DailyHealthKey.firstKey(of: $0.adding(days: 1)) } ?? .synced(0)
        var days: [(day: CivilDate, facts: DayFacts, version: DayVersion)] = []
        var current: (day: CivilDate, rows: [(key: DailyHealthKey, row: DailyHealthRow)])?
        func finish() {
            guard let current else { return }
            var version = DayVersion()
            for (_, row) in current.rows { version.add(rowSequence: row.lastSequence) }
            days.append((current.day, projection.dayFacts(current.rows), version))
        }
        // With a measure, the others' rows are skipped by their keys, never decoded.
        let kept =
            try measure.map { measure in
                try rows(from: lower, before: upper) { key in
                    guard case .facts(_, let rowMeasure, _) = key else { return true }
                    return rowMeasure == measure
                }
            } ?? rows(from: lower, before: upper)
        for (key, row) in kept {
            guard case .facts(let day, _, _) = key else { continue }
            if current?.day != day {
                finish()
                current = (day, [])
            }
            current?.rows.append((key, row))
        }
        finish()
        return days
    }
}

/// A day cut in the zone it was lived in, as ``DailyRecord/make(day:facts:calendar:)`` reads
/// it: its span and its night, and the home days whose rows hold its facts.
struct DayCut {
    /// The day's span.
    let span: Range<Timestamp>
    /// Its night: the 18:00–18:00 window.
    let night: Range<Timestamp>

    init(_ day: CivilDate, in days: ZonedCalendar) {
        self.day = day
        span = days.span(of: day)
        night = days.sleepWindow(of: day)
    }

    /// The day cut.
    let day: CivilDate

    /// The home days whose rows may hold a fact of the day: those its span and night cross
    /// (a fact is filed on every home day it touches; a heart rate on the day of its start),
    /// and the home day of its own date (its day's totals).
    func homeDays(filedBy home: LocalCalendar) -> ClosedRange<Int64> {
        let earliest = min(span.lowerBound, night.lowerBound)
        let latest = max(span.upperBound, night.upperBound)
        let last = latest > earliest ? latest.adding(milliseconds: -1) : latest
        // A home night ends at 18:00, so an instant's home night is its home day or the next.
        let upper = max(home.dayNumber(of: last), home.sleepDay(of: last).daysSince1970)
        return min(home.dayNumber(of: earliest), day.daysSince1970)...max(upper, day.daysSince1970)
    }

    /// A fact as it counts in the day, or nil when it does not touch it. A day's total (a
    /// summary filed over exactly its home day: Garmin's, or a pushed day's bucket) is the total
    /// of its date wherever that date was lived: it counts whole on that date, over the day's
    /// span (its instant, such as a resting heart rate, at the day's start), and on no other.
    func counted(_ fact: Fact, as measure: Measure, on day: CivilDate, home: LocalCalendar) -> Fact? {
        if measure != .sleep, fact.deviceClass == .summary, let date = Self.homeDate(totalledBy: fact, in: home) {
            guard date == day, !span.isEmpty || fact.start == fact.end else { return nil }
            var whole = fact
            whole.start = span.lowerBound
            whole.end = fact.end > fact.start ? span.upperBound : span.lowerBound
            return whole
        }
        return touches(fact, as: measure) ? fact : nil
    }

    /// The home date a summary totals: the one whose span it covers exactly, or whose start it
    /// is at (an instant); nil for any other fact.
    static func homeDate(totalledBy fact: Fact, in home: LocalCalendar) -> CivilDate? {
        let date = home.day(of: fact.start)
        guard home.start(of: date) == fact.start else { return nil }
        return fact.end == fact.start || fact.end == home.start(of: date.adding(days: 1)) ? date : nil
    }

    /// Whether a fact counts in the day, as the policies judge it: sleep overlapping its
    /// night, heart rate starting in it, activity touching it.
    func touches(_ fact: Fact, as measure: Measure) -> Bool {
        switch measure {
        case .sleep:
            fact.start == fact.end ? night.contains(fact.start) : fact.start < night.upperBound && fact.end > night.lowerBound
        case .heartRate, .restingHeartRate:
            span.contains(fact.start)
        case .steps, .distance, .activeEnergy:
            fact.end > fact.start ? fact.start < span.upperBound && fact.end > span.lowerBound : span.contains(fact.start)
        }
    }

    /// The cut as one word: days cut alike share it (a day's record is its facts and its cut).
    var word: UInt64 {
        var word: UInt64 = 0x9E37_79B9_7F4A_7C15
        for bound in [span.lowerBound, span.upperBound, night.lowerBound, night.upperBound] {
            word = (word ^ UInt64(bitPattern: bound.millisecondsSince1970)) &* 0xBF58_476D_1CE4_E5B9
            word ^= word >> 31
        }
        return word | 1
    }
}

extension DailyHealthKey {
    /// The key before every row of a day (and after every row of the days before).
    static func firstKey(of day: CivilDate) -> DailyHealthKey {
        .facts(day: day, measure: .sleep, hour: 0)
    }

    /// A day before any a sample can fall on: the lower bound of "every day".
    static let earliestDay = CivilDate(year: -1_000_000, month: 1, day: 1)
}

/// What a day's stored facts are at: their rows and the greatest sequence that changed one
/// (``ProjectionState/dayVersions(from:through:)``). Equal versions, equal facts.
public struct DayVersion: Hashable, Sendable {
    /// The day's fact rows.
    public var rows = 0
    /// The greatest sequence that changed one of them.
    public var lastSequence: UInt64 = 0
    /// For a day cut in a zone other than home, its cut (the span and night it is read over,
    /// as one word); 0 for a day cut at home.
    public var cut: UInt64 = 0

    /// No rows.
    public init() {}

    /// Counts one more row, changed last at `rowSequence`.
    public mutating func add(rowSequence: UInt64) {
        rows += 1
        lastSequence = max(lastSequence, rowSequence)
    }

    /// Adds the rows of another day read with this one.
    public mutating func add(_ other: DayVersion) {
        rows += other.rows
        lastSequence = max(lastSequence, other.lastSequence)
    }
}

extension ProjectionState where P == DailyHealthProjection {
    /// The heart-rate samples that count and start from `start` through `end`, read from the
    /// hour rows those instants fall in (a run's hour or two, not its whole day): the training
    /// log's heart rate for a run whose file has none.
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func heartRateFacts(from start: Timestamp, through end: Timestamp) throws -> [Fact] {
        guard start <= end else { return [] }
        let calendar = projection.calendar
        let (firstDay, firstElapsed) = calendar.placeOf(start)
        let (lastDay, lastElapsed) = calendar.placeOf(end)
        let lower = DailyHealthKey.facts(day: CivilDate(daysSince1970: firstDay), measure: .heartRate, hour: UInt8(clamping: firstElapsed / 3_600))
        let upper = DailyHealthKey.facts(day: CivilDate(daysSince1970: lastDay), measure: .heartRate, hour: UInt8(clamping: lastElapsed / 3_600))
        var facts: [Fact] = []
        for (key, row) in try rows(from: lower, through: upper) {
            guard case .facts(_, .heartRate, _) = key else { continue }
            facts += row.facts.filter { $0.counts && $0.start >= start && $0.start <= end }
        }
        return facts.sorted { $0.start < $1.start }
    }
}

extension ProjectionState where P == DailyHealthProjection {
    /// A day's resting heart rate (the mean of its samples that count), read from that day's
    /// resting-heart-rate rows alone: what the training log estimates a runner's resting heart
    /// rate from when it is not set.
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func restingHeartRate(on day: CivilDate) throws -> Double? {
        var values: [Double] = []
        let rows = try rows(
            from: .facts(day: day, measure: .restingHeartRate, hour: 0), through: .facts(day: day, measure: .restingHeartRate, hour: .max))
        for (_, row) in rows { values += row.facts.filter(\.counts).map(\.value) }
        return values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
    }
}
