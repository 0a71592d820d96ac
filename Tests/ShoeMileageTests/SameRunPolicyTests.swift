import ShoeMileage
import StrideEvents
import StrideTestSupport
import Testing

/// The same-run rule, how a set of workouts falls into runs, and which copy counts, with
/// hand-computed cases, edges first: the shapes real archives hold that no generator makes.
@Suite("The same-run rule")
struct SameRunPolicyTests {
    static let base = Timestamp(secondsSince1970: 1_714_550_400)  // 2024-05-01 08:00 UTC

    static func at(_ minutes: Int) -> Timestamp { base.adding(milliseconds: Int64(minutes) * 60_000) }

    /// Where a test workout came from.
    enum From {
        case strava, garmin, watch, otherWatch, health(String), push, app, track

        var recording: WorkoutRecording {
            switch self {
            case .strava, .garmin: .accountArchive
            case .watch, .otherWatch: .deviceFile
            case .health: .appleHealth
            case .push: .healthAutoExport
            case .app: .app
            case .track: .gpxTrack
            }
        }

        var source: String {
            switch self {
            case .strava: "archive:Strava"
            case .garmin: "archive:Garmin Connect"
            case .watch: "file:manufacturer:garmin, product:3113, serial:1"
            case .otherWatch: "file:manufacturer:coros, product:7, serial:2"
            case .health(let writer): "1:\(writer)"
            case .push: "2:Health Auto Export"
            case .app: "3:Some App"
            case .track: "4:Phone"
            }
        }
    }

    static func workout(
        _ id: UInt128, _ from: From, _ start: Int, _ end: Int, km: Double? = 5, activity: String = "HKWorkoutActivityTypeRunning",
        sequence: UInt64 = 1, startSecond: Int = 0
    ) -> Workout {
        var workout = Workout(
            id: id, activity: activity, start: at(start).adding(milliseconds: Int64(startSecond) * 1000), end: at(end),
            distanceMeters: km.map { $0 * 1000 }, distanceSource: .reported, distanceAsWritten: nil, sourceName: "\(from)",
            recordedSequence: sequence)
        workout.recording = from.recording
        workout.source = from.source
        return workout
    }

    /// (first start, end, second start, end, share), in minutes.
    static let shareCases: [(Int, Int, Int, Int, Double)] = [
        (0, 30, 0, 30, 1),  // the same span
        (0, 30, 30, 60, 0),  // back to back: touching is not sharing
        (0, 30, 40, 60, 0),  // apart
        (0, 0, 0, 30, 0),  // no length: never a copy
        (0, 60, 10, 20, 10.0 / 60),  // one inside the other: a sixth of their union
        (0, 2_880, 600, 630, 30.0 / 2_880),  // a workout left running for two days, a run inside it
        (0, 30, 2, 32, 28.0 / 32),  // a device started two minutes late
        (0, 24, 9, 56, 15.0 / 56),  // 24 min beside 47 min, sharing 15
        (0, 30, 15, 45, 15.0 / 45),  // half of each
    ]

    @Test("the share is of the two workouts' union, not of the shorter one", arguments: shareCases)
    func share(_ a0: Int, _ a1: Int, _ b0: Int, _ b1: Int, _ expected: Double) {
        let computed = SameRunPolicy.share(Self.at(a0)..<Self.at(a1), Self.at(b0)..<Self.at(b1))
        #expect(abs(computed - expected) < 1e-9)
    }

    /// (first km, second km, whether they agree)
    static let distanceCases: [(Double?, Double?, Bool)] = [
        (5.0, 5.0, true), (5.0, 4.5, true), (5.0, 4.49, false), (4.2, 5.0, false), (8.0, 4.2, false), (5.0, nil, true), (nil, nil, true),
        (0.0, 5.0, true),
    ]

    @Test("distances agree when the shorter is at least 90 % of the longer, or either is unknown", arguments: distanceCases)
    func distances(_ first: Double?, _ second: Double?, _ agree: Bool) {
        #expect(SameRunPolicy.distancesAgree(first.map { $0 * 1000 }, second.map { $0 * 1000 }) == agree)
    }

    @Test(
        "copies: the cases docs/USING.md names",
        arguments: [
            // Two devices started two minutes apart: 28 of 32 minutes, 5 and 4.95 km.
            ("two devices two minutes apart", workout(1, .watch, 0, 30), workout(2, .health("Connect"), 2, 32, km: 4.95), true),
            ("a warm-up and a race back to back", workout(1, .watch, 0, 20, km: 3), workout(2, .health("Connect"), 20, 40, km: 5), false),
            // Hand-entered reps whose rough times overlap, in one archive: the service keeps them apart.
            ("reps entered by hand that overlap", workout(1, .strava, 0, 5, km: 1), workout(2, .strava, 4, 9, km: 1), false),
            ("reps entered by hand at the same minute", workout(1, .strava, 0, 5, km: 1), workout(2, .strava, 0, 5, km: 1), false),
            ("a treadmill and a watch at once, 5 and 4.2 km", workout(1, .app, 0, 30, km: 5), workout(2, .watch, 0, 30, km: 4.2), false),
            (
                "two activities recorded at once, 24 min / 4.2 km and 47 min / 8 km", workout(1, .garmin, 0, 24, km: 4.2),
                workout(2, .watch, 9, 56, km: 8), false
            ),
            (
                "a workout left running for two days, a run inside it", workout(1, .watch, 0, 2_880, km: 12), workout(2, .strava, 600, 630, km: 5),
                false
            ),
            ("two files of one watch, one after the other", workout(1, .watch, 0, 30), workout(2, .watch, 1, 31), false),
            // One file read twice (a reader that lost laps, then the right one): the same second.
            ("one file of one watch read twice, figures changed", workout(1, .watch, 0, 17, km: 2.983), workout(2, .watch, 0, 32, km: 5.729), true),
            ("two watches' files of one run", workout(1, .watch, 0, 30), workout(2, .otherWatch, 0, 30, km: 5.1), true),
            (
                "the Health app holding one run twice (Connect wrote it twice)", workout(1, .health("Connect"), 0, 30),
                workout(2, .health("Connect"), 0, 30), true
            ),
            (
                "a run and a walk at once", workout(1, .watch, 0, 30), workout(2, .health("Phone"), 0, 30, activity: "HKWorkoutActivityTypeWalking"),
                false
            ),
            ("a workout is not its own copy", workout(1, .watch, 0, 30), workout(1, .health("Connect"), 0, 30), false),
            // 30 of 50 minutes: exactly 60 % of the union.
            ("exactly 60 % of the union", workout(1, .watch, 0, 50), workout(2, .health("Connect"), 0, 30, km: 4.6), true),
            ("just under 60 % of the union", workout(1, .watch, 0, 50), workout(2, .health("Connect"), 0, 29, km: 4.6), false),
        ])
    func copies(_ name: String, _ first: Workout, _ second: Workout, _ areCopies: Bool) {
        #expect((SameRunPolicy.copyShare(first, second) != nil) == areCopies, "\(name)")
        #expect((SameRunPolicy.copyShare(second, first) != nil) == areCopies, "\(name), the other way round")
    }

    @Test("a copy always starts inside the window the index is searched in")
    func window() {
        var random = SeededGenerator(state: 41)
        for _ in 0..<2_000 {
            let first = Self.workout(1, .watch, Int.random(in: 0..<200, using: &random), 0)
            let length = 1 + Int.random(in: 0..<240, using: &random)
            let start = Int.random(in: 0..<200, using: &random)
            var a = first
            a.end = a.start.adding(milliseconds: Int64(length) * 60_000)
            let b = Self.workout(2, .health("Connect"), start, start + 1 + Int.random(in: 0..<240, using: &random))
            guard SameRunPolicy.copyShare(a, b) != nil else { continue }
            #expect(SameRunPolicy.copyStarts(of: a).contains(b.start))
            #expect(SameRunPolicy.copyStarts(of: b).contains(a.start))
        }
    }

    @Test("runs: three recordings of one run are one run; reps with their Health copies are two runs, each with one archive row")
    func runsOfCopies() {
        let one = [Self.workout(1, .strava, 0, 30), Self.workout(2, .watch, 0, 30, km: 5.02), Self.workout(3, .health("Connect"), 1, 30, km: 4.99)]
        #expect(SameRunPolicy.runs(of: one) == [[1, 2, 3]])
        // Strava wrote the hand-entered reps to the Health app too, with the same times.
        let reps = [
            Self.workout(1, .strava, 0, 5, km: 1), Self.workout(2, .strava, 0, 5, km: 1), Self.workout(3, .health("Strava"), 0, 5, km: 1),
            Self.workout(4, .health("Strava"), 0, 5, km: 1),
        ]
        let runs = SameRunPolicy.runs(of: reps)
        #expect(runs.count == 2)
        #expect(runs.allSatisfy { run in run.filter { $0 <= 2 }.count == 1 })
    }

    @Test("runs: a copy of two workouts that are not copies of each other joins the one it shares most with")
    func chain() {
        // A (0–60) and B (0–100) share 60 %, B and C (40–100) 60 %, A and C 20 %: C stays apart.
        let chain = [
            Self.workout(1, .watch, 0, 60, km: nil), Self.workout(2, .health("Connect"), 0, 100, km: nil), Self.workout(3, .strava, 40, 100, km: nil),
        ]
        #expect(SameRunPolicy.runs(of: chain) == [[1, 2], [3]])
        // B shares more with C (70 of 100) than with A (60 of 100): B joins C.
        let closer = [
            Self.workout(1, .watch, 0, 60, km: nil), Self.workout(2, .health("Connect"), 0, 100, km: nil), Self.workout(3, .strava, 30, 100, km: nil),
        ]
        #expect(SameRunPolicy.runs(of: closer) == [[1], [2, 3]])
    }

    @Test("runs: the runner's word — `same` joins what the rule keeps apart, `different` parts what it joins")
    func runnersWord() {
        var first = Self.workout(1, .strava, 0, 30)
        var second = Self.workout(2, .strava, 0, 30)
        first.sameAs = [2]
        second.sameAs = [1]
        #expect(SameRunPolicy.runs(of: [first, second]) == [[1, 2]])
        var watch = Self.workout(3, .watch, 0, 30)
        var health = Self.workout(4, .health("Connect"), 0, 30)
        watch.differentFrom = [4]
        health.differentFrom = [3]
        let strava = Self.workout(5, .strava, 0, 30)
        // The watch and the Health app differ by the runner's word: Strava joins one of them only.
        let runs = SameRunPolicy.runs(of: [watch, health, strava])
        #expect(runs.count == 2)
        #expect(!runs.contains { $0.contains(3) && $0.contains(4) })
    }

    @Test("runs are a function of the set: every order of the same workouts gives the same runs")
    func anyOrder() {
        var random = SeededGenerator(state: 7)
        let sources: [From] = [.strava, .garmin, .watch, .health("Connect"), .health("Strava"), .push, .track]
        for round in 0..<200 {
            var workouts: [Workout] = []
            for index in 0..<(2 + Int.random(in: 0..<9, using: &random)) {
                let start = Int.random(in: 0..<90, using: &random)
                let length = 5 + Int.random(in: 0..<60, using: &random)
                let whole = Double(3 + Int.random(in: 0..<4, using: &random))
                let hundredths = Double(Int.random(in: 0..<20, using: &random)) / 100
                let km: Double? = Int.random(in: 0..<5, using: &random) == 0 ? nil : whole + hundredths
                workouts.append(
                    Self.workout(UInt128(index + 1), sources[Int.random(in: 0..<sources.count, using: &random)], start, start + length, km: km))
            }
            let expected = SameRunPolicy.runs(of: workouts)
            for _ in 0..<5 {
                workouts.shuffle(using: &random)
                #expect(SameRunPolicy.runs(of: workouts) == expected, "round \(round)")
            }
            // No run holds two activities of one archive.
            for run in expected {
                let members = workouts.filter { run.contains($0.id) }
                for source in ["archive:Strava", "archive:Garmin Connect"] { #expect(members.count { $0.source == source } <= 1) }
            }
        }
    }

    @Test(
        "the counted copy: an archive's row, a device's file, Apple Health, Health Auto Export, an app, a GPX track; one with a distance first; of one source the later reading"
    )
    func counted() {
        let track = Self.workout(1, .track, 0, 50, km: 8.8, sequence: 1)
        let app = Self.workout(2, .app, 0, 50, km: 9.1, sequence: 2)
        let pushed = Self.workout(3, .push, 0, 50, km: 9.0, sequence: 3)
        let health = Self.workout(4, .health("Connect"), 0, 50, km: 8.99, sequence: 4)
        let file = Self.workout(5, .watch, 0, 50, km: 9.008, sequence: 5)
        let archive = Self.workout(8, .strava, 0, 50, km: 9.01, sequence: 8)
        #expect(SameRunPolicy.counted([track, app, pushed, health, file, archive])?.id == 8)
        #expect(SameRunPolicy.counted([track, app, pushed, health, file])?.id == 5)
        #expect(SameRunPolicy.counted([track, app, pushed, health])?.id == 4)
        #expect(SameRunPolicy.counted([track, app, pushed])?.id == 3)
        #expect(SameRunPolicy.counted([track, app])?.id == 2)
        // One file read twice: the later reading.
        let reread = Self.workout(6, .watch, 0, 50, km: 9.2, sequence: 9)
        #expect(SameRunPolicy.counted([reread, file])?.id == 6)
        #expect(SameRunPolicy.counted([file, reread])?.id == 6)
        let fileWithoutDistance = Self.workout(7, .watch, 0, 50, km: nil, sequence: 0)
        #expect(SameRunPolicy.counted([fileWithoutDistance, track])?.id == 1)
        #expect(SameRunPolicy.counted([]) == nil)
    }
}
