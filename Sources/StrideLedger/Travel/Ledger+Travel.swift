import DailyHealth
import Foundation
import StrideEvents
import StrideIngest
import StrideProjection
import StrideStore
import Synchronization
import Travel

/// Where the runner lived, and the days cut there: the zone timeline folded from the periods
/// the runner set (`stride travel add`) and what the inputs' clocks showed
/// (`travel.zonesObserved`), and the calendar every figure of a day reads through.
extension Ledger {
    /// The travel projection.
    var travel: TravelProjection { TravelProjection() }

    /// Why a step award changed when its day moved to another zone, as the history shows it.
    static let zoneCutCause = "the day is now cut in the zone it was lived in"

    /// The calendar days are cut by now: the zone timeline as the log stands.
    /// - Throws: a storage or projection failure.
    public func days() throws -> ZonedCalendar {
        try localClocks().days
    }

    /// What the runner's clocks showed, as the log stands: the days cut where they were lived,
    /// and the offsets files showed (a run's day and printed offset). Built again only when an
    /// event changed what the timeline is made of.
    /// - Throws: a storage or projection failure.
    public func localClocks() throws -> LocalClocks {
        let state = try state(of: travel)
        let stamp = try state.lastChange()
        if stamp == 0 { return LocalClocks(days: dailyHealth.days) }
        if let kept = localClocksCache.clocks(at: stamp) { return kept }
        // Clocks that only ever showed the home zone, by name, and no period set: home's days
        // (a Health export names the phone's zone on every record, at home too).
        let clocks =
            try state.readings().allSatisfy { $0 == timeZoneIdentifier || $0 == timeZone.identifier } && state.runnerPeriods().isEmpty
            ? LocalClocks(days: dailyHealth.days)
            : LocalClocks(
                days: ZonedCalendar(timeline: try state.timeline(home: timeZone), reusing: localClocksCache.latest?.days ?? dailyHealth.days),
                shown: try state.shownOffsets())
        localClocksCache.keep(clocks, at: stamp)
        return clocks
    }

    /// The calendar days were cut by as recorded through `sequence` (the timeline folded from
    /// the events up to it): the present's when `sequence` is nil.
    /// - Throws: a storage or projection failure.
    public func days(asRecordedThrough sequence: UInt64?) throws -> ZonedCalendar {
        try localClocks(asRecordedThrough: sequence).days
    }

    /// The runner's clocks as recorded through `sequence` (the present's when nil).
    /// - Throws: a storage or projection failure.
    public func localClocks(asRecordedThrough sequence: UInt64?) throws -> LocalClocks {
        guard let sequence else { return try localClocks() }
        let recorded = try travelState(through: sequence)
        guard try recorded.lastChange() != 0 else { return LocalClocks(days: dailyHealth.days) }
        return LocalClocks(
            days: ZonedCalendar(timeline: try recorded.timeline(home: timeZone), reusing: localClocksCache.latest?.days ?? dailyHealth.days),
            shown: try recorded.shownOffsets())
    }

    /// The travel rows as recorded through `sequence`, from their nearest snapshot.
    func travelState(through sequence: UInt64) throws -> ProjectionState<TravelProjection> {
        let last = min(sequence, try store.lastSequence())
        return ProjectionState(travel, source: InMemoryRows(try store.rowsAsRecorded([travel], through: last)[0]))
    }

    /// The daily records' state, its days cut where they were lived.
    /// - Throws: a storage or projection failure.
    func dailyState() throws -> ProjectionState<DailyHealthProjection> {
        try state(of: dailyHealth.cut(by: days()))
    }

    /// The runner's word: from `from` (until `to`, or for good) they lived in `zone`. The days
    /// of the period are cut there, over anything the inputs imply; no other day moves.
    /// - Throws: ``LedgerError/unknownTimeZone(_:)``; ``ValueRefusal`` for a date before
    ///   ``Plausible/firstSampleDayText``, more than a year after today, or an end not after the
    ///   start; nothing is appended.
    @discardableResult
    public func addTravel(zone identifier: String, from: CivilDate, to: CivilDate?) throws -> (sequence: UInt64, period: TravelPeriodSet) {
        guard TimeZone(identifier: identifier) != nil, identifier.contains("/") || identifier == "UTC" else {
            throw LedgerError.unknownTimeZone(identifier)
        }
        let first = CivilDate(year: 2000, month: 1, day: 1)
        let latest = try days().day(of: clock.now()).adding(days: 366)
        for (name, date) in [("the first date", from), ("the end date", to)] {
            guard let date else { continue }
            guard date >= first, date <= latest else {
                throw ValueRefusal(
                    what: name, value: date.description, allowed: "from \(Plausible.firstSampleDayText) through a year after today (\(latest))",
                    why: "a period holds for days the ledger can hold")
            }
        }
        if let to, to <= from {
            throw ValueRefusal(
                what: "the end date", value: to.description, allowed: "after the first date (\(from))",
                why: "--to names the first date back home, so a period of one day ends the day after it")
        }
        let period = TravelPeriodSet(zone: identifier, from: from, to: to)
        let before = try days().timeline
        let outcome = try append([PendingEvent(.travelPeriodSet(period), occurredAt: clock.now(), entity: .athlete)])
        try reconcileStepAwards(for: Self.datesMoved(from: before, to: try days().timeline), cause: Self.zoneCutCause)
        return ((outcome.sequences.first ?? nil) ?? outcome.lastSequence, period)
    }

    /// Takes back a period the runner set (by the sequence `stride travel` shows).
    /// - Throws: ``TravelError/noSuchPeriod(_:known:)`` when no period the runner set has
    ///   that sequence; nothing is appended.
    public func removeTravel(period sequence: UInt64) throws {
        let before = try days().timeline
        try decideAndAppend(about: "the travel periods") {
            let version = try store.version(of: .athlete)
            let periods = try state(of: travel).runnerPeriods()
            guard periods.contains(where: { $0.sequence == sequence }) else {
                throw TravelError.noSuchPeriod(sequence, known: periods.map(\.sequence))
            }
            return Decision(
                events: [PendingEvent(.travelPeriodRemoved(TravelPeriodRemoved(period: sequence)), occurredAt: clock.now(), entity: .athlete)],
                expecting: [VersionExpectation(.athlete, version: version)])
        }
        try reconcileStepAwards(for: Self.datesMoved(from: before, to: try days().timeline), cause: Self.zoneCutCause)
    }

    /// Where the runner lived: the periods they set, those the inputs show, and the timeline
    /// they make (the home zone where neither says anything).
    /// - Throws: a storage or projection failure.
    public func travelPlan() throws -> TravelPlan {
        let state = try state(of: travel)
        return TravelPlan(
            home: timeZoneIdentifier, runner: try state.runnerPeriods(), learned: try state.learnedPeriods(home: timeZone),
            timeline: try days().timeline.periods, observations: try state.observations().count)
    }

    /// Why a date is cut in its zone: the zone, whether the runner said so (and by which
    /// event) or the inputs show it (and the observations, with their events, that do), and
    /// the day's length.
    /// - Throws: a storage or projection failure.
    public func explainTravel(on date: CivilDate) throws -> TravelExplanation {
        let calendar = try days()
        let zone = calendar.zone(on: date)
        let state = try state(of: travel)
        let runner = try state.runnerPeriods().last { $0.period.period?.holds(date) ?? false }
        // The observations within a week either side of the date.
        let week = calendar.start(of: date.adding(days: -7))..<calendar.start(of: date.adding(days: 8))
        let observations = try state.observations().filter { week.contains($0.observation.instant) }
        let learned = try state.learnedPeriods(home: timeZone).last { $0.holds(date) }
        let why: TravelExplanation.Reason =
            if let runner, runner.period.period?.zone.identifier == zone.identifier {
                .runner(sequence: runner.sequence, period: runner.period)
            } else if let learned, learned.zone.identifier == zone.identifier {
                .inputs(learned)
            } else {
                .home
            }
        return TravelExplanation(
            date: date, zone: zone.identifier, home: timeZoneIdentifier, offsetSeconds: calendar.offset(at: calendar.start(of: date)),
            hours: Double(calendar.length(of: date)) / 3600, reason: why, observations: observations)
    }

    /// Appends what a file's clocks showed that the ledger did not know yet, and says which
    /// days that moved to another zone (with the days either side, re-cut with them).
    /// - Throws: a storage failure.
    func recordZones(_ observed: ZoneObservations, file: String) throws -> ZonesLearned {
        guard observed.count > 0 else { return ZonesLearned() }
        let state = try state(of: travel)
        let new = try observed.all.filter { try !state.knows($0) }
        guard !new.isEmpty else { return ZonesLearned() }
        let before = try days()
        try append([
            PendingEvent(.zonesObserved(ZonesObserved(file: file, observations: new)), occurredAt: new[0].instant, entity: .athlete)
        ])
        return ZonesLearned(observations: new.count, daysMoved: Self.datesMoved(from: before.timeline, to: try days().timeline))
    }

    /// The dates whose zone differs between two timelines, with the days either side of each
    /// (the day before ends at the moved date's midnight; the night of the day after began on it).
    static func datesMoved(from before: ZoneTimeline, to after: ZoneTimeline) -> Set<CivilDate> {
        var dates: Set<CivilDate> = []
        let bounds = (before.periods + after.periods).flatMap { [$0.from, $0.to ?? $0.from] }
        guard let first = bounds.min(), let last = bounds.max() else { return [] }
        var date = first.adding(days: -1)
        while date <= last.adding(days: 1) {
            if before.zone(on: date).identifier != after.zone(on: date).identifier {
                dates.insert(date.adding(days: -1))
                dates.insert(date)
                dates.insert(date.adding(days: 1))
            }
            date = date.adding(days: 1)
        }
        return dates
    }
}

/// What an ingest learned of where the runner lived.
public struct ZonesLearned: Sendable, Hashable {
    /// Observations of the clocks the ledger did not know (appended in a `travel.zonesObserved`).
    public var observations = 0
    /// The days re-cut: those whose zone changed, and the days either side of each.
    public var daysMoved: Set<CivilDate> = []

    /// Nothing learned.
    public init() {}

    /// Learned `observations`, moving `daysMoved`.
    public init(observations: Int, daysMoved: Set<CivilDate>) {
        self.observations = observations
        self.daysMoved = daysMoved
    }
}

/// Why a travel command was refused.
public enum TravelError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No period the runner set has this sequence.
    case noSuchPeriod(UInt64, known: [UInt64])

    public var description: String {
        switch self {
        case .noSuchPeriod(let sequence, let known):
            "no travel period was set by event \(sequence); nothing was changed — "
                + (known.isEmpty
                    ? "no period is set (see `stride travel`)" : "periods are set by events \(known.map(String.init).joined(separator: ", "))")
        }
    }
}

/// Where the runner lived, as `stride travel` shows it.
public struct TravelPlan: Sendable {
    /// The home zone's identifier.
    public var home: String
    /// The periods the runner set, each with its event's sequence, in the order set.
    public var runner: [(sequence: UInt64, period: TravelPeriodSet)]
    /// The periods the inputs show.
    public var learned: [ZonePeriod]
    /// The timeline they make: every period away from home, in date order.
    public var timeline: [ZonePeriod]
    /// How many observations the timeline was learned from.
    public var observations: Int
}

/// Why a date is cut in its zone.
public struct TravelExplanation: Sendable {
    /// Where the zone comes from.
    public enum Reason: Sendable {
        /// The runner set a period covering the date (its event's sequence).
        case runner(sequence: UInt64, period: TravelPeriodSet)
        /// The inputs' clocks show a stay there.
        case inputs(ZonePeriod)
        /// Nothing says otherwise: the home zone.
        case home
    }

    public var date: CivilDate
    /// The zone the date is cut in, and the home zone.
    public var zone: String
    public var home: String
    /// The zone's offset at the day's start, in seconds east of UTC.
    public var offsetSeconds: Int
    /// The day's length in hours (24, or 23 and 25 when clocks change; shorter or longer on a
    /// day of travel).
    public var hours: Double
    public var reason: Reason
    /// The observations within a week of the date, each with the event that brought it.
    public var observations: [(observation: ZoneObservation, sequence: UInt64)]
}

/// The runner's clocks built, kept while the timeline's inputs are unchanged.
final class LocalClocksCache: Sendable {
    private let kept = Mutex<(stamp: UInt64, clocks: LocalClocks)?>(nil)

    init() {}

    /// The clocks built at `stamp` (the travel projection's last change), if kept.
    func clocks(at stamp: UInt64) -> LocalClocks? {
        kept.withLock { $0.flatMap { $0.stamp == stamp ? $0.clocks : nil } }
    }

    /// The last clocks built, whose zones' calendars new ones reuse.
    var latest: LocalClocks? { kept.withLock { $0?.clocks } }

    /// Keeps the clocks built at `stamp`.
    func keep(_ clocks: LocalClocks, at stamp: UInt64) {
        kept.withLock { $0 = (stamp, clocks) }
    }
}

extension Ledger {
    /// The days an ingest decides step awards for, from the home days its step samples are
    /// filed on: a day cut elsewhere may take steps from the home days either side of it.
    /// - Throws: a storage or projection failure.
    func zonedStepDays(_ homeDays: Set<CivilDate>) throws -> Set<CivilDate> {
        let days = try days()
        guard !days.timeline.isHomeOnly else { return homeDays }
        var result = homeDays
        for day in homeDays where !days.isCutAtHome(day) || !days.isCutAtHome(day.adding(days: -1)) || !days.isCutAtHome(day.adding(days: 1)) {
            result.insert(day.adding(days: -1))
            result.insert(day.adding(days: 1))
        }
        return result
    }
}
