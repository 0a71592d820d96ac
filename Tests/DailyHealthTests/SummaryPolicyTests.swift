import StrideEvents
import Testing

@testable import DailyHealth

/// Health Auto Export's buckets (class `summary`) beside devices' own samples, over days in
/// Paris, worked out by hand.
@Suite("Summaries count only where no device's own sample does")
struct SummaryActivityTests {
    let may1 = paris.span(of: day("2024-05-01"))

    /// Hourly buckets of 2024-05-01 from `first` to `last` (inclusive hours), each of `value`.
    static func hours(_ first: Int, _ last: Int, _ value: Double) -> [Fact] {
        (first...last).map { hour in
            let start = at(String(format: "2024-05-01T%02d:00:00+02:00", hour))
            return Fact(start: start, end: start.adding(milliseconds: 3_600_000), value: value, deviceClass: .summary)
        }
    }

    @Test(
        "cases",
        arguments: [
            // Edge cases first.
            (
                "a day half covered by an export's sample and half only by buckets: the sample's half from the sample, the rest from the buckets",
                [fact("2024-05-01T00:00:00+02:00", "2024-05-01T12:00:00+02:00", 6000, .watch)] + hours(0, 23, 500), 12000.0
            ),
            (
                "a bucket holding what a watch sample inside it holds adds nothing, though the sample covers a sixth of it",
                [
                    fact("2024-05-01T08:00:00+02:00", "2024-05-01T08:10:00+02:00", 1200, .watch),
                    fact("2024-05-01T08:00:00+02:00", "2024-05-01T09:00:00+02:00", 1200, .summary),
                ], 1200
            ),
            (
                "a bucket holding more than the samples in it adds the difference (steps the export did not have yet)",
                [
                    fact("2024-05-01T08:00:00+02:00", "2024-05-01T08:30:00+02:00", 300, .watch),
                    fact("2024-05-01T08:00:00+02:00", "2024-05-01T09:00:00+02:00", 500, .summary),
                ], 500
            ),
            (
                "a bucket holding less than the samples in it takes nothing away",
                [
                    fact("2024-05-01T08:00:00+02:00", "2024-05-01T08:30:00+02:00", 300, .watch),
                    fact("2024-05-01T08:00:00+02:00", "2024-05-01T09:00:00+02:00", 250, .summary),
                ], 300
            ),
            (
                "a bucket alone counts whole",
                [fact("2024-05-01T08:00:00+02:00", "2024-05-01T09:00:00+02:00", 600, .summary)], 600
            ),
            (
                "finer buckets first: a day bucket tops up its hours to its own total",
                [
                    fact("2024-05-01T08:00:00+02:00", "2024-05-01T09:00:00+02:00", 300, .summary),
                    fact("2024-05-01T09:00:00+02:00", "2024-05-01T10:00:00+02:00", 200, .summary),
                    fact("2024-05-01T00:00:00+02:00", "2024-05-02T00:00:00+02:00", 1000, .summary),
                ], 1000
            ),
            (
                "two groupings of the same hour that agree count once",
                [
                    fact("2024-05-01T08:00:00+02:00", "2024-05-01T08:30:00+02:00", 100, .summary),
                    fact("2024-05-01T08:30:00+02:00", "2024-05-01T09:00:00+02:00", 150, .summary),
                    fact("2024-05-01T08:00:00+02:00", "2024-05-01T09:00:00+02:00", 250, .summary),
                ], 250
            ),
            (
                "a day bucket over a day with a phone's sample: the sample, and the rest of the day from the bucket",
                [
                    fact("2024-05-01T08:00:00+02:00", "2024-05-01T09:00:00+02:00", 400, .phone),
                    fact("2024-05-01T00:00:00+02:00", "2024-05-02T00:00:00+02:00", 1000, .summary),
                ], 1000
            ),
            (
                "a zero-length sample in a bucket is part of what the bucket already holds",
                [
                    fact("2024-05-01T08:15:00+02:00", "2024-05-01T08:15:00+02:00", 50, .phone),
                    fact("2024-05-01T08:00:00+02:00", "2024-05-01T09:00:00+02:00", 50, .summary),
                ], 50
            ),
            (
                "a bucket across midnight counts its share of the day",
                [fact("2024-05-01T23:00:00+02:00", "2024-05-02T01:00:00+02:00", 120, .summary)], 60
            ),
            (
                "a zero-length bucket counts where no device covers its instant",
                [fact("2024-05-01T08:15:00+02:00", "2024-05-01T08:15:00+02:00", 7, .summary)], 7
            ),
            (
                "a zero-length bucket under a device's span counts nothing",
                [
                    fact("2024-05-01T08:00:00+02:00", "2024-05-01T09:00:00+02:00", 60, .other),
                    fact("2024-05-01T08:15:00+02:00", "2024-05-01T08:15:00+02:00", 7, .summary),
                ], 60
            ),
        ] as [(String, [Fact], Double)])
    func cases(name: String, facts: [Fact], expected: Double) {
        #expect(ActivityPolicy.total(facts, day: may1)?.value == expected, "\(name)")
    }

    @Test("provenance names `summary` only when a bucket added something")
    func provenance() throws {
        let watch = fact("2024-05-01T08:00:00+02:00", "2024-05-01T08:30:00+02:00", 300, .watch)
        let covered = try #require(
            ActivityPolicy.total([watch, fact("2024-05-01T08:00:00+02:00", "2024-05-01T09:00:00+02:00", 300, .summary)], day: may1))
        #expect(covered.classes == [.watch])
        #expect(covered.samplesUsed == 1)
        let topped = try #require(
            ActivityPolicy.total([watch, fact("2024-05-01T08:00:00+02:00", "2024-05-01T09:00:00+02:00", 500, .summary)], day: may1))
        #expect(topped.classes == [.watch, .summary])
        #expect(topped.samplesUsed == 2)
    }

    @Test("daylight saving days: a day bucket of 23 or 25 hours is the whole day, and tops up a device's hour")
    func daylightSaving() {
        let spring = paris.span(of: day("2024-03-31"))
        let springBucket = Fact(start: spring.lowerBound, end: spring.upperBound, value: 2300, deviceClass: .summary)
        #expect(ActivityPolicy.total([springBucket], day: spring)?.value == 2300)
        let springHour = fact("2024-03-31T10:00:00+02:00", "2024-03-31T11:00:00+02:00", 100, .watch)
        #expect(ActivityPolicy.total([springHour, springBucket], day: spring)?.value == 2300)
        let autumn = paris.span(of: day("2024-10-27"))
        let autumnBucket = Fact(start: autumn.lowerBound, end: autumn.upperBound, value: 2500, deviceClass: .summary)
        // The hour that happens twice, the second time.
        let repeated = fact("2024-10-27T02:00:00+01:00", "2024-10-27T03:00:00+01:00", 1000, .phone)
        #expect(ActivityPolicy.total([repeated, autumnBucket], day: autumn)?.value == 2500)
        // A bucket printed with a fixed offset runs 24 hours: an hour of it falls on the next day.
        let fixed = fact("2024-03-31T00:00:00+01:00", "2024-04-01T00:00:00+01:00", 2400, .summary)
        #expect(ActivityPolicy.total([fixed], day: spring)?.value == 2300)
    }
}

@Suite("Summaries of heart rate and sleep")
struct SummaryHeartRateAndSleepTests {
    let may1 = paris.span(of: day("2024-05-01"))
    let night = paris.sleepWindow(of: day("2024-05-01"))

    func summary(_ start: String, _ value: Double) -> Fact { fact(start, start, value, .summary) }

    @Test("heart rate: summaries alone count; one sample of a device's own on the day and they do not")
    func heartRate() throws {
        let alone = try #require(
            HeartRatePolicy.summary([summary("2024-05-01T08:00:00+02:00", 60), summary("2024-05-01T09:00:00+02:00", 70)], day: may1))
        #expect(alone == HeartRateSummary(average: 65, minimum: 60, maximum: 70, count: 2, source: .summary))
        let mixed = try #require(
            HeartRatePolicy.summary(
                [summary("2024-05-01T08:00:00+02:00", 60), fact("2024-05-01T12:00:00+02:00", "2024-05-01T12:00:00+02:00", 80, .phone)], day: may1))
        #expect(mixed == HeartRateSummary(average: 80, minimum: 80, maximum: 80, count: 1, source: .phone))
        // A device's sample on another day leaves this day's summaries alone.
        let otherDay = [summary("2024-05-01T08:00:00+02:00", 60), fact("2024-05-02T08:00:00+02:00", "2024-05-02T08:00:00+02:00", 90, .watch)]
        #expect(HeartRatePolicy.summary(otherDay, day: may1)?.average == 60)
    }

    @Test("resting heart rate: summaries only on a day without another resting sample")
    func resting() {
        #expect(HeartRatePolicy.resting([summary("2024-05-01T00:00:00+02:00", 50)], day: may1) == 50)
        #expect(
            HeartRatePolicy.resting(
                [summary("2024-05-01T00:00:00+02:00", 50), fact("2024-05-01T07:00:00+02:00", "2024-05-01T07:00:00+02:00", 55, .watch)], day: may1)
                == 55)
    }

    @Test("sleep: a night of summaries alone has its stages, source summary")
    func summaryNight() throws {
        let facts = [
            fact("2024-04-30T23:00:00+02:00", "2024-05-01T02:00:00+02:00", 0, .summary, .asleepCore),
            fact("2024-05-01T02:00:00+02:00", "2024-05-01T03:00:00+02:00", 0, .summary, .asleepDeep),
            fact("2024-05-01T03:00:00+02:00", "2024-05-01T03:00:00+02:00", 0, .summary, .asleepUnspecified),
            fact("2024-04-30T22:30:00+02:00", "2024-05-01T07:00:00+02:00", 0, .summary, .inBed),
        ]
        let sleep = try #require(SleepPolicy.summary(facts, window: night))
        #expect(
            sleep
                == SleepSummary(
                    inBed: 30600, asleepUnspecified: 0, asleepCore: 10800, asleepDeep: 3600, asleepREM: 0, awake: 0, asleep: 14400, source: .summary,
                    samples: 4))
    }

    @Test("sleep: summaries with time in bed only give only time in bed")
    func summaryInBedOnly() throws {
        let facts = [
            fact("2024-04-30T23:00:00+02:00", "2024-05-01T07:00:00+02:00", 0, .summary, .inBed),
            fact("2024-04-30T23:00:00+02:00", "2024-04-30T23:00:00+02:00", 0, .summary, .asleepCore),
        ]
        let sleep = try #require(SleepPolicy.summary(facts, window: night))
        #expect(
            sleep
                == SleepSummary(
                    inBed: 28800, asleepUnspecified: nil, asleepCore: nil, asleepDeep: nil, asleepREM: nil, awake: nil, asleep: nil, source: .summary,
                    samples: 1))
    }

    @Test("sleep: one sleep sample of a device's own in the window and the summaries count nothing")
    func deviceNight() throws {
        let summaries = [
            fact("2024-04-30T23:00:00+02:00", "2024-05-01T06:00:00+02:00", 0, .summary, .asleepCore),
            fact("2024-04-30T22:00:00+02:00", "2024-05-01T07:00:00+02:00", 0, .summary, .inBed),
        ]
        let watch = fact("2024-05-01T00:00:00+02:00", "2024-05-01T01:00:00+02:00", 0, .watch, .asleepREM)
        let withWatch = try #require(SleepPolicy.summary(summaries + [watch], window: night))
        #expect(
            withWatch
                == SleepSummary(
                    inBed: 0, asleepUnspecified: 0, asleepCore: 0, asleepDeep: 0, asleepREM: 3600, awake: 0, asleep: 3600, source: .watch, samples: 1)
        )
        let phone = fact("2024-04-30T23:30:00+02:00", "2024-05-01T06:30:00+02:00", 0, .phone, .inBed)
        let withPhone = try #require(SleepPolicy.summary(summaries + [phone], window: night))
        #expect(
            withPhone
                == SleepSummary(
                    inBed: 25200, asleepUnspecified: nil, asleepCore: nil, asleepDeep: nil, asleepREM: nil, awake: nil, asleep: nil, source: .other,
                    samples: 1))
        // A device's night in the window before leaves this one's summaries counting.
        let earlier = fact("2024-04-29T23:00:00+02:00", "2024-04-30T06:00:00+02:00", 0, .watch, .asleepCore)
        #expect(SleepPolicy.summary(summaries + [earlier], window: night)?.source == .summary)
    }
}
