import Foundation
import StrideEvents
import StrideProjection

/// Daily health records: for each local day in the ledger's time zone, the facts of the
/// samples that touch it, from which ``DailyRecord/make(day:facts:calendar:)`` computes
/// sleep, heart rate, resting heart rate, steps, distance and energy.
///
/// Facts are stored in small rows — one per day, measure and hour of the day — so that
/// catching up after one new sample rewrites a few hundred bytes, not a whole day. Samples
/// identified by a sync identifier are tracked by entity: a higher version replaces the
/// facts of a lower one wherever they lie; a lower version arriving later is ignored.
///
/// A sample kept but left out of the figures — odd content, withdrawn, a repeat — keeps its
/// fact among the day's, marked with why (``LeftOut``), for `daily explain`; the policies
/// see only the facts that count.
///
/// Version 5: facts left out are kept, marked; decisions about samples mark them.
/// Version 6: values, rates and dates outside their plausible ranges are odd content.
/// Version 7: a row's facts as they were before a later event removed or re-marked some are
/// kept under ``DailyHealthKey/superseded(day:measure:hour:at:)``, so that a day as recorded
/// at any sequence is read from its rows alone (see ``DailyRowsAsRecorded``).
public struct DailyHealthProjection: Projection {
    public typealias Key = DailyHealthKey
    public typealias Row = DailyHealthRow

    public let name = "daily"
    public let version: UInt32 = 7
    /// The ledger's calendar: the home zone's days, in which facts are filed.
    public let calendar: LocalCalendar
    /// The days as they are read: cut in the zone the runner lived each in (see
    /// ``cut(by:)``); the home zone's until told otherwise.
    public private(set) var days: ZonedCalendar

    /// The projection for a ledger's time zone.
    public init(timeZone: TimeZone) {
        calendar = LocalCalendar(timeZone: timeZone)
        days = ZonedCalendar(timeZone: timeZone)
    }

    /// The same projection reading its days cut by `days` (the runner's zone timeline). Facts
    /// stay filed by home day and hour, each with its own instants; a day cut elsewhere is read
    /// from the home days around it, so a zone learned later re-cuts nothing stored.
    public func cut(by days: ZonedCalendar) -> DailyHealthProjection {
        var projection = self
        projection.days = days
        return projection
    }

    public func apply(_ event: borrowing ProjectionEvent, to rows: inout ProjectionRows<Key, Row>) {
        switch event.content {
        case .sample(let sample): place(sample, sequence: event.sequence, recordedAt: event.recordedAt, entity: event.entity, in: &rows)
        case .event(let decision): apply(decision, sequence: event.sequence, entity: event.entity, to: &rows)
        }
    }

    /// Places a sample's fact in the rows of the days it touches; one with odd content only
    /// on its first day, left out.
    private func place(
        _ sample: SampleFacts, sequence: UInt64, recordedAt: Timestamp, entity: EntityReference, in rows: inout ProjectionRows<Key, Row>
    ) {
        guard let measure = Measure.of(typeCode: sample.typeCode) else { return }
        let reading = Measure.reading(sample, recordedAt: recordedAt)
        let syncEntity = SampleIdentity.isSyncIdentified(entity) ? entity.id : nil
        var leftOut: LeftOut = reading == nil ? .odd : []
        if let syncEntity {
            let version = sample.syncVersion ?? 0
            if let previous = rows.row(.synced(syncEntity))?.synced {
                guard previous.version <= version else { return }
                // A withdrawn sample's later versions are withdrawn too: the runner rejected it.
                leftOut.formUnion(previous.leftOut)
                for place in previous.places {
                    var removed: [Fact] = []
                    rows.update(place, creating: DailyHealthRow.init) {
                        removed = $0.facts.filter { $0.syncEntity == syncEntity }
                        $0.facts.removeAll { $0.syncEntity == syncEntity }
                        $0.lastSequence = sequence
                    }
                    keep(removed, supersededIn: place, at: sequence, in: &rows)
                }
            }
        }
        let value = reading?.value ?? sample.value.number.flatMap { $0.isFinite ? $0 : nil } ?? 0
        let fact = Fact(
            start: sample.start, end: sample.end, value: value, deviceClass: sample.deviceClass, sleep: reading?.sleep ?? SleepValue(sample.value),
            sequence: sequence, syncEntity: syncEntity, leftOut: leftOut)
        let (first, last, firstHour) = dayNumbers(of: fact, for: measure)
        // Odd content may span millennia: it is kept on its first day alone.
        let lastPlaced = reading == nil ? first : max(first, last)
        var places: [DailyHealthKey] = []
        for days in first...lastPlaced {
            let day = CivilDate(daysSince1970: days)
            let place = DailyHealthKey.facts(day: day, measure: measure, hour: days == first ? firstHour : 0)
            rows.update(place, creating: DailyHealthRow.withRoom) {
                $0.facts.append(fact)
                $0.lastSequence = sequence
            }
            if syncEntity != nil { places.append(place) }
        }
        if let syncEntity {
            let kept = leftOut.subtracting(.odd)
            rows.update(.synced(syncEntity), creating: DailyHealthRow.init) {
                $0.synced = SyncedSample(version: sample.syncVersion ?? 0, places: places, leftOut: kept)
            }
        }
    }

    /// Keeps the facts of a row as they were before the event at `sequence` removed or
    /// re-marked them (none: it only touched the row), under the row's superseded key.
    func keep(_ facts: [Fact], supersededIn place: DailyHealthKey, at sequence: UInt64, in rows: inout ProjectionRows<Key, Row>) {
        guard case .facts(let day, let measure, let hour) = place else { return }
        rows.update(.superseded(day: day, measure: measure, hour: hour, at: sequence), creating: DailyHealthRow.init) {
            $0.facts.append(contentsOf: facts)
            $0.lastSequence = sequence
        }
    }

    /// The first and last days a fact touches: for sleep, the days whose 18:00–18:00
    /// windows it overlaps; for heart rate, the day of its start; for activity, every day
    /// its span crosses.
    public func dayRange(of fact: Fact, for measure: Measure) -> (CivilDate, CivilDate) {
        let days = dayNumbers(of: fact, for: measure)
        return (CivilDate(daysSince1970: days.first), CivilDate(daysSince1970: days.last))
    }

    /// ``dayRange(of:for:)`` as days since 1970, with the hour row the fact goes in on its
    /// first day: the hours elapsed since that day's local midnight (real hours, so a day of
    /// 25 hours has a row 24), 0 for sleep (one row a night) and on the days after the
    /// first. As few offset lookups as the calendar allows: this runs once per sample in
    /// every rebuild and ingest.
    func dayNumbers(of fact: Fact, for measure: Measure) -> (first: Int64, last: Int64, firstHour: UInt8) {
        switch measure {
        case .heartRate, .restingHeartRate:
            let place = calendar.placeOf(fact.start)
            return (place.days, place.days, UInt8(clamping: max(0, place.elapsed / 3600)))
        case .sleep:
            let first = calendar.sleepDay(of: fact.start).daysSince1970
            let last = fact.end > fact.start ? calendar.sleepDay(of: fact.end.adding(milliseconds: -1)).daysSince1970 : first
            return (first, last, 0)
        case .steps, .distance, .activeEnergy:
            let place = calendar.placeOf(fact.start)
            let last = fact.end > fact.start ? calendar.dayNumber(of: fact.end.adding(milliseconds: -1)) : place.days
            return (place.days, last, UInt8(clamping: max(0, place.elapsed / 3600)))
        }
    }

    /// A day's facts from its rows.
    public func dayFacts(_ rows: [(key: DailyHealthKey, row: DailyHealthRow)]) -> DayFacts {
        var facts = DayFacts()
        for (key, row) in rows {
            guard case .facts(_, let measure, _) = key else { continue }
            facts.add(row.facts, of: measure)
            facts.lastSequence = max(facts.lastSequence, row.lastSequence)
        }
        return facts
    }
}

/// A row's key: a day, measure and hour; a sample identified by a sync identifier; or the
/// facts of a day, measure and hour as they were before the event `at` changed them.
public enum DailyHealthKey: RowKey {
    case facts(day: CivilDate, measure: Measure, hour: UInt8)
    case synced(UInt128)
    /// The facts a row held before the event at `at` removed them (a synced sample's newer
    /// version) or changed their marks (withdrawn, restored, a repeat), as they were; its
    /// row's `lastSequence` is `at`. Sorted after every other key.
    case superseded(day: CivilDate, measure: Measure, hour: UInt8, at: UInt64)

    /// The key as one word (a fold looks a key up for every sample it places): equal keys
    /// give equal words.
    public var hashWord: UInt64 {
        switch self {
        case .facts(let day, let measure, let hour):
            let date = UInt64(truncatingIfNeeded: day.year &* 384 &+ day.month &* 32 &+ day.day)
            return date << 16 | UInt64(measure.rawValue) << 8 | UInt64(hour)
        case .synced(let id):
            // The high bit set: a synced key never shares a word with a day's.
            return (UInt64(truncatingIfNeeded: id) ^ UInt64(truncatingIfNeeded: id >> 64) &* 0x9E37_79B9_7F4A_7C15) | 1 << 63
        case .superseded(let day, let measure, let hour, let sequence):
            return Self.facts(day: day, measure: measure, hour: hour).hashWord ^ (sequence &* 0x9E37_79B9_7F4A_7C15)
        }
    }
}

/// A row: facts (for a day, measure and hour), or where a sync-identified sample's facts lie.
public struct DailyHealthRow: Hashable, Sendable {
    /// The facts, in the order they were recorded.
    public var facts: [Fact] = []
    /// The last sequence that changed the row.
    public var lastSequence: UInt64 = 0
    /// For a synced sample: its version in force and the rows its facts are in.
    public var synced: SyncedSample?

    /// An empty row.
    public init() {}

    /// An empty facts row with room for a few facts: an hour row takes a dozen heart-rate
    /// samples, a night's row a hundred sleep stages, and growing from nothing moved them
    /// four times over.
    static func withRoom() -> DailyHealthRow {
        var row = DailyHealthRow()
        row.facts.reserveCapacity(8)
        return row
    }
}

/// The version of a sync-identified sample in force, the rows its facts are in, and why the
/// sample is left out (withdrawn or a repeat: its later versions are too).
public struct SyncedSample: Hashable, Sendable {
    public var version: Int
    public var places: [DailyHealthKey]
    public var leftOut: LeftOut = []
}
