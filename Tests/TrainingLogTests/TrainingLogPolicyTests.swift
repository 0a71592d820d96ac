import Foundation
import StrideEvents
import Testing
import TrainingLog

/// The training log's figures, each a pure function, against hand-computed cases: pauses,
/// gaps, GPS jumps, runs shorter than the distance, days without runs, weeks across years.
@Suite("The training log's policies")
struct TrainingLogPolicyTests {
    typealias Reading = RunStream.Reading

    /// Readings every `step` seconds at `speed` m/s from (`seconds`, `metres`).
    static func steady(from seconds: Double, _ metres: Double, speed: Double, step: Double = 10, until end: Double) -> [Reading] {
        stride(from: seconds, through: end, by: step).map { Reading(seconds: $0, metres: metres + ($0 - seconds) * speed) }
    }

    @Test(
        "best efforts: the least time over a distance, interpolated between records",
        arguments: [
            // A steady 4 m/s for 1,200 m, a record every 10 s.
            ("steady", steady(from: 0, 0, speed: 4, until: 300), 400.0, 100.0 as Double?),
            ("steady", steady(from: 0, 0, speed: 4, until: 300), 1_000, 250),
            ("shorter than the distance", steady(from: 0, 0, speed: 4, until: 300), 5_000, nil),
            // 400 m at 4 m/s, a 300 s pause, 500 m at 5 m/s: 400 m in 80 s in the second part;
            // 800 m must span the pause: from 100 m (25 s) to 900 m (500 s).
            ("a pause", steady(from: 0, 0, speed: 4, until: 100) + steady(from: 400, 400, speed: 5, until: 500), 400, 80),
            ("a pause", steady(from: 0, 0, speed: 4, until: 100) + steady(from: 400, 400, speed: 5, until: 500), 800, 475),
            // A GPS jump of 400 m in 10 s after 40 m: no effort touches it; after it, 4 m/s.
            (
                "a GPS jump", [Reading(seconds: 0, metres: 0), Reading(seconds: 10, metres: 40)] + steady(from: 20, 440, speed: 4, until: 410), 400,
                100
            ),
            (
                "a GPS jump", [Reading(seconds: 0, metres: 0), Reading(seconds: 10, metres: 40)] + steady(from: 20, 440, speed: 4, until: 410),
                1_000, 250
            ),
            // Records 7 s apart: 400 m ends between them, at 100 s.
            ("uneven records", steady(from: 0, 0, speed: 4, step: 7, until: 140), 400, 100),
            ("no distance", [Reading(seconds: 0, heartRate: 120), Reading(seconds: 10, heartRate: 130)], 400, nil),
        ])
    func bestEffort(_ name: String, readings: [Reading], metres: Double, expected: Double?) {
        let effort = BestEffortPolicy.best(RunStream(readings), metres: metres)
        if let expected {
            #expect(abs((effort?.seconds ?? -1) - expected) < 1e-9, "\(name): \(String(describing: effort))")
        } else {
            #expect(effort == nil, "\(name)")
        }
    }

    @Test("the seven distances, with their names")
    func distances() {
        #expect(BestEffortPolicy.Distance.all.map(\.name) == ["400m", "1k", "1mi", "5k", "10k", "half", "marathon"])
        #expect(BestEffortPolicy.Distance.all.map(\.metres) == [400, 1_000, 1_609.344, 5_000, 10_000, 21_097.5, 42_195])
    }

    @Test("zones by percent of the maximum, edges included where the spec puts them")
    func zones() {
        let cases: [(Double, Int?)] = [(99, nil), (100, 1), (119.9, 1), (120, 2), (140, 3), (160, 4), (179.9, 4), (180, 5), (230, 5)]
        for (heartRate, zone) in cases { #expect(TrainingHeartRate.zone(heartRate, maximum: 200) == zone, "\(heartRate)") }
    }

    @Test("time in zones: a reading holds until the next, at most 10 s; the last holds nothing")
    func timeInZones() {
        let stream = RunStream([
            Reading(seconds: 0, heartRate: 90), Reading(seconds: 5, heartRate: 110), Reading(seconds: 10, heartRate: 150),
            Reading(seconds: 40, heartRate: 185), Reading(seconds: 45, heartRate: 185),
        ])
        // 5 s under 50 %, 5 s in Z1, 10 s (not 30) in Z3, 5 s in Z5.
        #expect(TrainingHeartRate.secondsInZones(stream, maximum: 200) == [5, 0, 10, 0, 5])
    }

    @Test("TRIMP: minutes × HRr × 0.64 × e^(1.92 HRr), HRr clamped to [0, 1]")
    func trimp() {
        let steady = RunStream([Reading(seconds: 0, heartRate: 120), Reading(seconds: 10, heartRate: 120), Reading(seconds: 20, heartRate: 120)])
        // 20 s at HRr 0.5: (1/3) × 0.5 × 0.64 × e^0.96 = 0.2785809…
        #expect(abs(TrainingHeartRate.trimp(steady, resting: 50, maximum: 190) - 0.278_580_957_8) < 1e-9)
        // Above the maximum counts as the maximum: 10 s × 0.64 × e^1.92 / 60 = 0.7275689…
        let hard = RunStream([Reading(seconds: 0, heartRate: 200), Reading(seconds: 60, heartRate: 40)])
        #expect(abs(TrainingHeartRate.trimp(hard, resting: 50, maximum: 190) - 0.727_568_9) < 1e-6)
        // Below rest counts nothing; no heart rate, nothing.
        #expect(
            TrainingHeartRate.trimp(RunStream([Reading(seconds: 0, heartRate: 40), Reading(seconds: 10, heartRate: 40)]), resting: 50, maximum: 190)
                == 0)
        #expect(
            TrainingHeartRate.trimp(RunStream([Reading(seconds: 0, metres: 0), Reading(seconds: 10, metres: 40)]), resting: 50, maximum: 190) == 0)
    }

    @Test("fitness, fatigue and form from 0 on the first day, through days without runs")
    func load() {
        let first = CivilDate(year: 2024, month: 1, day: 1)
        let days = TrainingLoadPolicy.days(trimpByDay: [first: 42], through: first.adding(days: 2))
        #expect(days.map(\.date) == [first, first.adding(days: 1), first.adding(days: 2)])
        let expected: [(trimp: Double, fitness: Double, fatigue: Double, form: Double)] = [
            (42, 1, 6, 0),
            (0, 1 - 1.0 / 42, 6 - 6.0 / 7, 1 - 6),
            (0, (1 - 1.0 / 42) * 41 / 42, (6 - 6.0 / 7) * 6 / 7, (1 - 1.0 / 42) - (6 - 6.0 / 7)),
        ]
        for (day, want) in zip(days, expected) {
            #expect(day.trimp == want.trimp)
            #expect(abs(day.fitness - want.fitness) < 1e-12 && abs(day.fatigue - want.fatigue) < 1e-12 && abs(day.form - want.form) < 1e-12)
        }
        #expect(TrainingLoadPolicy.days(trimpByDay: [:], through: first).isEmpty)
    }

    @Test(
        "ISO weeks begin on Monday and belong to the year of their Thursday",
        arguments: [
            ("2024-01-15", "2024-W03", "2024-01-15"), ("2024-01-21", "2024-W03", "2024-01-15"), ("2021-01-03", "2020-W53", "2020-12-28"),
            ("2024-12-30", "2025-W01", "2024-12-30"), ("2026-11-28", "2026-W48", "2026-11-23"), ("2026-03-29", "2026-W13", "2026-03-23"),
        ])
    func isoWeeks(_ date: String, _ name: String, _ monday: String) throws {
        let day = try #require(CivilDate(date))
        #expect(ISOWeek.name(of: day) == name)
        #expect(ISOWeek.start(of: day).description == monday)
    }

    @Test("a shoe's forecast: at its pace of the last eight weeks; reached already; no recent runs")
    func forecast() throws {
        let today = try #require(CivilDate("2024-06-01"))
        #expect(ShoeForecast.goalDay(kilometres: 700, goal: 800, recentKilometres: 112, today: today)?.description == "2024-07-21")
        #expect(ShoeForecast.goalDay(kilometres: 800, goal: 800, recentKilometres: 0, today: today) == today)
        #expect(ShoeForecast.goalDay(kilometres: 100, goal: 800, recentKilometres: 0, today: today) == nil)
    }
}
