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

    /// The record of a day from its facts, by the rules of the policies.
    public static func make(day: CivilDate, facts: DayFacts, calendar: LocalCalendar) -> DailyRecord {
        let span = calendar.span(of: day)
        return DailyRecord(
            date: day, sleep: SleepPolicy.summary(facts[.sleep], window: calendar.sleepWindow(of: day)),
            heartRate: HeartRatePolicy.summary(facts[.heartRate], day: span),
            restingHeartRate: HeartRatePolicy.resting(facts[.restingHeartRate], day: span),
            steps: ActivityPolicy.total(facts[.steps], day: span), distance: ActivityPolicy.total(facts[.distance], day: span),
            activeEnergy: ActivityPolicy.total(facts[.activeEnergy], day: span), lastSequence: facts.lastSequence)
    }
}
