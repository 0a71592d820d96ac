import Foundation

/// Local calendar days cut where they were lived: each date in the zone a ``ZoneTimeline``
/// gives it, with ``LocalCalendar``'s methods and, for a timeline with no period away from
/// home, exactly its results.
///
/// The rule: local day D runs from midnight of D in D's zone to midnight of D+1 in D+1's
/// zone. A day of flying east is shorter, one of flying west longer (Paris to Tokyo in April:
/// 17 hours; Tokyo to New York: 37). Where the next date's midnight comes no later than
/// this one's (crossing the date line eastwards, Honolulu to Kiritimati), this date lasts no
/// time at all: it is skipped. A day never starts before the one before it: where a
/// midnight would come earlier still (UTC−12 to UTC+14), the day starts when the one before
/// ends, and is that much shorter. Crossing the date line westwards makes the date lived
/// twice one day of 48 hours. Every instant lies in exactly one day, so figures spread over
/// days still add up to their totals.
///
/// The night before a day, its sleep window, runs from 18:00 of the day before in that day's
/// zone to 18:00 of the day in its own zone, with the same clamp: a window never ends before
/// the one before it, so windows of consecutive days tile time, and one whose 18:00 comes
/// before the previous day's is empty.
///
/// An instant's day is found by a binary search over the instants the timeline's stretches
/// start at, then the day of that stretch's zone, kept within the stretch's dates.
public struct ZonedCalendar: Sendable {
    /// The dates and their zones.
    public let timeline: ZoneTimeline
    /// One calendar per zone of the timeline, in the order of `timeline.zones`.
    private let calendars: [LocalCalendar]
    /// The instant (seconds) each stretch's first day starts; `Int64.min` for the first.
    private let dayStarts: [Int64]
    /// The first day of each stretch that starts at its own midnight: the days before it in
    /// the stretch start at the stretch's start, as the day before ends later than their
    /// midnights (only after a move east by more than a day's worth of hours).
    private let firstMidnightDays: [Int64]
    /// The instant (seconds) the sleep window of each stretch's first day starts: 18:00 of
    /// the day before, in that day's zone, or the end of the window before it if later.
    private let sleepStarts: [Int64]

    /// The calendar of a timeline. The calendars of the zones `earlier` already built are
    /// reused (a zone's calendar holds three centuries of its changes).
    public init(timeline: ZoneTimeline, reusing earlier: ZonedCalendar? = nil) {
        self.timeline = timeline
        var built: [String: LocalCalendar] = [:]
        for calendar in earlier?.calendars ?? [] { built[calendar.identifier] = calendar }
        calendars = timeline.zones.map { built[$0.identifier] ?? LocalCalendar(timeZone: $0) }
        var dayStarts: [Int64] = [Int64.min]
        var firstMidnightDays: [Int64] = [Int64.min]
        var sleepStarts: [Int64] = [Int64.min]
        let evening: Int64 = 18 * 3600
        for index in timeline.stretchStarts.indices.dropFirst() {
            let (calendar, before) = (calendars[timeline.stretchZones[index]], calendars[timeline.stretchZones[index - 1]])
            let first = timeline.stretchStarts[index]
            let lastBefore = first - 1
            // The day before ends no earlier than it starts; this one starts at its midnight
            // or there.
            let endBefore = max(before.start(of: CivilDate(daysSince1970: lastBefore)).secondsSince1970, dayStarts[index - 1])
            let start = max(calendar.start(of: CivilDate(daysSince1970: first)).secondsSince1970, endBefore)
            dayStarts.append(start)
            var midnightDay = first
            let last = timeline.lastDay(ofStretch: index)
            while midnightDay <= last, calendar.start(of: CivilDate(daysSince1970: midnightDay)).secondsSince1970 < start { midnightDay += 1 }
            firstMidnightDays.append(midnightDay)
            let eveningBefore = before.instant(of: CivilDate(daysSince1970: lastBefore), secondOfDay: evening).secondsSince1970
            sleepStarts.append(max(eveningBefore, sleepStarts[index - 1]))
        }
        self.dayStarts = dayStarts
        self.firstMidnightDays = firstMidnightDays
        self.sleepStarts = sleepStarts
    }

    /// The calendar of one zone, every date in it: ``LocalCalendar``'s days.
    public init(timeZone: TimeZone) {
        self.init(timeline: ZoneTimeline(home: timeZone))
    }

    /// The home zone's identifier.
    public var identifier: String { timeline.home.identifier }

    /// The zone in force on a date.
    public func zone(on date: CivilDate) -> TimeZone { timeline.zone(on: date) }

    /// The UTC offset in seconds at an instant, in the zone of the day it falls on.
    public func offset(at instant: Timestamp) -> Int {
        calendar(ofStretch: stretch(at: instant, starts: dayStarts)).offset(at: instant)
    }

    /// Where an instant lies: its day, as days since 1970, and the seconds elapsed since that
    /// day's start (real seconds). Equal to `dayNumber(of:)` and to the instant minus
    /// `start(of:)`.
    public func placeOf(_ instant: Timestamp) -> (days: Int64, elapsed: Int64) {
        if timeline.isHomeOnly { return calendars[0].placeOf(instant) }
        let index = stretch(at: instant, starts: dayStarts)
        let place = calendar(ofStretch: index).placeOf(instant)
        let days = clamp(place.days, toStretch: index)
        if days == place.days, days >= firstMidnightDays[index] { return place }
        return (days, instant.secondsSince1970 - startSecond(ofDay: days))
    }

    /// The day an instant falls on, as days since 1970; equal to `day(of:)`.
    public func dayNumber(of instant: Timestamp) -> Int64 {
        if timeline.isHomeOnly { return calendars[0].dayNumber(of: instant) }
        let index = stretch(at: instant, starts: dayStarts)
        return clamp(calendar(ofStretch: index).dayNumber(of: instant), toStretch: index)
    }

    /// The day an instant falls on.
    public func day(of instant: Timestamp) -> CivilDate {
        CivilDate(daysSince1970: dayNumber(of: instant))
    }

    /// The wall-clock time of day, in seconds after midnight, of an instant in the zone of
    /// the day it falls on. On a day of 48 hours the clock goes round twice.
    public func secondOfDay(_ instant: Timestamp) -> Int64 {
        calendar(ofStretch: stretch(at: instant, starts: dayStarts)).secondOfDay(instant)
    }

    /// The instant a wall-clock time on a day denotes in that day's zone, as
    /// ``LocalCalendar/instant(of:secondOfDay:)`` gives it. On a day of travel the time may
    /// lie outside the day: 20:00 on a 17-hour day flying east is past its end.
    public func instant(of day: CivilDate, secondOfDay: Int64) -> Timestamp {
        calendar(ofStretch: timeline.stretch(ofDay: day.daysSince1970)).instant(of: day, secondOfDay: secondOfDay)
    }

    /// The instant a day starts: its midnight in its zone, or the end of the day before when
    /// that is later.
    public func start(of day: CivilDate) -> Timestamp {
        Timestamp(secondsSince1970: startSecond(ofDay: day.daysSince1970))
    }

    /// The day's span, from its start to the next day's: 24 hours, 23 or 25 when the clocks
    /// change, shorter or longer on a day of travel, empty for a date skipped.
    public func span(of day: CivilDate) -> Range<Timestamp> { start(of: day)..<start(of: day.adding(days: 1)) }

    /// The day's length in seconds (0 for a date skipped, 172,800 for a date lived twice).
    public func length(of day: CivilDate) -> Int64 {
        startSecond(ofDay: day.daysSince1970 + 1) - startSecond(ofDay: day.daysSince1970)
    }

    /// The sleep window of a day: `[the day before at 18:00 in its zone, the day at 18:00 in
    /// its zone)`, each end kept no earlier than the window before ends.
    public func sleepWindow(of day: CivilDate) -> Range<Timestamp> {
        if timeline.isHomeOnly { return calendars[0].sleepWindow(of: day) }
        let days = day.daysSince1970
        return Timestamp(secondsSince1970: sleepEnd(ofDay: days - 1))..<Timestamp(secondsSince1970: sleepEnd(ofDay: days))
    }

    /// The day whose sleep window holds an instant.
    public func sleepDay(of instant: Timestamp) -> CivilDate {
        if timeline.isHomeOnly { return calendars[0].sleepDay(of: instant) }
        let index = stretch(at: instant, starts: sleepStarts)
        return CivilDate(daysSince1970: clamp(calendar(ofStretch: index).sleepDay(of: instant).daysSince1970, toStretch: index))
    }

    /// The home zone's calendar: how the days are cut where nothing else is known.
    public var home: LocalCalendar { calendars[0] }

    /// Whether a day is cut as at home: it and the days either side of it are in the home
    /// zone, so its span and its night are the home calendar's (a day after a trip starts at
    /// home midnight, but its night began at 18:00 where the trip ended).
    public func isCutAtHome(_ day: CivilDate) -> Bool {
        if timeline.isHomeOnly { return true }
        let days = day.daysSince1970
        let index = timeline.stretch(ofDay: days)
        guard timeline.stretchZones[index] == 0, timeline.stretch(ofDay: days - 1) == index, timeline.stretch(ofDay: days + 1) == index else {
            return false
        }
        return span(of: day) == calendars[0].span(of: day) && sleepWindow(of: day) == calendars[0].sleepWindow(of: day)
    }

    private func calendar(ofStretch index: Int) -> LocalCalendar { calendars[timeline.stretchZones[index]] }

    /// The start of a day, in seconds.
    private func startSecond(ofDay day: Int64) -> Int64 {
        let index = timeline.stretch(ofDay: day)
        if day < firstMidnightDays[index] { return dayStarts[index] }
        return calendar(ofStretch: index).start(of: CivilDate(daysSince1970: day)).secondsSince1970
    }

    /// The end of a day's sleep window, in seconds: 18:00 of the day in its zone, or the
    /// start of its stretch's first window when that is later.
    private func sleepEnd(ofDay day: Int64) -> Int64 {
        let index = timeline.stretch(ofDay: day)
        let evening = calendar(ofStretch: index).instant(of: CivilDate(daysSince1970: day), secondOfDay: 18 * 3600)
        return max(evening.secondsSince1970, sleepStarts[index])
    }

    /// The stretch an instant belongs to: the last whose start is at or before it (a stretch
    /// of dates skipped starts where the next one does and is passed over).
    private func stretch(at instant: Timestamp, starts: [Int64]) -> Int {
        starts.lastIndex(atOrBefore: instant.secondsSince1970)
    }

    /// A day kept within a stretch's dates.
    private func clamp(_ day: Int64, toStretch index: Int) -> Int64 {
        min(max(day, timeline.stretchStarts[index]), timeline.lastDay(ofStretch: index))
    }
}
