/// What the runner's clocks showed: the days as cut where they were lived (``ZonedCalendar``),
/// and the offsets files recorded at the moments they were taken — a run's FIT file its watch's
/// local time, Garmin its local start, the Health app a workout's `HKTimeZone`.
///
/// A run counts on the date its own clock showed and prints at its own offset, even where one
/// run's file is not enough to move a day (a lone observation is evidence, not a move): a 06:36
/// run in Bangkok is a run of that morning, whatever the ledger's home zone.
public struct LocalClocks: Sendable {
    /// The days, cut where they were lived.
    public let days: ZonedCalendar
    /// The offset a file's clock showed, seconds east of UTC, by hour since 1970.
    let shown: [Int64: Int]

    /// The clocks of `days` and the offsets files showed (by hour since 1970).
    public init(days: ZonedCalendar, shown: [Int64: Int] = [:]) {
        self.days = days
        self.shown = shown
    }

    /// The offset of an instant: what a file's clock showed in its hour, else that of the zone
    /// of the day it falls on.
    public func offset(at instant: Timestamp) -> Int {
        shown[instant.hoursSince1970] ?? days.offset(at: instant)
    }

    /// The day a run (or anything a file timed) starting at `start` counts on: the date its own
    /// clock showed, else the day it falls on.
    public func day(ofStart start: Timestamp) -> CivilDate {
        guard let offset = shown[start.hoursSince1970] else { return days.day(of: start) }
        let seconds = start.secondsSince1970 + Int64(offset)
        return CivilDate(daysSince1970: seconds >= 0 ? seconds / 86_400 : (seconds + 1) / 86_400 - 1)
    }
}
