import StrideEvents
import Testing

@testable import DailyHealth

/// The sleep rule on the night before 2024-05-02 in Paris: the window is
/// [2024-05-01 18:00 +02:00, 2024-05-02 18:00 +02:00). Expectations are worked out by hand.
@Suite("Sleep over the 18:00–18:00 window")
struct SleepPolicyTests {
    let window = paris.sleepWindow(of: day("2024-05-02"))

    @Test("the window runs from 18:00 the day before to 18:00 on the day")
    func windowBounds() {
        #expect(window.lowerBound == at("2024-05-01T18:00:00+02:00"))
        #expect(window.upperBound == at("2024-05-02T18:00:00+02:00"))
    }

    @Test(
        "window edges: samples are clipped; one ending at the opening or starting at the close is outside",
        arguments: [
            // Starts an hour before the window: only the hour inside counts.
            (fact("2024-05-01T17:00:00+02:00", "2024-05-01T19:00:00+02:00", 0, .watch, .asleepCore), 3600 as Int?),
            // Runs past the close: only the half hour before 18:00 counts.
            (fact("2024-05-02T17:30:00+02:00", "2024-05-02T18:30:00+02:00", 0, .watch, .asleepCore), 1800),
            // Ends exactly at the opening: not in the window.
            (fact("2024-05-01T16:00:00+02:00", "2024-05-01T18:00:00+02:00", 0, .watch, .asleepCore), nil),
            // Starts exactly at the close: it belongs to the next night.
            (fact("2024-05-02T18:00:00+02:00", "2024-05-02T19:00:00+02:00", 0, .watch, .asleepCore), nil),
        ])
    func edges(sample: Fact, core: Int?) {
        let summary = SleepPolicy.summary([sample], window: window)
        #expect(summary?.asleepCore == core)
        #expect(summary?.asleep == core)
    }

    @Test("a nap before 18:00 belongs to the day; one after 18:00 to the next day")
    func naps() {
        let before = fact("2024-05-02T14:00:00+02:00", "2024-05-02T14:30:00+02:00", 0, .watch, .asleepUnspecified)
        let after = fact("2024-05-02T19:00:00+02:00", "2024-05-02T19:30:00+02:00", 0, .watch, .asleepUnspecified)
        #expect(SleepPolicy.summary([before, after], window: window)?.asleepUnspecified == 1800)
        #expect(paris.sleepDay(of: after.start) == day("2024-05-03"))
        #expect(SleepPolicy.summary([before, after], window: paris.sleepWindow(of: day("2024-05-03")))?.asleep == 1800)
    }

    @Test("a watch night uses the watch alone: the phone's in-bed block is left out, stages are measured")
    func watchNight() throws {
        let facts = [
            fact("2024-05-01T22:45:00+02:00", "2024-05-02T07:15:00+02:00", 0, .phone, .inBed),
            fact("2024-05-01T23:00:00+02:00", "2024-05-02T01:00:00+02:00", 0, .watch, .asleepCore),
            fact("2024-05-02T01:00:00+02:00", "2024-05-02T02:00:00+02:00", 0, .watch, .asleepDeep),
            fact("2024-05-02T02:00:00+02:00", "2024-05-02T02:30:00+02:00", 0, .watch, .awake),
            fact("2024-05-02T02:30:00+02:00", "2024-05-02T03:30:00+02:00", 0, .watch, .asleepREM),
        ]
        let summary = try #require(SleepPolicy.summary(facts, window: window))
        #expect(summary.source == .watch)
        #expect(summary.inBed == 0)
        #expect(summary.asleepCore == 7200)
        #expect(summary.asleepDeep == 3600)
        #expect(summary.asleepREM == 3600)
        #expect(summary.awake == 1800)
        #expect(summary.asleep == 14_400)
    }

    @Test("a phone-only night knows in-bed time only, from every source; stages and asleep are null")
    func phoneNight() throws {
        let facts = [
            fact("2024-05-01T23:00:00+02:00", "2024-05-02T07:00:00+02:00", 0, .phone, .inBed),
            fact("2024-05-02T06:30:00+02:00", "2024-05-02T07:30:00+02:00", 0, .other, .inBed),
            fact("2024-05-01T23:30:00+02:00", "2024-05-02T06:30:00+02:00", 0, .other, .asleepUnspecified),
        ]
        let summary = try #require(SleepPolicy.summary(facts, window: window))
        #expect(summary.source == .other)
        #expect(summary.inBed == 8 * 3600 + 1800)
        #expect(summary.asleep == nil)
        #expect(summary.asleepCore == nil)
        #expect(summary.awake == nil)
    }

    @Test("the deprecated Asleep value counts as asleep, unspecified")
    func deprecatedAsleep() throws {
        let stage = try #require(SleepValue("HKCategoryValueSleepAnalysisAsleep"))
        #expect(stage == .asleepUnspecified)
        let summary = SleepPolicy.summary([fact("2024-05-02T00:00:00+02:00", "2024-05-02T06:00:00+02:00", 0, .watch, stage)], window: window)
        #expect(summary?.asleepUnspecified == 21_600)
        #expect(summary?.asleep == 21_600)
    }

    @Test("overlapping samples of one stage count once; asleep is the union across stages")
    func overlaps() throws {
        let facts = [
            fact("2024-05-02T00:00:00+02:00", "2024-05-02T02:00:00+02:00", 0, .watch, .asleepCore),
            fact("2024-05-02T01:00:00+02:00", "2024-05-02T03:00:00+02:00", 0, .watch, .asleepCore),
            fact("2024-05-02T02:30:00+02:00", "2024-05-02T04:00:00+02:00", 0, .watch, .asleepDeep),
        ]
        let summary = try #require(SleepPolicy.summary(facts, window: window))
        #expect(summary.asleepCore == 3 * 3600)
        #expect(summary.asleepDeep == 5400)
        #expect(summary.asleep == 4 * 3600)
    }

    @Test("no sleep sample: sleep is null")
    func none() {
        #expect(SleepPolicy.summary([], window: window) == nil)
    }

    @Test("on the night clocks go forward the window is 23 hours, on the night they go back 25")
    func daylightSavingWindows() {
        let spring = paris.sleepWindow(of: day("2024-03-31"))
        #expect(spring.upperBound.secondsSince1970 - spring.lowerBound.secondsSince1970 == 23 * 3600)
        let autumn = paris.sleepWindow(of: day("2024-10-27"))
        #expect(autumn.upperBound.secondsSince1970 - autumn.lowerBound.secondsSince1970 == 25 * 3600)
        // A night in bed from 22:00 to 08:00 local across the autumn change lasts 11 hours.
        let night = fact("2024-10-26T22:00:00+02:00", "2024-10-27T08:00:00+01:00", 0, .watch, .asleepCore)
        #expect(SleepPolicy.summary([night], window: autumn)?.asleepCore == 11 * 3600)
    }
}
