import ShoeMileage
import StrideEvents
import Testing

/// The same-run rule and which copy counts, with hand-computed cases, edges first.
@Suite("The same-run rule")
struct SameRunPolicyTests {
    static let base = Timestamp(secondsSince1970: 1_714_550_400)  // 2024-05-01 08:00 UTC

    static func at(_ minutes: Int) -> Timestamp { base.adding(milliseconds: Int64(minutes) * 60_000) }

    static func workout(
        _ id: UInt128, _ activity: String = "HKWorkoutActivityTypeRunning", from start: Int, to end: Int, meters: Double? = 5000,
        recording: WorkoutRecording = .app, sequence: UInt64 = 1
    ) -> Workout {
        var workout = Workout(
            id: id, activity: activity, start: at(start), end: at(end), distanceMeters: meters, distanceSource: .reported,
            distanceAsWritten: nil, sourceName: "test", recordedSequence: sequence)
        workout.recording = recording
        return workout
    }

    @Test(
        "overlap is the share of the shorter workout's time both cover",
        arguments: [
            // (first start, end, second start, end, share)
            (0, 30, 0, 30, 1.0),  // the same span
            (0, 30, 30, 60, 0.0),  // back to back: touching is not sharing
            (0, 30, 40, 60, 0.0),  // apart
            (0, 60, 10, 20, 1.0),  // one inside the other: all of the shorter
            (0, 30, 2, 32, 28.0 / 30),  // a device started two minutes late
            (0, 30, 15, 45, 0.5),  // half
            (0, 0, 0, 30, 0.0),  // no length: never matched
        ])
    func overlap(_ a0: Int, _ a1: Int, _ b0: Int, _ b1: Int, _ share: Double) {
        let computed = SameRunPolicy.overlap(Self.at(a0)..<Self.at(a1), Self.at(b0)..<Self.at(b1))
        #expect(abs(computed - share) < 1e-9)
    }

    @Test("the rule: same kind and at least 60 % of the shorter's time; a run never matches a walk, and a workout never itself")
    func rule() {
        let run = Self.workout(1, from: 0, to: 50)
        #expect(SameRunPolicy.sameRun(run, Self.workout(2, from: 1, to: 49)) != nil)
        #expect(SameRunPolicy.sameRun(run, Self.workout(2, from: 20, to: 50)) != nil)  // 30 of 30 min
        #expect(SameRunPolicy.sameRun(run, Self.workout(2, from: 30, to: 80)) == nil)  // 20 of 50 min: 40 %
        #expect(SameRunPolicy.sameRun(run, Self.workout(2, from: 20, to: 70)) != nil)  // 30 of 50 min: exactly 60 % matches
        #expect(SameRunPolicy.sameRun(run, Self.workout(2, from: 21, to: 71)) == nil)  // 29 of 50 min: 58 %
        #expect(SameRunPolicy.sameRun(run, Self.workout(2, "HKWorkoutActivityTypeWalking", from: 0, to: 50)) == nil)
        #expect(SameRunPolicy.sameRun(run, Self.workout(1, from: 0, to: 50)) == nil)
        let ride = Self.workout(3, "HKWorkoutActivityTypeCycling", from: 0, to: 50)
        #expect(SameRunPolicy.sameRun(ride, Self.workout(4, "HKWorkoutActivityTypeHandCycling", from: 0, to: 50)) != nil)
        #expect(
            SameRunPolicy.sameRun(
                Self.workout(5, "HKWorkoutActivityTypeWalking", from: 0, to: 50), Self.workout(6, "HKWorkoutActivityTypeHiking", from: 5, to: 50))
                != nil)
    }

    @Test(
        "the counted copy: a device's file, then Apple Health, Health Auto Export, an app, a GPX track; then the first recorded; one with a distance before one without"
    )
    func counted() {
        let track = Self.workout(1, from: 0, to: 50, meters: 8800, recording: .gpxTrack, sequence: 1)
        let app = Self.workout(2, from: 0, to: 50, meters: 9100, recording: .app, sequence: 2)
        let pushed = Self.workout(3, from: 0, to: 50, meters: 9000, recording: .healthAutoExport, sequence: 3)
        let health = Self.workout(4, from: 0, to: 50, meters: 8990, recording: .appleHealth, sequence: 4)
        let file = Self.workout(5, from: 0, to: 50, meters: 9008, recording: .deviceFile, sequence: 5)
        #expect(SameRunPolicy.counted([track, app, pushed, health, file])?.id == 5)
        #expect(SameRunPolicy.counted([track, app, pushed, health])?.id == 4)
        #expect(SameRunPolicy.counted([track, app, pushed])?.id == 3)
        #expect(SameRunPolicy.counted([track, app])?.id == 2)
        let secondFile = Self.workout(6, from: 0, to: 50, meters: 9010, recording: .deviceFile, sequence: 6)
        #expect(SameRunPolicy.counted([secondFile, file])?.id == 5)
        let fileWithoutDistance = Self.workout(7, from: 0, to: 50, meters: nil, recording: .deviceFile, sequence: 0)
        #expect(SameRunPolicy.counted([fileWithoutDistance, track])?.id == 1)
        #expect(SameRunPolicy.counted([]) == nil)
    }
}
