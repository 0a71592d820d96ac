import Foundation
import StrideEvents
import Testing

/// A run counts on the date its own clock showed, and prints at its own offset.
@Suite("What the runner's clocks showed")
struct LocalClocksTests {
    static let london = ZonedCalendar(timeZone: TimeZone(identifier: "Europe/London")!)

    @Test(
        "a run's day and offset: its file's clock where it showed one that hour, else the day it falls on",
        arguments: [
            // 2024-03-09T23:36Z, Bangkok's watch at +07:00: 06:36 on the 10th, whatever London says.
            ("2024-03-09T23:36:00Z", 25_200, "2024-03-10", 25_200),
            // The same instant, no file's clock that hour: London's day (GMT in March before the 31st).
            ("2024-03-09T23:36:00Z", nil, "2024-03-09", 0),
            // A run at 22:10 in Los Angeles (UTC−8) is the evening of the 9th there, the 10th in London.
            ("2024-03-10T06:10:00Z", -28_800, "2024-03-09", -28_800),
            // India's half hour: 00:20 on 1 May is the 1st, not 30 April.
            ("2024-04-30T18:50:00Z", 19_800, "2024-05-01", 19_800),
            // Before 1970: the day still rounds down.
            ("1969-12-31T20:00:00Z", 18_000, "1970-01-01", 18_000),
        ] as [(String, Int?, String, Int)])
    func runDay(start: String, shown: Int?, day: String, offset: Int) throws {
        let instant = try #require(ISO8601.parse(start))
        let clocks = LocalClocks(days: Self.london, shown: shown.map { [instant.hoursSince1970: $0] } ?? [:])
        #expect(clocks.day(ofStart: instant).description == day)
        #expect(clocks.offset(at: instant) == offset)
        // An hour later the file's clock says nothing: the day it falls on, London's offset.
        let later = instant.adding(milliseconds: 3_600_000)
        #expect(clocks.offset(at: later) == Self.london.offset(at: later))
    }
}
