import StrideEvents
import Testing

@testable import DailyHealth

/// Steps, distance and energy over 2024-05-01 in Paris, worked out by hand.
@Suite("Steps, distance and energy: priority merge and splitting by time")
struct ActivityPolicyTests {
    let may1 = paris.span(of: day("2024-05-01"))

    @Test(
        "cases",
        arguments: [
            (
                "a phone sample half covered by a watch sample counts only its uncovered half",
                [
                    fact("2024-05-01T08:00:00+02:00", "2024-05-01T09:00:00+02:00", 600, .phone),
                    fact("2024-05-01T08:30:00+02:00", "2024-05-01T09:00:00+02:00", 200, .watch),
                ], 500.0
            ),
            (
                "two overlapping samples of the winning class both count",
                [
                    fact("2024-05-01T10:00:00+02:00", "2024-05-01T11:00:00+02:00", 100, .watch),
                    fact("2024-05-01T10:30:00+02:00", "2024-05-01T11:30:00+02:00", 100, .watch),
                ], 200
            ),
            (
                "a phone sample under 'other' samples wins; the other counts only outside it",
                [
                    fact("2024-05-01T12:00:00+02:00", "2024-05-01T13:00:00+02:00", 60, .other),
                    fact("2024-05-01T12:00:00+02:00", "2024-05-01T12:30:00+02:00", 40, .phone),
                ], 70
            ),
            (
                "a zero-length sample counts where no better class covers it",
                [fact("2024-05-01T12:00:00+02:00", "2024-05-01T12:00:00+02:00", 5, .phone)], 5
            ),
            (
                "a zero-length phone sample under a watch sample counts nothing",
                [
                    fact("2024-05-01T08:30:00+02:00", "2024-05-01T09:00:00+02:00", 200, .watch),
                    fact("2024-05-01T08:45:00+02:00", "2024-05-01T08:45:00+02:00", 5, .phone),
                ], 200
            ),
            (
                "a zero-length watch sample under a phone sample counts",
                [
                    fact("2024-05-01T08:00:00+02:00", "2024-05-01T09:00:00+02:00", 60, .phone),
                    fact("2024-05-01T08:45:00+02:00", "2024-05-01T08:45:00+02:00", 5, .watch),
                ], 65
            ),
            (
                "a duplicate of the same sample counts twice: duplicates are the log's to refuse, not the merge's",
                [
                    fact("2024-05-01T10:00:00+02:00", "2024-05-01T11:00:00+02:00", 100, .phone),
                    fact("2024-05-01T10:00:00+02:00", "2024-05-01T11:00:00+02:00", 100, .phone),
                ], 200
            ),
        ] as [(String, [Fact], Double)])
    func cases(name: String, facts: [Fact], expected: Double) {
        #expect(ActivityPolicy.total(facts, day: may1)?.value == expected, "\(name)")
    }

    @Test("a sample across midnight is split by time between the two days")
    func acrossMidnight() {
        let sample = fact("2024-05-01T23:00:00+02:00", "2024-05-02T01:00:00+02:00", 120, .phone)
        #expect(ActivityPolicy.total([sample], day: may1)?.value == 60)
        #expect(ActivityPolicy.total([sample], day: paris.span(of: day("2024-05-02")))?.value == 60)
    }

    @Test("no sample touching the day gives null, not zero")
    func none() {
        #expect(ActivityPolicy.total([fact("2024-05-02T10:00:00+02:00", "2024-05-02T11:00:00+02:00", 9, .phone)], day: may1) == nil)
    }

    @Test("the day clocks go forward has 23 hours; the one they go back, 25; time-splitting follows real time")
    func daylightSaving() {
        let spring = paris.span(of: day("2024-03-31"))
        #expect(spring.upperBound.secondsSince1970 - spring.lowerBound.secondsSince1970 == 23 * 3600)
        // Noon to noon across the change lasts 23 hours; 11 of them fall on the 31st.
        let noonToNoon = fact("2024-03-30T12:00:00+01:00", "2024-03-31T12:00:00+02:00", 230, .phone)
        #expect(ActivityPolicy.total([noonToNoon], day: spring)?.value == 110)
        let autumn = paris.span(of: day("2024-10-27"))
        #expect(autumn.upperBound.secondsSince1970 - autumn.lowerBound.secondsSince1970 == 25 * 3600)
        let wholeDay = fact("2024-10-27T00:00:00+02:00", "2024-10-28T00:00:00+01:00", 250, .phone)
        #expect(ActivityPolicy.total([wholeDay], day: autumn)?.value == 250)
        #expect(paris.day(of: at("2024-10-27T02:30:00+01:00")) == day("2024-10-27"))
        #expect(paris.start(of: day("2024-03-31")) == at("2024-03-31T00:00:00+01:00"))
    }

    @Test("units: miles become metres, kilojoules kilocalories; an unknown unit is left out")
    func units() throws {
        let mile = SampleFacts(
            healthType: "HKQuantityTypeIdentifierDistanceWalkingRunning", deviceClass: .phone, value: .number(1), unit: "mi",
            start: at("2024-05-01T08:00:00Z"), end: at("2024-05-01T08:10:00Z"))
        #expect(try #require(Measure.reading(mile, recordedAt: at("2024-05-02T00:00:00Z"))).value == 1609.344)
        let energy = SampleFacts(
            healthType: "HKQuantityTypeIdentifierActiveEnergyBurned", deviceClass: .watch, value: .number(418.4), unit: "kJ",
            start: at("2024-05-01T08:00:00Z"), end: at("2024-05-01T08:10:00Z"))
        #expect(abs(try #require(Measure.reading(energy, recordedAt: at("2024-05-02T00:00:00Z"))).value - 100) < 1e-9)
        var odd = mile
        odd.unit = "furlong"
        #expect(Measure.reading(odd, recordedAt: at("2024-05-02T00:00:00Z")) == nil)
    }
}

@Suite("Heart rate")
struct HeartRatePolicyTests {
    let may1 = paris.span(of: day("2024-05-01"))

    @Test("a watch's samples alone count when there are any; a sample counts on the day it starts")
    func priority() throws {
        let facts = [
            fact("2024-05-01T08:00:00+02:00", "2024-05-01T08:00:00+02:00", 60, .watch),
            fact("2024-05-01T09:00:00+02:00", "2024-05-01T09:00:00+02:00", 80, .watch),
            fact("2024-05-01T10:00:00+02:00", "2024-05-01T10:00:00+02:00", 200, .phone),
            fact("2024-05-01T23:59:59+02:00", "2024-05-02T00:01:00+02:00", 70, .watch),
            fact("2024-05-02T00:00:00+02:00", "2024-05-02T00:00:00+02:00", 150, .watch),
        ]
        let summary = try #require(HeartRatePolicy.summary(facts, day: may1))
        #expect(summary.count == 3)
        #expect(summary.average == 70)
        #expect(summary.minimum == 60)
        #expect(summary.maximum == 80)
        #expect(HeartRatePolicy.summary([facts[2]], day: may1)?.average == 200)
        #expect(HeartRatePolicy.summary([], day: may1) == nil)
    }

    @Test("resting heart rate is the mean of the day's resting samples, or null")
    func resting() {
        let facts = [
            fact("2024-05-01T07:00:00+02:00", "2024-05-01T07:01:00+02:00", 50, .watch),
            fact("2024-05-01T08:00:00+02:00", "2024-05-01T08:01:00+02:00", 53, .phone),
        ]
        #expect(HeartRatePolicy.resting(facts, day: may1) == 51.5)
        #expect(HeartRatePolicy.resting([], day: may1) == nil)
    }
}
