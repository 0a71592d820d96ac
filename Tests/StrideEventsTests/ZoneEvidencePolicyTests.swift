import Foundation
import StrideTestSupport
import Testing

@testable import StrideEvents

/// An observation from `ZONE INSTANT` (a Health sample's zone) or `±HHMM INSTANT` (a FIT
/// file's offset); tests only.
func observation(_ text: String) -> ZoneObservation {
    let words = text.split(separator: " ").map(String.init)
    guard let sign = words[0].first, sign == "+" || sign == "-" else {
        return ZoneObservation(.zone(zone(words[0])), at: at(words[1]), source: .healthTimeZone)
    }
    let digits = Array(words[0].dropFirst())
    guard digits.count == 4, let hours = Int(String(digits[0..<2])), let minutes = Int(String(digits[2..<4])) else {
        fatalError("bad offset in a test: \(text)")
    }
    let seconds = (hours * 3600 + minutes * 60) * (sign == "-" ? -1 : 1)
    return ZoneObservation(.offset(seconds: seconds), at: at(words[1]), source: .fitLocalTimestamp)
}

@Suite("Periods away from home learned from the inputs' clocks")
struct ZoneEvidencePolicyTests {
    @Test(
        "what the clocks show becomes a period only when a stay lasts over a local midnight",
        arguments: [
            ("no observation", "Europe/Paris", [String](), [String]()),
            (
                "a lone observation is evidence, not a move", "Europe/Paris",
                ["Europe/Paris 2024-04-09T12:00:00+02:00", "Europe/Paris 2024-04-10T12:00:00+02:00", "Asia/Tokyo 2024-04-11T09:00:00+09:00"], []
            ),
            ("a repeat counts once", "Europe/Paris", ["Asia/Tokyo 2024-04-11T09:00:00+09:00", "Asia/Tokyo 2024-04-11T09:00:00+09:00"], []),
            (
                "two on one date are a day trip", "Europe/Paris",
                [
                    "Europe/Paris 2024-04-10T08:00:00+02:00", "Europe/Paris 2024-04-10T09:00:00+02:00", "Europe/Brussels 2024-04-11T10:00:00+02:00",
                    "Europe/Brussels 2024-04-11T18:00:00+02:00", "Europe/Paris 2024-04-12T09:00:00+02:00", "Europe/Paris 2024-04-13T09:00:00+02:00",
                ], []
            ),
            (
                "two either side of a local midnight make a period of their dates", "Europe/Paris",
                ["Asia/Tokyo 2024-04-11T23:00:00+09:00", "Asia/Tokyo 2024-04-12T01:00:00+09:00"], ["Asia/Tokyo 2024-04-11 2024-04-13"]
            ),
            (
                "a trip between two stays at home", "Europe/Paris",
                [
                    "Europe/Paris 2024-04-09T12:00:00+02:00", "Europe/Paris 2024-04-10T09:00:00+02:00", "Asia/Tokyo 2024-04-11T09:00:00+09:00",
                    "Asia/Tokyo 2024-04-12T20:00:00+09:00", "Asia/Tokyo 2024-04-15T20:00:00+09:00", "Europe/Paris 2024-04-16T10:00:00+02:00",
                    "Europe/Paris 2024-04-17T10:00:00+02:00",
                ], ["Asia/Tokyo 2024-04-11 2024-04-16"]
            ),
            (
                "a watch left on home time (a bare offset equal to home's) does not break a stay", "Europe/Paris",
                [
                    "Asia/Tokyo 2024-04-11T09:00:00+09:00", "Asia/Tokyo 2024-04-12T09:00:00+09:00", "+0200 2024-04-13T12:00:00+09:00",
                    "Asia/Tokyo 2024-04-14T09:00:00+09:00", "Asia/Tokyo 2024-04-15T09:00:00+09:00",
                ], ["Asia/Tokyo 2024-04-11 2024-04-16"]
            ),
            (
                "bare offsets with no named zone near: a fixed zone (Etc/GMT-9 is UTC+9)", "Europe/Paris",
                [
                    "+0200 2024-04-09T08:00:00+02:00", "+0200 2024-04-10T08:00:00+02:00", "+0900 2024-04-11T08:00:00+09:00",
                    "+0900 2024-04-12T08:00:00+09:00",
                ], ["Etc/GMT-9 2024-04-11 2024-04-13"]
            ),
            (
                "a bare offset takes the name of a zone seen within 48 hours that had it then", "Europe/Paris",
                ["Asia/Tokyo 2024-04-11T09:00:00+09:00", "+0900 2024-04-12T09:00:00+09:00"], ["Asia/Tokyo 2024-04-11 2024-04-13"]
            ),
            (
                "a named zone seen further away does not name it", "Europe/Paris",
                ["Asia/Tokyo 2024-04-01T09:00:00+09:00", "+0900 2024-04-11T09:00:00+09:00", "+0900 2024-04-12T09:00:00+09:00"],
                ["Etc/GMT-9 2024-04-11 2024-04-13"]
            ),
            (
                "summer time inside a trip: both offsets are New York's near its name", "Europe/Paris",
                [
                    "America/New_York 2024-03-08T12:00:00-05:00", "-0500 2024-03-09T12:00:00-05:00", "-0400 2024-03-10T12:00:00-04:00",
                    "America/New_York 2024-03-11T12:00:00-04:00",
                ], ["America/New_York 2024-03-08 2024-03-12"]
            ),
            (
                "an offset of part of an hour", "Europe/Paris", ["+0530 2024-04-11T09:00:00+05:30", "+0530 2024-04-12T09:00:00+05:30"],
                ["GMT+0530 2024-04-11 2024-04-13"]
            ),
            ("an offset beyond 18 hours is no evidence", "Europe/Paris", ["+1900 2024-04-11T09:00:00Z", "+1900 2024-04-12T09:00:00Z"], []),
            (
                "a move during the day: the date goes to the zone it began in", "Europe/Paris",
                [
                    "Europe/Paris 2024-04-09T08:00:00+02:00", "Europe/Paris 2024-04-10T08:00:00+02:00", "America/New_York 2024-04-10T18:00:00-04:00",
                    "America/New_York 2024-04-11T18:00:00-04:00",
                ], ["America/New_York 2024-04-11 2024-04-12"]
            ),
            (
                "a trip is not extended past the last date it was seen, nor across a longer silence", "Europe/Paris",
                [
                    "Asia/Tokyo 2024-04-11T09:00:00+09:00", "Asia/Tokyo 2024-04-12T09:00:00+09:00", "Europe/Paris 2024-04-20T09:00:00+02:00",
                    "Europe/Paris 2024-04-21T09:00:00+02:00",
                ], ["Asia/Tokyo 2024-04-11 2024-04-13"]
            ),
            (
                "one date unseen after a flight east goes to the stay before", "Europe/Paris",
                [
                    "America/New_York 2024-04-08T12:00:00-04:00", "America/New_York 2024-04-10T20:00:00-04:00",
                    "Australia/Sydney 2024-04-12T07:00:00+10:00", "Australia/Sydney 2024-04-13T07:00:00+10:00",
                ], ["America/New_York 2024-04-08 2024-04-12", "Australia/Sydney 2024-04-12 2024-04-14"]
            ),
            (
                "the date line both ways: the date skipped goes to Honolulu, the date lived twice to Kiritimati", "Pacific/Honolulu",
                [
                    "Pacific/Honolulu 2024-06-15T10:00:00-10:00", "Pacific/Honolulu 2024-06-16T10:00:00-10:00",
                    "Pacific/Kiritimati 2024-06-18T12:00:00+14:00", "Pacific/Kiritimati 2024-06-19T12:00:00+14:00",
                    "Pacific/Kiritimati 2024-06-20T08:00:00+14:00", "Pacific/Honolulu 2024-06-19T10:00:00-10:00",
                    "Pacific/Honolulu 2024-06-20T09:00:00-10:00",
                ], ["Pacific/Kiritimati 2024-06-18 2024-06-21"]
            ),
        ])
    func periodsFromObservations(what: String, home: String, observations: [String], expected: [String]) {
        let periods = ZoneEvidencePolicy.periods(home: zone(home), observations: observations.map(observation))
        #expect(periods == expected.map(period), "\(what)")
    }

    @Test("across the date line, the learned timeline skips one date and makes the one lived twice 48 hours")
    func dateLineDays() {
        let observations = [
            "Pacific/Honolulu 2024-06-15T10:00:00-10:00", "Pacific/Honolulu 2024-06-16T10:00:00-10:00",
            "Pacific/Kiritimati 2024-06-18T12:00:00+14:00",
            "Pacific/Kiritimati 2024-06-20T08:00:00+14:00", "Pacific/Honolulu 2024-06-19T10:00:00-10:00",
            "Pacific/Honolulu 2024-06-20T09:00:00-10:00",
        ].map(observation)
        let home = zone("Pacific/Honolulu")
        let calendar = ZonedCalendar(
            timeline: ZoneTimeline(home: home, runner: [], evidence: ZoneEvidencePolicy.periods(home: home, observations: observations)))
        #expect(calendar.length(of: date("2024-06-16")) == 24 * 3600)
        #expect(calendar.length(of: date("2024-06-17")) == 0)
        #expect(calendar.length(of: date("2024-06-20")) == 48 * 3600)
        // Every observation falls on a day whose zone is the one it was seen in, or on the
        // date lived twice.
        #expect(calendar.day(of: at("2024-06-16T10:00:00-10:00")) == date("2024-06-16"))
        #expect(calendar.day(of: at("2024-06-19T10:00:00-10:00")) == date("2024-06-20"))
    }

    @Test("an offset a few seconds off is read to the quarter hour")
    func offsetsRound() {
        let observations = [
            ZoneObservation(.offset(seconds: 32_395), at: at("2024-04-11T09:00:00+09:00"), source: .garminLocalTime),
            ZoneObservation(.offset(seconds: 32_410), at: at("2024-04-12T09:00:00+09:00"), source: .pushedOffset),
        ]
        #expect(ZoneEvidencePolicy.periods(home: zone("Europe/Paris"), observations: observations) == [period("Etc/GMT-9 2024-04-11 2024-04-13")])
    }

    @Test(
        "a fixed offset's zone: Etc names count the other way; part hours and the far ends take Foundation's fixed zones",
        arguments: [
            (25_200, "Etc/GMT-7"), (-36_000, "Etc/GMT+10"), (0, "Etc/GMT"), (50_400, "Etc/GMT-14"), (-43_200, "Etc/GMT+12"), (19_800, "GMT+0530"),
            (-46_800, "GMT-1300"), (64_800, "GMT+1800"),
        ])
    func fixedOffsetZones(seconds: Int, identifier: String) throws {
        let fixed = try #require(ZoneEvidencePolicy.fixedOffsetZone(seconds: seconds))
        #expect(fixed.identifier == identifier)
        #expect(fixed.secondsFromGMT(for: Date(timeIntervalSince1970: 1_700_000_000)) == seconds)
        #expect(ZoneEvidencePolicy.fixedOffsetZone(seconds: 18 * 3600 + 900) == nil)
    }

    @Test("observations are a set: any order gives the same periods", arguments: 0..<16)
    func orderDoesNotMatter(seed: UInt64) {
        var random = SeededGenerator(state: seed)
        let named = ["Europe/Paris", "Asia/Tokyo", "America/New_York", "Pacific/Kiritimati", "Asia/Kolkata"].map(zone)
        let offsets = [7_200, 3_600, 32_400, -18_000, -14_400, 50_400, 19_800, 20_000]
        let start = at("2024-01-01T00:00:00Z").millisecondsSince1970
        var observations: [ZoneObservation] = []
        // Stays of a few days in one place, with noise, and some instants shared.
        var instant = start
        for _ in 0..<40 {
            let place = named.randomElement(using: &random) ?? named[0]
            for _ in 0..<Int.random(in: 1...12, using: &random) {
                instant += Int64.random(in: 0...(30 * 3_600_000), using: &random)
                let reading: ZoneObservation.Reading =
                    Int.random(in: 0..<4, using: &random) == 0
                    ? .offset(seconds: offsets.randomElement(using: &random) ?? 0)
                    : .zone(Int.random(in: 0..<10, using: &random) == 0 ? named.randomElement(using: &random) ?? place : place)
                let source = ZoneObservation.Source.allCases.randomElement(using: &random) ?? .healthTimeZone
                observations.append(ZoneObservation(reading, at: Timestamp(millisecondsSince1970: instant), source: source))
                if Int.random(in: 0..<8, using: &random) == 0 {
                    observations.append(
                        ZoneObservation(
                            .zone(named.randomElement(using: &random) ?? place), at: Timestamp(millisecondsSince1970: instant), source: source))
                }
            }
        }
        let home = zone("Europe/Paris")
        let expected = ZoneEvidencePolicy.periods(home: home, observations: observations)
        #expect(!expected.isEmpty)
        for _ in 0..<6 {
            var shuffled = observations.shuffled(using: &random)
            if Bool.random(using: &random), let repeated = shuffled.first { shuffled.append(repeated) }
            #expect(ZoneEvidencePolicy.periods(home: home, observations: shuffled) == expected)
        }
        // The periods never overlap and come in date order.
        for (earlier, later) in zip(expected, expected.dropFirst()) {
            #expect(earlier.to.map { $0 <= later.from } ?? false)
        }
    }
}
