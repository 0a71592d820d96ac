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

/// The settings over time, the run's own facts and the grouping into periods, by hand.
@Suite("The training log's settings, facts and periods")
struct TrainingLogFactsTests {
    typealias Reading = RunStream.Reading
    typealias Change = AthleteSettings.Change

    static func change(_ sequence: UInt64, from: CivilDate?, maximum: Double? = nil, resting: Double? = nil) -> Change {
        Change(
            sequence: sequence, recordedAt: Timestamp(millisecondsSince1970: Int64(sequence)), from: from, maximumHeartRate: maximum,
            restingHeartRate: resting)
    }

    static let d2021 = CivilDate(year: 2021, month: 6, day: 1)
    static let d2023 = CivilDate(year: 2023, month: 1, day: 1)
    static let d2024 = CivilDate(year: 2024, month: 6, day: 1)

    static let holdingCases: [(changes: [Change], day: CivilDate, maximum: Double?)] = [
        // Nothing set: nothing holds.
        ([], d2021, nil as Double?),
        // All time.
        ([change(1, from: nil, maximum: 190)], d2021, 190),
        // Dated 2023: not before it, from it on.
        ([change(1, from: d2023, maximum: 180)], d2021, nil), ([change(1, from: d2023, maximum: 180)], d2023, 180),
        // All time, then dated 2023: 2021 keeps the all-time one, 2024 the dated one.
        ([change(1, from: nil, maximum: 190), change(2, from: d2023, maximum: 180)], d2021, 190),
        ([change(1, from: nil, maximum: 190), change(2, from: d2023, maximum: 180)], d2024, 180),
        // A later all-time change replaces the first, not the dated one.
        ([change(1, from: nil, maximum: 190), change(2, from: d2023, maximum: 180), change(3, from: nil, maximum: 200)], d2021, 200),
        ([change(1, from: nil, maximum: 190), change(2, from: d2023, maximum: 180), change(3, from: nil, maximum: 200)], d2024, 180),
        // Two changes from one day: the later recorded.
        ([change(1, from: d2023, maximum: 180), change(2, from: d2023, maximum: 185)], d2024, 185),
        // An earlier day recorded later does not beat a later day for the days after both.
        ([change(1, from: d2023, maximum: 180), change(2, from: d2021, maximum: 195)], d2024, 180),
        ([change(1, from: d2023, maximum: 180), change(2, from: d2021, maximum: 195)], d2021, 195),
        // A change of the resting rate alone leaves the maximum as it was.
        ([change(1, from: nil, maximum: 190), change(2, from: d2023, resting: 45)], d2024, 190),
    ]

    @Test("which setting holds on a day", arguments: holdingCases)
    func holding(changes: [Change], day: CivilDate, maximum: Double?) {
        #expect(AthleteSettings(changes: changes).maximumHeartRate(on: day)?.value == maximum)
    }

    static let consistencyCases: [(changes: [Change], adding: Change, from: CivilDate??, problem: AthleteSettings.Problem?)] = [
        // An undated resting rate reaches the days of a dated maximum below it.
        ([change(1, from: d2023, maximum: 105)], change(2, from: nil, resting: 110), .some(d2023), .noReserve),
        // A dated one too, from its day on.
        ([change(1, from: d2023, maximum: 105)], change(2, from: d2021, resting: 110), .some(d2023), .noReserve),
        // An undated maximum reaches a later dated resting rate above it.
        ([change(1, from: d2024, resting: 110)], change(2, from: nil, maximum: 105), .some(d2024), .noReserve),
        // The days before any dated change.
        ([change(1, from: nil, resting: 110), change(2, from: d2023, resting: 50)], change(3, from: nil, maximum: 105), .some(nil), .noReserve),
        // A change that no longer reaches the bad days: the dated maximum ends it.
        ([change(1, from: d2023, resting: 110), change(2, from: d2023, maximum: 150)], change(3, from: nil, maximum: 105), nil, nil),
        // A figure an earlier Stride accepted out of range, on a day the change reaches.
        ([change(1, from: nil, maximum: 300)], change(2, from: nil, resting: 50), .some(nil), .maximumOutOfRange),
        // All consistent.
        ([change(1, from: nil, maximum: 190, resting: 50)], change(2, from: d2023, maximum: 180), nil, nil),
    ]

    @Test("a change is checked on every stretch of days it reaches", arguments: consistencyCases)
    func consistency(changes: [Change], adding: Change, from: CivilDate??, problem: AthleteSettings.Problem?) {
        let found = AthleteSettings(changes: changes).inconsistency(adding: adding)
        #expect(found?.problem == problem)
        if let from { #expect(found?.from == from) }
    }

    static let movingCases: [(readings: [Reading], seconds: Double)] = [
        // 0–10 s at 3 m/s; 10–20 s standing; 20–50 s one gap of 30 s at 3 m/s (counts 10 s).
        (
            [Reading(seconds: 0, metres: 0), Reading(seconds: 10, metres: 30), Reading(seconds: 20, metres: 30), Reading(seconds: 50, metres: 120)],
            20.0
        ),
        // Slower than 0.5 m/s is standing: 4 m in 10 s.
        ([Reading(seconds: 0, metres: 0), Reading(seconds: 10, metres: 4)], 0),
        // No distance at all: in motion throughout, each stretch at most 10 s.
        ([Reading(seconds: 0, heartRate: 100), Reading(seconds: 5, heartRate: 100), Reading(seconds: 60, heartRate: 100)], 15),
        ([Reading(seconds: 0, metres: 0)], 0),
    ]

    @Test("moving time: stretches in which the distance grows at 0.5 m/s or more, each at most 10 s", arguments: movingCases)
    func moving(readings: [Reading], seconds: Double) {
        #expect(RunFacts.moving(RunStream(readings)) == seconds)
    }

    static let climbCases: [(altitudes: [Double], metres: Double)] = [
        // 100 → 102 → 101 → 105: 102 and 101 stay within 3 m of the low point 100; 105 is
        // 5 m above it: 5 m.
        ([100.0, 102, 101, 105], 5.0),
        // Noise of 2 m up and down: nothing.
        ([100, 102, 100, 102, 100], 0),
        // A steady climb by 1 m: counted once 3 m above, then every 3 m: 100→103→106 (+6), 107 not yet.
        ([100, 101, 102, 103, 104, 105, 106, 107], 6),
        // Down only.
        ([110, 100, 90], 0),
    ]

    @Test("climb: rises counted once 3 m above the last low point", arguments: climbCases)
    func climb(altitudes: [Double], metres: Double) {
        let readings = altitudes.enumerated().map { Reading(seconds: Double($0.offset), altitude: $0.element) }
        #expect(RunFacts.climb(RunStream(readings)) == metres)
    }

    static let periodCases: [(day: CivilDate, period: TrainingLog.Period, name: String, start: CivilDate)] = [
        (CivilDate(year: 2024, month: 12, day: 30), TrainingLog.Period.week, "2025-W01", CivilDate(year: 2024, month: 12, day: 30)),
        (CivilDate(year: 2021, month: 1, day: 3), .week, "2020-W53", CivilDate(year: 2020, month: 12, day: 28)),
        (CivilDate(year: 2024, month: 1, day: 15), .week, "2024-W03", CivilDate(year: 2024, month: 1, day: 15)),
        (CivilDate(year: 2024, month: 2, day: 29), .month, "2024-02", CivilDate(year: 2024, month: 2, day: 1)),
        (CivilDate(year: 2024, month: 2, day: 29), .year, "2024", CivilDate(year: 2024, month: 1, day: 1)),
    ]

    @Test("the period holding a day: ISO weeks across New Year, months and years", arguments: periodCases)
    func period(day: CivilDate, period: TrainingLog.Period, name: String, start: CivilDate) {
        #expect(period.holding(day) == (name, start))
    }

    static func run(_ id: UInt128, day: CivilDate, start: String, km: Double, shoe: String?) -> TrainingRun {
        let begin = ISO8601.parse(start)!
        let figure = AthleteSettings.Figure(value: 190, change: nil, estimate: "assumed")
        let rest = AthleteSettings.Figure(value: 50, change: nil, estimate: "assumed")
        return TrainingRun(
            workout: id, copies: [], recordedSequence: UInt64(id), start: begin, end: begin.adding(milliseconds: 3_600_000), day: day,
            kilometres: km, distanceSource: "test", sourceName: "test", shoe: shoe, streamWorkout: nil, facts: nil, heartRate: [],
            heartRateSource: nil, maximumHeartRate: figure, restingHeartRate: rest)
    }

    @Test("volume per week: a run across midnight counts on its start day; runs on no shoe under their own name")
    func volume() {
        let runs = [
            // Sunday 23:30 to Monday 00:30: the week of the Sunday.
            Self.run(1, day: CivilDate(year: 2024, month: 1, day: 14), start: "2024-01-14T23:30:00+01:00", km: 10, shoe: "Pegasus"),
            Self.run(2, day: CivilDate(year: 2024, month: 1, day: 15), start: "2024-01-15T07:00:00+01:00", km: 5, shoe: "Pegasus"),
            Self.run(3, day: CivilDate(year: 2024, month: 1, day: 16), start: "2024-01-16T07:00:00+01:00", km: 7.5, shoe: nil),
        ]
        let weeks = TrainingLog.volume(runs, per: .week)
        #expect(weeks.map(\.period) == ["2024-W02", "2024-W03"])
        #expect(weeks.map(\.runs) == [1, 2])
        #expect(weeks[1].kilometres == 12.5 && weeks[1].kilometresByShoe == ["Pegasus": 5, TrainingLog.noShoe: 7.5])
        // No stream: the elapsed hour is the moving time.
        #expect(weeks[0].movingSeconds == 3600 && weeks[0].elapsedSeconds == 3600)
    }

    @Test("the maximum is estimated from what a run held 10 s in all, not a spike; the resting rate is the median of the days")
    func estimates() {
        let spike = [
            HeartRateTime(heartRate: 150, seconds: 600), HeartRateTime(heartRate: 181, seconds: 8), HeartRateTime(heartRate: 230, seconds: 1),
        ]
        // From the top: 230 for 1 s, 181 for 8 s (9 s in all), 150: 10 s reached at 150.
        #expect(AthleteEstimate.maximum([spike]) == 150)
        #expect(AthleteEstimate.maximum([spike, [HeartRateTime(heartRate: 176, seconds: 12)]]) == 176)
        #expect(AthleteEstimate.maximum([]) == nil)
        #expect(AthleteEstimate.resting([52, 48, 300, 50]) == 50)
        #expect(AthleteEstimate.resting([52, 48]) == 50)
        #expect(AthleteEstimate.resting([]) == nil)
    }

    @Test("a shoe's outlook: its last eight weeks' kilometres, and the day it reaches its goal at that pace")
    func shoeOutlooks() {
        let today = CivilDate(year: 2024, month: 6, day: 30)
        let runs = [
            // 56 days through 2024-06-30 start on 2024-05-06: the run of 05-05 is outside.
            Self.run(1, day: CivilDate(year: 2024, month: 5, day: 5), start: "2024-05-05T07:00:00+02:00", km: 50, shoe: "Pegasus"),
            Self.run(2, day: CivilDate(year: 2024, month: 5, day: 6), start: "2024-05-06T07:00:00+02:00", km: 28, shoe: "Pegasus"),
            Self.run(3, day: CivilDate(year: 2024, month: 6, day: 30), start: "2024-06-30T07:00:00+02:00", km: 28, shoe: "Pegasus"),
            Self.run(4, day: CivilDate(year: 2024, month: 6, day: 1), start: "2024-06-01T07:00:00+02:00", km: 10, shoe: "Trail"),
        ]
        let outlooks = TrainingLog.shoeOutlooks(
            [
                (name: "Pegasus", kilometres: 700, goalKilometres: 800, isRetired: false),
                (name: "Trail", kilometres: 600, goalKilometres: 500, isRetired: false),
                (name: "Old", kilometres: 100, goalKilometres: 800, isRetired: true),
                (name: "Spare", kilometres: 10, goalKilometres: nil, isRetired: false),
            ], runs: runs, today: today)
        // Pegasus: 56 km in 56 days, 1 km a day; 100 km to go: 100 days after 2024-06-30.
        #expect(outlooks[0].recentKilometres == 56 && outlooks[0].goalDay == CivilDate(year: 2024, month: 10, day: 8))
        // Trail is past its goal: today.
        #expect(outlooks[1].goalDay == today)
        #expect(outlooks[2].goalDay == nil && outlooks[3].goalDay == nil)
    }

    static let sportCases: [(metadata: [MetadataEntry], sport: String)] = [
        ([], "road"),
        ([MetadataEntry(key: "StravaActivityType", value: "Run")], "road"),
        ([MetadataEntry(key: "StravaActivityType", value: "Trail Run")], "trail"),
        ([MetadataEntry(key: "StravaActivityType", value: "Traillauf")], "trail"),
        ([MetadataEntry(key: "StravaActivityType", value: "Virtual Run")], "virtual"),
        ([MetadataEntry(key: "GarminActivityType", value: "treadmill_running")], "treadmill"),
        ([MetadataEntry(key: "GarminActivityType", value: "trail_running")], "trail"),
        ([MetadataEntry(key: "FITSubSport", value: "track")], "track"),
        // The Health app's indoor run, and a FIT treadmill run marked indoor.
        ([MetadataEntry(key: "HKIndoorWorkout", value: "1")], "treadmill"),
        ([MetadataEntry(key: "FITSubSport", value: "treadmill"), MetadataEntry(key: "HKIndoorWorkout", value: "1")], "treadmill"),
        // The archive's type wins over its file's: a Strava trail run whose FIT file says street.
        ([MetadataEntry(key: "FITSubSport", value: "street"), MetadataEntry(key: "StravaActivityType", value: "Trail Run")], "trail"),
    ]

    @Test("a run's sport from what its file or archive says", arguments: sportCases)
    func sport(metadata: [MetadataEntry], sport: String) {
        #expect(RunSport.of(metadata) == sport)
    }

    @Test("volume per sport")
    func volumePerSport() {
        var trail = Self.run(1, day: CivilDate(year: 2024, month: 1, day: 15), start: "2024-01-15T07:00:00+01:00", km: 12, shoe: nil)
        trail.sport = "trail"
        let road = Self.run(2, day: CivilDate(year: 2024, month: 1, day: 16), start: "2024-01-16T07:00:00+01:00", km: 8, shoe: nil)
        #expect(TrainingLog.volume([trail, road], per: .week).first?.kilometresBySport == ["trail": 12, "road": 8])
    }
}
