import Foundation
import StrideEvents
import Testing

@testable import DailyHealth

/// `daily explain`'s policy: each sample's part, its outcome, and a running total whose last
/// value is the figure. Hand-computed cases, edge cases first.
@Suite("Explaining a day down to its samples")
struct DayExplanationTests {
    /// The facts of one measure on a day, as rows give them.
    static func facts(_ measure: Measure, _ facts: [Fact], leftOut: [Fact] = []) -> DayFacts {
        var day = DayFacts()
        day[measure] = facts
        day.leftOut[Int(measure.rawValue)] = leftOut
        return day
    }

    static func explain(_ measure: Measure, _ facts: DayFacts, on date: String) -> MeasureExplanation {
        DayExplanation.explain(facts, day: day(date), calendar: parisDays, measures: [measure])[0]
    }

    @Test(
        "steps: a watch and a phone over one hour, the phone's sample across midnight, a zero-length sample covered by the watch",
        arguments: [false, true])
    func steps(reversed: Bool) {
        var samples = [
            // 23:30–00:30: 600 steps from the phone, half of them in each day.
            fact("2024-05-01T23:30:00+02:00", "2024-05-02T00:30:00+02:00", 600, .phone),
            // 08:00–09:00: the watch's 1,000 steps; the phone counted 900 over 08:30–09:30.
            fact("2024-05-02T08:00:00+02:00", "2024-05-02T09:00:00+02:00", 1000, .watch),
            fact("2024-05-02T08:30:00+02:00", "2024-05-02T09:30:00+02:00", 900, .phone),
            // An instant the watch covers: outranked.
            fact("2024-05-02T08:10:00+02:00", "2024-05-02T08:10:00+02:00", 50, .other),
        ]
        if reversed { samples.reverse() }
        let explanation = Self.explain(.steps, Self.facts(.steps, samples), on: "2024-05-02")
        // 300 (the phone's half past midnight) + 1,000 (watch) + 450 (the phone's 09:00–09:30).
        #expect(explanation.figure == 1750)
        #expect(explanation.samples.last?.runningTotal == 1750)
        let byValue = Dictionary(uniqueKeysWithValues: explanation.samples.map { ($0.fact.value, $0) })
        #expect(byValue[600]?.inDay == 300)
        #expect(byValue[600]?.counted == 300)
        #expect(byValue[900]?.inDay == 900)
        #expect(byValue[900]?.counted == 450)
        #expect(byValue[900]?.outcome == .partlyOutranked(by: .watch))
        #expect(byValue[50]?.outcome == .outranked(by: .watch))
        #expect(byValue[1000]?.outcome == .counted)
        // The stretches: the phone 00:00–00:30, the watch 08:00–09:00, the phone 09:00–09:30.
        #expect(explanation.stretches.map(\.deviceClass) == [.phone, .watch, .phone])
        #expect(explanation.stretches.map(\.amount) == [300, 1000, 450])
        #expect(explanation.figure == ActivityPolicy.total(samples, day: paris.span(of: day("2024-05-02")))?.value)
    }

    @Test("the day the clocks go back lasts 25 hours: a sample over the repeated hour counts whole in it")
    func longDay() {
        // 2024-10-27 in Paris: 02:00–03:00 happens twice; a 2-hour sample from 01:30+02:00 ends at 02:30+01:00.
        let sample = fact("2024-10-27T01:30:00+02:00", "2024-10-27T02:30:00+01:00", 200, .watch)
        let explanation = Self.explain(.steps, Self.facts(.steps, [sample]), on: "2024-10-27")
        #expect(explanation.samples.first?.inDay == 200)
        #expect(explanation.figure == 200)
    }

    @Test("a summary bucket the export's samples account for adds nothing; one over empty time counts whole")
    func summaries() {
        let samples = [
            fact("2024-05-02T08:00:00+02:00", "2024-05-02T09:00:00+02:00", 1000, .watch),
            fact("2024-05-02T08:00:00+02:00", "2024-05-02T09:00:00+02:00", 1000, .summary),
            fact("2024-05-02T14:00:00+02:00", "2024-05-02T15:00:00+02:00", 300, .summary),
        ]
        let explanation = Self.explain(.steps, Self.facts(.steps, samples), on: "2024-05-02")
        #expect(explanation.samples.map(\.outcome) == [.counted, .coveredByDevices, .counted])
        #expect(explanation.figure == 1300)
        #expect(explanation.samples.last?.runningTotal == 1300)
    }

    @Test("samples left out are listed after those that count, with why, and change no total")
    func leftOut() {
        var withdrawn = fact("2024-05-05T12:00:00+02:00", "2024-05-05T12:05:00+02:00", 48000, .other)
        withdrawn.leftOut = .withdrawn
        var repeated = fact("2024-05-05T09:00:00+02:00", "2024-05-05T09:30:00+02:00", 1000, .phone)
        repeated.leftOut = .repeated
        let counted = fact("2024-05-05T09:00:00+02:00", "2024-05-05T09:30:00+02:00", 1000, .phone)
        let explanation = Self.explain(.steps, Self.facts(.steps, [counted], leftOut: [withdrawn, repeated]), on: "2024-05-05")
        #expect(explanation.figure == 1000)
        #expect(explanation.samples.map(\.outcome) == [.counted, .leftOut(.withdrawn), .leftOut(.repeated)])
        #expect(explanation.samples.compactMap(\.runningTotal).last == 1000)
    }

    @Test("heart rate: the watch's samples alone count when it wrote any; the running average ends at the day's average")
    func heartRate() {
        let samples = [
            fact("2024-05-02T08:00:00+02:00", "2024-05-02T08:00:00+02:00", 60, .watch),
            fact("2024-05-02T08:05:00+02:00", "2024-05-02T08:05:00+02:00", 90, .phone),
            fact("2024-05-02T09:00:00+02:00", "2024-05-02T09:00:00+02:00", 71, .watch),
            fact("2024-05-02T10:00:00+02:00", "2024-05-02T10:00:00+02:00", 80, .summary),
        ]
        let explanation = Self.explain(.heartRate, Self.facts(.heartRate, samples), on: "2024-05-02")
        #expect(explanation.samples.map(\.outcome) == [.counted, .outranked(by: .watch), .counted, .coveredByDevices])
        #expect(explanation.samples.map(\.runningTotal) == [60, 60, 65.5, 65.5])
        #expect(explanation.figure == 65.5)
        #expect(explanation.parts.map(\.value) == [60, 71, 2])
    }

    @Test("sleep: the phone's time in bed is outranked by the watch's stages; the running time asleep is a union, overlaps once")
    func sleep() {
        let samples = [
            fact("2024-05-01T22:30:00+02:00", "2024-05-02T07:00:00+02:00", 0, .phone, .inBed),
            fact("2024-05-01T23:00:00+02:00", "2024-05-02T01:00:00+02:00", 0, .watch, .asleepCore),
            // Overlapping the core stage by 30 minutes: counted once.
            fact("2024-05-02T00:30:00+02:00", "2024-05-02T02:00:00+02:00", 0, .watch, .asleepDeep),
            fact("2024-05-02T02:00:00+02:00", "2024-05-02T02:10:00+02:00", 0, .watch, .awake),
        ]
        let explanation = Self.explain(.sleep, Self.facts(.sleep, samples), on: "2024-05-02")
        #expect(explanation.samples.map(\.outcome) == [.outranked(by: .watch), .counted, .counted, .counted])
        #expect(explanation.samples.map(\.runningTotal) == [nil, 7200, 10800, 10800])
        #expect(explanation.samples.map(\.counted) == [0, 7200, 3600, 0])
        #expect(explanation.figure == 10800)
    }

    @Test("a day no sample touched explains as nothing, with no figure")
    func empty() {
        let explanation = Self.explain(.steps, DayFacts(), on: "2024-05-02")
        #expect(explanation.figure == nil)
        #expect(explanation.samples.isEmpty)
    }
}
