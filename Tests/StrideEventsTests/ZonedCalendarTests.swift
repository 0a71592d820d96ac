import Foundation
import StrideTestSupport
import Testing

@testable import StrideEvents

/// The timelines of the hand-computed cases.
enum Trips {
    /// Paris, then Tokyo from 2024-04-11, New York from 04-20, Paris again from 04-27.
    static let world = "world"
    /// Honolulu (UTC−10), then Kiritimati (UTC+14) from 2024-06-10 to 06-20: the date line
    /// eastwards, then westwards.
    static let dateLine = "dateLine"
    /// UTC−12, then Kiritimati (UTC+14) from 2024-06-10: a midnight 2 hours earlier than the
    /// one before.
    static let farthest = "farthest"
    /// Paris, then New York from 2024-03-05 to 03-15, across New York's change to summer time
    /// on 03-10.
    static let summerTime = "summerTime"

    static func calendar(_ name: String) -> ZonedCalendar {
        switch name {
        case world: ZonedCalendar(timeline: timeline("Europe/Paris", ["Asia/Tokyo 2024-04-11 2024-04-20", "America/New_York 2024-04-20 2024-04-27"]))
        case dateLine: ZonedCalendar(timeline: timeline("Pacific/Honolulu", ["Pacific/Kiritimati 2024-06-10 2024-06-20"]))
        case farthest: ZonedCalendar(timeline: timeline("Etc/GMT+12", ["Pacific/Kiritimati 2024-06-10"]))
        case summerTime: ZonedCalendar(timeline: timeline("Europe/Paris", ["America/New_York 2024-03-05 2024-03-15"]))
        default: fatalError("no trip named \(name)")
        }
    }
}

@Suite("Days cut where they were lived")
struct ZonedCalendarTests {
    @Test("with no period away, every answer is LocalCalendar's, on London's days of 23 and 25 hours too")
    func homeOnlyIsTheLocalCalendar() {
        let london = zone("Europe/London")
        let local = LocalCalendar(timeZone: london)
        let zoned = ZonedCalendar(timeZone: london)
        #expect(zoned.length(of: date("2024-03-31")) == 23 * 3600)
        #expect(zoned.length(of: date("2024-10-27")) == 25 * 3600)
        #expect(zoned.start(of: date("2024-03-31")) == at("2024-03-31T00:00:00Z"))
        #expect(zoned.start(of: date("2024-10-27")) == at("2024-10-26T23:00:00Z"))
        #expect(zoned.identifier == local.identifier)
        for text in ["2024-03-30", "2024-03-31", "2024-04-01", "2024-10-26", "2024-10-27", "2024-10-28"] {
            let day = date(text)
            #expect(zoned.start(of: day) == local.start(of: day))
            #expect(zoned.span(of: day) == local.span(of: day))
            #expect(zoned.sleepWindow(of: day) == local.sleepWindow(of: day))
            for second: Int64 in [0, 1800, 3600, 5400, 7200, 9000, 64800, 86399] {
                #expect(zoned.instant(of: day, secondOfDay: second) == local.instant(of: day, secondOfDay: second))
            }
        }
        var checked = 0
        for (from, to) in [("2024-03-29T00:00:00Z", "2024-04-02T00:00:00Z"), ("2024-10-25T00:00:00Z", "2024-10-29T00:00:00Z")] {
            var instant = at(from).adding(milliseconds: 250)
            while instant < at(to) {
                #expect(zoned.placeOf(instant) == local.placeOf(instant), "\(instant)")
                #expect(zoned.dayNumber(of: instant) == local.dayNumber(of: instant))
                #expect(zoned.day(of: instant) == local.day(of: instant))
                #expect(zoned.offset(at: instant) == local.offset(at: instant))
                #expect(zoned.secondOfDay(instant) == local.secondOfDay(instant))
                #expect(zoned.sleepDay(of: instant) == local.sleepDay(of: instant))
                instant = instant.adding(milliseconds: 433_000)
                checked += 1
            }
        }
        #expect(checked > 1_500)
    }

    @Test(
        "a day runs from its midnight in its zone to the next day's midnight in the next day's zone",
        arguments: [
            (Trips.world, "2024-04-10", "2024-04-09T22:00:00Z", Int64(17), "flying east, Paris to Tokyo: the day left in Paris is short"),
            (Trips.world, "2024-04-11", "2024-04-10T15:00:00Z", 24, "the first day in Tokyo"),
            (Trips.world, "2024-04-19", "2024-04-18T15:00:00Z", 37, "flying west, Tokyo to New York: the last day in Tokyo is long"),
            (Trips.world, "2024-04-20", "2024-04-20T04:00:00Z", 24, "the first day in New York"),
            (Trips.world, "2024-04-26", "2024-04-26T04:00:00Z", 18, "flying east, New York to Paris"),
            (Trips.world, "2024-04-27", "2024-04-26T22:00:00Z", 24, "home again"),
            (Trips.dateLine, "2024-06-08", "2024-06-08T10:00:00Z", 24, "the last whole day in Honolulu"),
            (Trips.dateLine, "2024-06-09", "2024-06-09T10:00:00Z", 0, "the date line eastwards: the date is skipped"),
            (Trips.dateLine, "2024-06-10", "2024-06-09T10:00:00Z", 24, "the first day in Kiritimati"),
            (Trips.dateLine, "2024-06-19", "2024-06-18T10:00:00Z", 48, "the date line westwards: the date lived twice is one day"),
            (Trips.dateLine, "2024-06-20", "2024-06-20T10:00:00Z", 24, "the first day back in Honolulu"),
            (Trips.farthest, "2024-06-08", "2024-06-08T12:00:00Z", 24, "a whole day at UTC−12"),
            (Trips.farthest, "2024-06-09", "2024-06-09T12:00:00Z", 0, "UTC−12 to UTC+14: the date is skipped"),
            (Trips.farthest, "2024-06-10", "2024-06-09T12:00:00Z", 22, "and the next starts where it ends, 2 hours after its midnight"),
            (Trips.farthest, "2024-06-11", "2024-06-10T10:00:00Z", 24, "then midnight to midnight"),
            (Trips.summerTime, "2024-03-04", "2024-03-03T23:00:00Z", 30, "flying west, Paris to New York"),
            (Trips.summerTime, "2024-03-10", "2024-03-10T05:00:00Z", 23, "New York's change to summer time, inside the trip"),
            (Trips.summerTime, "2024-03-11", "2024-03-11T04:00:00Z", 24, "a day of summer time in New York"),
            (Trips.summerTime, "2024-03-14", "2024-03-14T04:00:00Z", 19, "flying east, New York to Paris"),
            (Trips.summerTime, "2024-03-31", "2024-03-30T23:00:00Z", 23, "Paris's own change, after the trip"),
        ])
    func dayStartsAndLengths(trip: String, day text: String, start: String, hours: Int64, what: String) {
        let calendar = Trips.calendar(trip)
        let day = date(text)
        #expect(calendar.start(of: day) == at(start), "\(what)")
        #expect(calendar.length(of: day) == hours * 3600, "\(what)")
        #expect(calendar.span(of: day) == at(start)..<at(start).adding(milliseconds: hours * 3_600_000))
        if hours > 0 {
            #expect(calendar.day(of: at(start)) == day)
            #expect(calendar.day(of: at(start).adding(milliseconds: hours * 3_600_000 - 1)) == day)
        } else {
            #expect(calendar.day(of: at(start)) != day, "no instant lies in a skipped date")
        }
    }

    @Test(
        "an instant's day, the seconds since that day started, and the offset of its zone",
        arguments: [
            (Trips.world, "2024-04-10T14:59:59Z", "2024-04-10", Int64(61_199), 7_200),
            (Trips.world, "2024-04-10T15:00:00Z", "2024-04-11", 0, 32_400),
            // 23:30 in New York on 04-19 is still Tokyo's 37-hour 04-19.
            (Trips.world, "2024-04-20T03:30:00Z", "2024-04-19", 131_400, 32_400),
            (Trips.world, "2024-04-20T04:00:00Z", "2024-04-20", 0, -14_400),
            (Trips.dateLine, "2024-06-09T09:59:59Z", "2024-06-08", 86_399, -36_000),
            (Trips.dateLine, "2024-06-09T10:00:00Z", "2024-06-10", 0, 50_400),
            (Trips.dateLine, "2024-06-20T09:00:00Z", "2024-06-19", 169_200, 50_400),
            (Trips.farthest, "2024-06-09T11:00:00Z", "2024-06-08", 82_800, -43_200),
            (Trips.farthest, "2024-06-09T13:00:00Z", "2024-06-10", 3_600, 50_400),
            (Trips.summerTime, "2024-03-10T07:30:00Z", "2024-03-10", 9_000, -14_400),
        ])
    func placeOfAnInstant(trip: String, instant text: String, day: String, elapsed: Int64, offset: Int) {
        let calendar = Trips.calendar(trip)
        let instant = at(text)
        #expect(calendar.day(of: instant) == date(day))
        #expect(calendar.dayNumber(of: instant) == date(day).daysSince1970)
        #expect(calendar.placeOf(instant) == (date(day).daysSince1970, elapsed))
        #expect(calendar.offset(at: instant) == offset)
        #expect(calendar.zone(on: date(day)).secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant.secondsSince1970))) == offset)
    }

    @Test(
        "a run across midnight of a travel day starts on the day its start falls in and is split by time",
        arguments: [
            // Tokyo 23:30 to 00:30; in Paris's zone 16:30 on 04-10, the day left in Paris.
            (
                Trips.world, "2024-04-10T14:30:00Z", "2024-04-10T15:30:00Z", "2024-04-10", Int64(59_400),
                [("2024-04-10", 3000.0), ("2024-04-11", 3000)]
            ),
            // New York 23:30 to 00:30: its start is in Tokyo's long 04-19.
            (Trips.world, "2024-04-20T03:30:00Z", "2024-04-20T04:30:00Z", "2024-04-19", 131_400, [("2024-04-19", 3000), ("2024-04-20", 3000)]),
            // Honolulu 23:30 on 06-08 to Kiritimati 00:30 on 06-10: nothing on the skipped date.
            (
                Trips.dateLine, "2024-06-09T09:30:00Z", "2024-06-09T10:30:00Z", "2024-06-08", 84_600,
                [("2024-06-08", 3000), ("2024-06-09", 0), ("2024-06-10", 3000)]
            ),
        ])
    func runAcrossMidnight(trip: String, start: String, end: String, day: String, elapsed: Int64, shares: [(String, Double)]) {
        let calendar = Trips.calendar(trip)
        #expect(calendar.placeOf(at(start)) == (date(day).daysSince1970, elapsed))
        let spread = spread(6000, from: at(start), to: at(end), over: calendar)
        #expect(spread.count == shares.count)
        for (text, steps) in shares { #expect(spread[date(text)] == steps, "\(text)") }
    }

    @Test(
        "the night before a day runs from 18:00 of the day before, in its zone, to 18:00 of the day, in its zone",
        arguments: [
            (Trips.world, "2024-04-10", "2024-04-09T16:00:00Z", "2024-04-10T16:00:00Z"),
            (Trips.world, "2024-04-11", "2024-04-10T16:00:00Z", "2024-04-11T09:00:00Z"),  // 17 hours, flying east
            (Trips.world, "2024-04-12", "2024-04-11T09:00:00Z", "2024-04-12T09:00:00Z"),
            (Trips.world, "2024-04-20", "2024-04-19T09:00:00Z", "2024-04-20T22:00:00Z"),  // 37 hours, flying west
            (Trips.dateLine, "2024-06-09", "2024-06-09T04:00:00Z", "2024-06-10T04:00:00Z"),
            (Trips.dateLine, "2024-06-10", "2024-06-10T04:00:00Z", "2024-06-10T04:00:00Z"),  // 18:00 came twice at one instant: empty
            (Trips.dateLine, "2024-06-20", "2024-06-19T04:00:00Z", "2024-06-21T04:00:00Z"),  // 48 hours
            // 18:00 of 06-10 at UTC+14 comes 2 hours before 18:00 of 06-09 at UTC−12: the
            // window ends where the one before does, empty, and the next starts there.
            (Trips.farthest, "2024-06-10", "2024-06-10T06:00:00Z", "2024-06-10T06:00:00Z"),
            (Trips.farthest, "2024-06-11", "2024-06-10T06:00:00Z", "2024-06-11T04:00:00Z"),
            (Trips.summerTime, "2024-03-10", "2024-03-09T23:00:00Z", "2024-03-10T22:00:00Z"),
        ])
    func sleepWindowOnATravelDay(trip: String, day text: String, from: String, to: String) {
        let calendar = Trips.calendar(trip)
        let day = date(text)
        let window = calendar.sleepWindow(of: day)
        #expect(window == at(from)..<at(to))
        #expect(calendar.sleepWindow(of: day.adding(days: -1)).upperBound == window.lowerBound)
        #expect(calendar.sleepWindow(of: day.adding(days: 1)).lowerBound == window.upperBound)
        if !window.isEmpty {
            #expect(calendar.sleepDay(of: window.lowerBound) == day)
            #expect(calendar.sleepDay(of: window.upperBound.adding(milliseconds: -1)) == day)
        }
    }

    @Test("a wall-clock time on a day is read in that day's zone, even past the day's end")
    func wallClockInTheDaysZone() {
        let calendar = Trips.calendar(Trips.world)
        #expect(calendar.instant(of: date("2024-04-10"), secondOfDay: 20 * 3600) == at("2024-04-10T18:00:00Z"))
        #expect(calendar.instant(of: date("2024-04-11"), secondOfDay: 8 * 3600) == at("2024-04-10T23:00:00Z"))
        #expect(calendar.secondOfDay(at("2024-04-10T23:00:00Z")) == 8 * 3600)
        #expect(calendar.zone(on: date("2024-04-10")).identifier == "Europe/Paris")
        #expect(calendar.zone(on: date("2024-04-11")).identifier == "Asia/Tokyo")
    }

    /// Zones with the awkward offsets: the two ends of the world, half and three-quarter
    /// hours, a half-hour change (Lord Howe), a change at midnight (Havana), Samoa's
    /// skipped day, and two common ones.
    static let zones = [
        "Etc/GMT+12", "Pacific/Kiritimati", "Pacific/Honolulu", "Asia/Kathmandu", "Australia/Lord_Howe", "America/St_Johns", "America/Havana",
        "Pacific/Apia", "Europe/London", "America/New_York", "Asia/Tokyo",
    ]

    @Test(
        "for random timelines, every instant lies in exactly one day and one night, days never go back, and spread values add up", arguments: 0..<12)
    func randomTimelines(seed: UInt64) {
        var random = SeededGenerator(state: seed)
        let first = date("2011-10-01").daysSince1970
        let periods = (0..<Int.random(in: 1...40, using: &random)).map { _ in
            let from = first + Int64.random(in: 0..<500, using: &random)
            let length = Bool.random(using: &random) ? Int64.random(in: 1...3, using: &random) : Int64.random(in: 1...60, using: &random)
            return ZonePeriod(
                zone(Self.zones.randomElement(using: &random) ?? "UTC"), from: CivilDate(daysSince1970: from),
                to: Int.random(in: 0..<10, using: &random) == 0 ? nil : CivilDate(daysSince1970: from + length))
        }
        let calendar = ZonedCalendar(timeline: ZoneTimeline(home: zone(Self.zones.randomElement(using: &random) ?? "UTC"), periods: periods))
        var previousStart = calendar.start(of: CivilDate(daysSince1970: first - 2))
        var previousWindow = calendar.sleepWindow(of: CivilDate(daysSince1970: first - 2))
        for day in (first - 1)...(first + 600) {
            let date = CivilDate(daysSince1970: day)
            let start = calendar.start(of: date)
            #expect(start >= previousStart, "day starts never go back: \(date)")
            #expect(calendar.span(of: CivilDate(daysSince1970: day - 1)) == previousStart..<start)
            #expect(calendar.length(of: date) >= 0)
            let window = calendar.sleepWindow(of: date)
            #expect(window.lowerBound == previousWindow.upperBound, "the nights tile time: \(date)")
            previousStart = start
            previousWindow = window
        }
        let (low, high) = (calendar.start(of: CivilDate(daysSince1970: first)), calendar.start(of: CivilDate(daysSince1970: first + 598)))
        for _ in 0..<3_000 {
            let instant = Timestamp(millisecondsSince1970: Int64.random(in: low.millisecondsSince1970..<high.millisecondsSince1970, using: &random))
            let day = calendar.day(of: instant)
            #expect(calendar.span(of: day).contains(instant), "\(instant) in \(day)")
            #expect(calendar.placeOf(instant) == (day.daysSince1970, instant.secondsSince1970 - calendar.start(of: day).secondsSince1970))
            let night = calendar.sleepDay(of: instant)
            #expect(calendar.sleepWindow(of: night).contains(instant), "\(instant) in the night before \(night)")
            let zoneOfDay = calendar.zone(on: day)
            #expect(
                calendar.offset(at: instant) == zoneOfDay.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant.secondsSince1970))))
        }
        for _ in 0..<300 {
            let start = Int64.random(in: low.millisecondsSince1970..<high.millisecondsSince1970 - 10 * 86_400_000, using: &random)
            let end = start + Int64.random(in: 1...(10 * 86_400_000), using: &random)
            let shares = spread(1000, from: Timestamp(millisecondsSince1970: start), to: Timestamp(millisecondsSince1970: end), over: calendar)
            #expect(abs(shares.values.reduce(0, +) - 1000) < 1e-6)
        }
    }

    @Test("a calendar built again for a longer timeline reuses the zones' calendars and gives the same days")
    func reusingCalendars() {
        let first = Trips.calendar(Trips.world)
        let longer = ZonedCalendar(
            timeline: timeline("Europe/Paris", ["Asia/Tokyo 2024-04-11 2024-04-20", "America/New_York 2024-04-20 2024-04-28"]), reusing: first)
        #expect(longer.start(of: date("2024-04-19")) == first.start(of: date("2024-04-19")))
        #expect(longer.length(of: date("2024-04-26")) == 24 * 3600)
        #expect(longer.length(of: date("2024-04-27")) == 18 * 3600)
    }
}
