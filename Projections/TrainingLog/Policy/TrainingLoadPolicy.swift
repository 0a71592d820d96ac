import StrideEvents

/// Fitness, fatigue and form from each day's TRIMP (Banister's model, as intervals.icu and
/// GoldenCheetah draw it). Pure.
///
/// Fitness CTL_d = CTL_{d−1} + (TRIMP_d − CTL_{d−1}) / 42; fatigue ATL the same over 7 days;
/// form on day d = CTL_{d−1} − ATL_{d−1}: what the runner brings to the day, before its runs.
/// Both start from 0 on the day of the first run.
public enum TrainingLoadPolicy {
    public static let fitnessDays = 42.0
    public static let fatigueDays = 7.0

    /// One day of the series.
    public struct Day: Sendable, Equatable {
        public var date: CivilDate
        public var trimp: Double
        public var fitness: Double
        public var fatigue: Double
        public var form: Double
    }

    /// Every day from the first day with load through `last`, each with its TRIMP, fitness,
    /// fatigue and form; empty with no load at all.
    public static func days(trimpByDay: [CivilDate: Double], through last: CivilDate) -> [Day] {
        guard let first = trimpByDay.keys.min(), first <= last else { return [] }
        var days: [Day] = []
        var (fitness, fatigue) = (0.0, 0.0)
        var date = first
        while date <= last {
            let trimp = trimpByDay[date] ?? 0
            let form = fitness - fatigue
            fitness += (trimp - fitness) / fitnessDays
            fatigue += (trimp - fatigue) / fatigueDays
            days.append(Day(date: date, trimp: trimp, fitness: fitness, fatigue: fatigue, form: form))
            date = date.adding(days: 1)
        }
        return days
    }
}

/// ISO weeks, which begin on Monday: `2024-W03`. Pure.
public enum ISOWeek {
    /// The Monday of the week holding `date`.
    public static func start(of date: CivilDate) -> CivilDate {
        date.adding(days: -weekdayIndex(date))
    }

    /// `2024-W03`: the ISO week-year and number of the week holding `date`.
    public static func name(of date: CivilDate) -> String {
        // The week belongs to the year of its Thursday.
        let thursday = start(of: date).adding(days: 3)
        let january4 = CivilDate(year: thursday.year, month: 1, day: 4)
        let week = (thursday.daysSince1970 - start(of: january4).daysSince1970) / 7 + 1
        return "\(thursday.year)-W" + (week < 10 ? "0" : "") + String(week)
    }

    /// 0 for Monday … 6 for Sunday (1970-01-01 was a Thursday).
    static func weekdayIndex(_ date: CivilDate) -> Int {
        Int(((date.daysSince1970 % 7) + 7 + 3) % 7)
    }
}

/// When a shoe reaches its goal at its pace of the last eight weeks. Pure.
public enum ShoeForecast {
    public static let windowDays = 56

    /// The day the shoe reaches `goal` kilometres, at the kilometres a day it ran over the
    /// eight weeks through `today`; `today` when it has reached it; nil with no run in them.
    public static func goalDay(kilometres: Double, goal: Double, recentKilometres: Double, today: CivilDate) -> CivilDate? {
        guard kilometres < goal else { return today }
        let perDay = recentKilometres / Double(windowDays)
        guard perDay > 0 else { return nil }
        let days = ((goal - kilometres) / perDay).rounded(.up)
        guard days < 36_500 else { return nil }
        return today.adding(days: Int(days))
    }
}
