import Foundation
import StrideEvents
import Testing

@testable import DailyHealth

@Suite("The local calendar's one-lookup placement")
struct LocalCalendarTests {
    /// Zones with the awkward changes: a day of 23 and of 25 hours, a change at midnight
    /// (Havana, Santiago), a half-hour zone with changes (Adelaide, Lord Howe's 30 minutes),
    /// and Samoa's skipped day (2011-12-30).
    static let zones = ["Europe/Paris", "America/Havana", "America/Santiago", "Australia/Adelaide", "Australia/Lord_Howe", "Pacific/Apia", "UTC"]

    @Test("placeOf gives the day and the seconds since local midnight that day(of:) and start(of:) give", arguments: zones)
    func placementMatchesTheDefinition(zone: String) throws {
        let calendar = LocalCalendar(timeZone: try #require(TimeZone(identifier: zone)))
        // Every 7 minutes and 13 seconds through 2011–2012 and around 2024's changes: each
        // change is crossed at many offsets from it.
        let ranges: [(Int64, Int64)] = [(1_293_840_000, 1_356_998_400), (1_711_000_000, 1_712_500_000), (1_729_500_000, 1_730_900_000)]
        var checked = 0
        for (from, to) in ranges {
            var second = from
            while second < to {
                let instant = Timestamp(millisecondsSince1970: second * 1000 + 250)
                let day = calendar.day(of: instant)
                let expected = (day.daysSince1970, instant.secondsSince1970 - calendar.start(of: day).secondsSince1970)
                let place = calendar.placeOf(instant)
                #expect(place.days == expected.0 && place.elapsed == expected.1, "\(zone) at \(instant)")
                #expect(calendar.dayNumber(of: instant) == expected.0)
                if place.days != expected.0 || place.elapsed != expected.1 { return }
                checked += 1
                second += 433
            }
        }
        #expect(checked > 100_000)
    }

    @Test("the offset at every transition and a second either side is the zone's own; beyond 1900–2200 the nearest end's", arguments: zones)
    func offsetsMatchTheZone(zone: String) throws {
        let timeZone = try #require(TimeZone(identifier: zone))
        let calendar = LocalCalendar(timeZone: timeZone)
        let (first, last): (Int64, Int64) = (-2_208_988_800, 7_258_118_400)  // 1900-01-01, 2200-01-01
        var instants: [Int64] = [first, first + 1, last - 1, 0, 1_700_000_000]
        var cursor = Date(timeIntervalSince1970: TimeInterval(first))
        while let next = timeZone.nextDaylightSavingTimeTransition(after: cursor), next.timeIntervalSince1970 < TimeInterval(last) {
            let second = Int64(next.timeIntervalSince1970.rounded())
            instants += [second - 1, second, second + 1]
            cursor = next
        }
        #expect(instants.count > 5 || zone == "UTC")
        for second in instants {
            let expected = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(second)))
            #expect(calendar.offset(at: Timestamp(secondsSince1970: second)) == expected, "\(zone) at \(second)")
        }
        // Outside the span the calendar keeps, the offset at its nearest end.
        #expect(calendar.offset(at: Timestamp(secondsSince1970: -4_000_000_000)) == calendar.offset(at: Timestamp(secondsSince1970: first)))
        #expect(calendar.offset(at: Timestamp(secondsSince1970: 9_000_000_000)) == calendar.offset(at: Timestamp(secondsSince1970: last - 1)))
    }

    @Test("on Paris's 23-hour day, 03:30 is 2.5 hours after midnight; on its 25-hour day, 03:30 is 4.5")
    func elapsedCountsRealSeconds() {
        let calendar = paris
        #expect(calendar.placeOf(at("2024-03-31T03:30:00+02:00")).elapsed == 9_000)
        #expect(calendar.placeOf(at("2024-10-27T03:30:00+01:00")).elapsed == 16_200)
        #expect(calendar.placeOf(at("2024-10-27T02:30:00+02:00")).elapsed == 9_000)
        #expect(calendar.placeOf(at("2024-10-27T02:30:00+01:00")).elapsed == 12_600)
    }
}
