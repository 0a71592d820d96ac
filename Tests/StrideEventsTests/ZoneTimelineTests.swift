import Foundation
import StrideTestSupport
import Testing

@testable import StrideEvents

@Suite("The zone in force on each date")
struct ZoneTimelineTests {
    @Test(
        "later periods win the dates they share; home periods bring dates home; empty periods are ignored",
        arguments: [
            ([String](), [String](), "no period: home every day"),
            (["Asia/Tokyo 2024-04-01 2024-04-10"], ["Asia/Tokyo 2024-04-01 2024-04-10"], "one trip"),
            (
                ["Asia/Tokyo 2024-04-01 2024-04-10", "Asia/Seoul 2024-04-05 2024-04-07"],
                ["Asia/Tokyo 2024-04-01 2024-04-05", "Asia/Seoul 2024-04-05 2024-04-07", "Asia/Tokyo 2024-04-07 2024-04-10"],
                "a later period inside an earlier one cuts it in two"
            ),
            (
                ["Asia/Seoul 2024-04-05 2024-04-07", "Asia/Tokyo 2024-04-01 2024-04-10"], ["Asia/Tokyo 2024-04-01 2024-04-10"],
                "an earlier period under a later one is lost"
            ),
            (
                ["Asia/Tokyo 2024-04-01 2024-04-10", "Europe/Paris 2024-04-03 2024-04-04"],
                ["Asia/Tokyo 2024-04-01 2024-04-03", "Asia/Tokyo 2024-04-04 2024-04-10"], "a period at home brings its dates home"
            ),
            (
                ["Asia/Tokyo 2024-04-01 2024-04-05", "Asia/Tokyo 2024-04-05 2024-04-08", "Asia/Tokyo 2024-04-20 2024-04-20"],
                ["Asia/Tokyo 2024-04-01 2024-04-08"], "touching periods in one zone are one; an empty one is nothing"
            ),
            (
                ["Asia/Tokyo 2024-04-01 2024-04-10", "Asia/Bangkok 2024-04-08"], ["Asia/Tokyo 2024-04-01 2024-04-08", "Asia/Bangkok 2024-04-08"],
                "a move with no end"
            ),
            (
                ["Asia/Bangkok 2024-04-08", "Europe/Paris 2024-05-01"], ["Asia/Bangkok 2024-04-08 2024-05-01"], "a move, then back home for good"
            ),
        ])
    func overlaps(given: [String], expected: [String], what: String) {
        let resolved = timeline("Europe/Paris", given)
        #expect(resolved.periods == expected.map(period), "\(what)")
        #expect(resolved == timeline("Europe/Paris", expected), "\(what)")
        #expect(resolved.isHomeOnly == expected.isEmpty)
    }

    @Test("a date's zone: home before, inside and after the periods")
    func zoneOnADate() {
        let trips = timeline("Europe/Paris", ["Asia/Tokyo 2024-04-11 2024-04-20", "America/New_York 2024-04-20 2024-04-27"])
        let cases = [
            ("1900-01-01", "Europe/Paris"), ("2024-04-10", "Europe/Paris"), ("2024-04-11", "Asia/Tokyo"), ("2024-04-19", "Asia/Tokyo"),
            ("2024-04-20", "America/New_York"), ("2024-04-26", "America/New_York"), ("2024-04-27", "Europe/Paris"), ("2200-01-01", "Europe/Paris"),
        ]
        for (day, identifier) in cases { #expect(trips.zone(on: date(day)).identifier == identifier, "\(day)") }
    }

    @Test("the runner's periods win over those learned from the inputs")
    func runnerWins() {
        let evidence = ["Asia/Tokyo 2024-04-01 2024-04-10", "Asia/Seoul 2024-04-12 2024-04-15"].map(period)
        let runner = ["Asia/Bangkok 2024-04-05 2024-04-13", "Asia/Tokyo 2024-04-08 2024-04-09"].map(period)
        let resolved = ZoneTimeline(home: zone("Europe/Paris"), runner: runner, evidence: evidence)
        let expected = [
            "Asia/Tokyo 2024-04-01 2024-04-05", "Asia/Bangkok 2024-04-05 2024-04-08", "Asia/Tokyo 2024-04-08 2024-04-09",
            "Asia/Bangkok 2024-04-09 2024-04-13",
            "Asia/Seoul 2024-04-13 2024-04-15",
        ]
        #expect(resolved.periods == expected.map(period))
    }

    @Test("thousands of random periods resolve as laying them one over another date by date would", arguments: 0..<4)
    func randomPeriodsMatchAScan(seed: UInt64) {
        var random = SeededGenerator(state: seed)
        let zones = ["Asia/Tokyo", "Asia/Seoul", "Europe/Paris", "America/New_York", "Pacific/Kiritimati"].map(zone)
        let first = date("2000-01-01").daysSince1970
        let periods = (0..<3_000).map { _ in
            let from = first + Int64.random(in: 0..<20_000, using: &random)
            let to: Int64? = Int.random(in: 0..<50, using: &random) == 0 ? nil : from + Int64.random(in: 0...30, using: &random)
            return ZonePeriod(
                zones.randomElement(using: &random) ?? zones[0], from: CivilDate(daysSince1970: from), to: to.map { CivilDate(daysSince1970: $0) })
        }
        let resolved = ZoneTimeline(home: zone("Europe/London"), periods: periods)
        for _ in 0..<2_000 {
            let day = CivilDate(daysSince1970: first + Int64.random(in: -10..<20_100, using: &random))
            let covering = periods.last { $0.from <= day && ($0.to.map { day < $0 } ?? true) }
            #expect(resolved.zone(on: day).identifier == (covering?.zone.identifier ?? "Europe/London"), "\(day)")
        }
        #expect(ZoneTimeline(home: zone("Europe/London"), periods: resolved.periods) == resolved)
    }
}
