import Foundation
import StrideEvents

/// The buckets of Health Auto Export's metric points: each point is HealthKit's statistic
/// over one grouping unit starting at its `date`.
enum Buckets {
    /// The grouping of a metric's points: the automation's when the request says it; else
    /// days when every point sits at local midnight (as printed), else the app's "Default":
    /// seconds for heart rate, minutes for everything else.
    static func grouping(
        ofMetric name: String, starts: some Sequence<HealthAutoExportDate>, given: HealthAutoExportGrouping?
    )
        -> (grouping: HealthAutoExportGrouping, isInferred: Bool)
    {
        if let given { return (given, false) }
        var hasStarts = false
        for start in starts {
            guard start.secondOfDay == 0 else { return (name.lowercased() == "heart_rate" ? .seconds : .minutes, true) }
            hasStarts = true
        }
        if hasStarts { return (.days, true) }
        return (name.lowercased() == "heart_rate" ? .seconds : .minutes, true)
    }

    /// Where a bucket ends. Seconds, minutes and hours are fixed lengths. Days, weeks,
    /// months and years end at the same wall-clock time that many calendar units later, at
    /// the offset in force then: the time zone's when it is the one the start was printed
    /// in (so a day of 23 or 25 hours comes out right), else the start's printed offset.
    static func end(of start: HealthAutoExportDate, grouping: HealthAutoExportGrouping, timeZone: TimeZone?) -> Timestamp {
        let date: CivilDate
        switch grouping {
        case .seconds: return start.instant.adding(milliseconds: 1000)
        case .minutes: return start.instant.adding(milliseconds: 60_000)
        case .hours: return start.instant.adding(milliseconds: 3_600_000)
        case .days: date = start.date.adding(days: 1)
        case .weeks: date = start.date.adding(days: 7)
        case .months: date = adding(months: 1, to: start.date)
        case .years: date = adding(months: 12, to: start.date)
        }
        let wall = date.daysSince1970 * 86_400 + Int64(start.secondOfDay)
        var offset = Int64(start.offsetSeconds)
        if let timeZone, timeZone.secondsFromGMT(for: foundationDate(start.instant)) == start.offsetSeconds {
            offset = Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(wall - offset))))
            // Once more from the instant that offset gives, for an end just past a change.
            offset = Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(wall - offset))))
        }
        return Timestamp(secondsSince1970: wall - offset)
    }

    /// What names a bucket across re-sends: its start as an instant for sub-day groupings;
    /// for calendar groupings the local date as printed, so that a bucket re-sent after a
    /// time-zone change is the same bucket.
    static func key(of start: HealthAutoExportDate, grouping: HealthAutoExportGrouping) -> String {
        grouping.isCalendarSpan ? start.date.description : start.instant.description
    }

    private static func adding(months: Int, to date: CivilDate) -> CivilDate {
        let index = date.year * 12 + (date.month - 1) + months
        let year = index >= 0 ? index / 12 : (index - 11) / 12
        let month = index - year * 12 + 1
        return CivilDate(year: year, month: month, day: min(date.day, CivilDate.daysInMonth(year: year, month: month)))
    }

    private static func foundationDate(_ instant: Timestamp) -> Date {
        Date(timeIntervalSince1970: TimeInterval(instant.millisecondsSince1970) / 1000)
    }
}
