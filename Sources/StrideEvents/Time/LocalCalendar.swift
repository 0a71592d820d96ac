import Foundation

/// Local calendar days in one IANA time zone: the day an instant falls on, and the instant a
/// local wall-clock time denotes. Days of 23 and 25 hours come out right because offsets are
/// looked up per instant from the zone's own transitions, computed once.
public struct LocalCalendar: Sendable {
    /// The zone's identifier.
    public let identifier: String
    /// Instants (seconds) where the offset changes, ascending, and the offset from each on.
    private let transitions: [Int64]
    private let offsets: [Int]
    private let initialOffset: Int
    /// For each span of 2^22 seconds (about 48 days) from 1900, the number of transitions
    /// before it: a lookup starts there and steps over the one or two transitions a span
    /// holds, instead of a binary search over three centuries of them. Every sample folded
    /// asks for the offset two or three times.
    private let transitionsBefore: [Int32]
    private static let spanShift: Int64 = 22
    private static let firstSecond: Int64 = -2_208_988_800  // 1900-01-01
    private static let lastSecond: Int64 = 7_258_118_400  // 2200-01-01

    /// The calendar of a time zone, with its transitions from 1900 to 2200.
    public init(timeZone: TimeZone) {
        identifier = timeZone.identifier
        var transitions: [Int64] = []
        var offsets: [Int] = []
        var cursor = Date(timeIntervalSince1970: TimeInterval(Self.firstSecond))
        let limit = Date(timeIntervalSince1970: TimeInterval(Self.lastSecond))
        initialOffset = timeZone.secondsFromGMT(for: cursor)
        while let next = timeZone.nextDaylightSavingTimeTransition(after: cursor), next < limit, transitions.count < 1000 {
            transitions.append(Int64(next.timeIntervalSince1970.rounded()))
            offsets.append(timeZone.secondsFromGMT(for: next))
            cursor = next
        }
        self.transitions = transitions
        self.offsets = offsets
        let spans = Int((Self.lastSecond - Self.firstSecond) >> Self.spanShift) + 1
        var before = [Int32](repeating: 0, count: spans)
        var index = 0
        for span in 0..<spans {
            let spanStart = Self.firstSecond + Int64(span) << Self.spanShift
            while index < transitions.count, transitions[index] < spanStart { index += 1 }
            before[span] = Int32(index)
        }
        transitionsBefore = before
    }

    /// The UTC offset in seconds at an instant.
    public func offset(at instant: Timestamp) -> Int {
        offset(atSecond: instant.secondsSince1970)
    }

    private func offset(atSecond second: Int64) -> Int {
        period(atSecond: second).offset
    }

    /// The offset in force at a second, and the seconds it holds from (inclusive) and until
    /// (exclusive), `Int64.min` and `Int64.max` beyond the zone's first and last change.
    func period(atSecond second: Int64) -> (offset: Int, from: Int64, until: Int64) {
        // `low`: the number of transitions at or before `second` (all of them lie between
        // 1900 and 2200).
        var low: Int
        if second < Self.firstSecond {
            low = 0
        } else if second >= Self.lastSecond {
            low = transitions.count
        } else {
            low = Int(transitionsBefore[Int((second - Self.firstSecond) >> Self.spanShift)])
            while low < transitions.count, transitions[low] <= second { low += 1 }
        }
        return (
            low == 0 ? initialOffset : offsets[low - 1], low == 0 ? Int64.min : transitions[low - 1],
            low == transitions.count ? Int64.max : transitions[low]
        )
    }

    /// Where an instant lies in local time: its day, as days since 1970, and the seconds
    /// elapsed since that day's local midnight (real seconds: on a day the clocks change,
    /// 03:30 may be 2.5 hours after midnight). Equal to `day(of:)` and to the instant minus
    /// `start(of:)`, with one offset lookup instead of several on all but the days near a
    /// change.
    public func placeOf(_ instant: Timestamp) -> (days: Int64, elapsed: Int64) {
        let second = instant.secondsSince1970
        let period = period(atSecond: second)
        let local = second + Int64(period.offset)
        let days = Self.dayNumber(ofLocalSecond: local)
        let sinceMidnight = local - days * 86_400
        // With the offset unchanged for a day before this midnight, the midnight is the only
        // instant of that wall time: the elapsed seconds are the wall-clock ones.
        let midnight = second - sinceMidnight
        if period.from <= midnight - 86_400 { return (days, sinceMidnight) }
        let day = CivilDate(daysSince1970: days)
        return (days, second - start(of: day).secondsSince1970)
    }

    /// The local day an instant falls on, as days since 1970; equal to `day(of:)`.
    public func dayNumber(of instant: Timestamp) -> Int64 {
        Self.dayNumber(ofLocalSecond: instant.secondsSince1970 + Int64(offset(atSecond: instant.secondsSince1970)))
    }

    /// The day, as days since 1970, holding a local wall-clock second (rounding down).
    private static func dayNumber(ofLocalSecond local: Int64) -> Int64 {
        local >= 0 ? local / 86_400 : -((-local + 86_399) / 86_400)
    }

    /// The local day an instant falls on.
    public func day(of instant: Timestamp) -> CivilDate {
        CivilDate(daysSince1970: dayNumber(of: instant))
    }

    /// The local time of day, in seconds after local midnight, of an instant.
    public func secondOfDay(_ instant: Timestamp) -> Int64 {
        let local = instant.secondsSince1970 + Int64(offset(at: instant))
        return ((local % 86_400) + 86_400) % 86_400
    }

    /// The instant a local wall-clock time on a day denotes. A time skipped by a change to
    /// summer time gives the instant the clocks jumped (the first that exists); a time that
    /// occurs twice gives the first occurrence.
    public func instant(of day: CivilDate, secondOfDay: Int64) -> Timestamp {
        let wall = day.daysSince1970 * 86_400 + secondOfDay
        let early = wall - Int64(offset(atSecond: wall + 86_400))
        let late = wall - Int64(offset(atSecond: wall - 86_400))
        let valid = [early, late].filter { $0 + Int64(offset(atSecond: $0)) == wall }
        if let first = valid.min() { return Timestamp(secondsSince1970: first) }
        // In a gap the wall time never occurs: the clocks jumped over it at a transition
        // between the two candidates, the first instant of the day that exists after it.
        let (low, high) = (min(early, late), max(early, late))
        return Timestamp(secondsSince1970: transitions.first { $0 > low && $0 <= high } ?? high)
    }

    /// Local midnight starting a day.
    public func start(of day: CivilDate) -> Timestamp { instant(of: day, secondOfDay: 0) }

    /// The day's span, `[midnight, next midnight)`: 23, 24 or 25 hours.
    public func span(of day: CivilDate) -> Range<Timestamp> { start(of: day)..<start(of: day.adding(days: 1)) }

    /// The sleep window of a day, `[the day before at 18:00, the day at 18:00)`.
    public func sleepWindow(of day: CivilDate) -> Range<Timestamp> {
        instant(of: day.adding(days: -1), secondOfDay: 18 * 3600)..<instant(of: day, secondOfDay: 18 * 3600)
    }

    /// The day whose sleep window holds an instant.
    public func sleepDay(of instant: Timestamp) -> CivilDate {
        let day = day(of: instant)
        return secondOfDay(instant) >= 18 * 3600 ? day.adding(days: 1) : day
    }
}
