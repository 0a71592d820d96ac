import StrideEvents

/// One local day's health record, computed from its facts.
public struct DailyRecord: Hashable, Sendable {
    /// The local day.
    public var date: CivilDate
    /// The night ending on this day (its 18:00–18:00 window).
    public var sleep: SleepSummary?
    /// The day's heart rate.
    public var heartRate: HeartRateSummary?
    /// The day's resting heart rate.
    public var restingHeartRate: Double?
    /// Steps.
    public var steps: ActivityTotal?
    /// Walking and running distance, metres.
    public var distance: ActivityTotal?
    /// Active energy, kilocalories.
    public var activeEnergy: ActivityTotal?
    /// The last sequence that changed the day's facts.
    public var lastSequence: UInt64
    /// Where the day was lived, when not simply at home: its zone, or its length on a day of
    /// travel. Nil for a day of 24 hours (23 or 25 when the clocks change) in the home zone.
    public var lived: DayLived? = nil

    /// The record of a day from its facts, by the rules of the policies.
    public static func make(day: CivilDate, facts: DayFacts, calendar: ZonedCalendar) -> DailyRecord {
        let span = calendar.span(of: day)
        return DailyRecord(
            date: day, sleep: SleepPolicy.summary(facts[.sleep], window: calendar.sleepWindow(of: day)),
            heartRate: HeartRatePolicy.summary(facts[.heartRate], day: span),
            restingHeartRate: HeartRatePolicy.resting(facts[.restingHeartRate], day: span),
            steps: ActivityPolicy.total(facts[.steps], day: span), distance: ActivityPolicy.total(facts[.distance], day: span),
            activeEnergy: ActivityPolicy.total(facts[.activeEnergy], day: span), lastSequence: facts.lastSequence,
            lived: DayLived(day, in: calendar))
    }
}

/// Where a day was lived, when it was not an ordinary day at home: the zone it is cut in and
/// its length (17 hours flying east, 31 flying west).
public struct DayLived: Hashable, Sendable {
    /// The zone's identifier (`Asia/Bangkok`).
    public var zone: String
    /// The zone's offset at the day's start, seconds east of UTC.
    public var offsetSeconds: Int
    /// The day's length in seconds.
    public var seconds: Int64

    /// Where `day` was lived, by `calendar`; nil for an ordinary day at home (its zone the home
    /// zone and its length the home calendar's).
    public init?(_ day: CivilDate, in calendar: ZonedCalendar) {
        guard !calendar.isCutAtHome(day) else { return nil }
        let zone = calendar.zone(on: day)
        let seconds = calendar.length(of: day)
        let span = calendar.home.span(of: day)
        let homeSeconds = (span.upperBound.millisecondsSince1970 - span.lowerBound.millisecondsSince1970) / 1000
        guard zone.identifier != calendar.timeline.home.identifier || seconds != homeSeconds else { return nil }
        self.zone = zone.identifier
        self.offsetSeconds = calendar.offset(at: calendar.start(of: day))
        self.seconds = seconds
    }

    /// The zone as a runner reads it: its city and offset (`Bangkok, UTC+7`).
    public var place: String {
        let city = zone.split(separator: "/").last.map { $0.replacingOccurrences(of: "_", with: " ") } ?? zone
        let offset = ClockText.offset(offsetSeconds)
        return zone.hasPrefix("Etc/") ? offset : "\(city), \(offset)"
    }

    /// The length in hours.
    public var hours: Double { Double(seconds) / 3600 }

    /// The length in hours as a runner reads it: whole (`17`), else to a tenth (`16.5`).
    public var hoursShown: String { ClockText.hours(hours) }
}
