import ShoeMileage
import StrideEvents
import Testing

/// Which shoe a run is on from what was said of each copy, and which arriving runs the outbox
/// tells: hand-computed cases.
@Suite("A run's shoe, and news")
struct RunPlacementPolicyTests {
    static let pegasus: UInt128 = 10
    static let novablast: UInt128 = 11

    static func copy(_ id: UInt128, _ placement: Placement? = nil, isExcluded: Bool = false) -> Workout {
        var workout = Workout(
            id: id, activity: "HKWorkoutActivityTypeRunning", start: Timestamp(secondsSince1970: 1_714_550_400),
            end: Timestamp(secondsSince1970: 1_714_552_200), distanceMeters: 5000, distanceSource: .reported, distanceAsWritten: nil,
            sourceName: "test", recordedSequence: UInt64(id))
        workout.placement = placement
        workout.isExcluded = isExcluded
        return workout
    }

    static func said(_ shoe: UInt128?, _ origin: AssignmentOrigin, at sequence: UInt64) -> Placement {
        Placement(shoe: shoe, origin: origin, sequence: sequence)
    }

    @Test(
        "the runner's latest word wins, then exclusion, then an archive's word (of the preferred copy), then the auto-assignment",
        arguments: [
            ("nothing said: on no shoe", [copy(1), copy(2)], nil as UInt128?, nil as AssignmentOrigin?),
            ("auto only", [copy(1, said(pegasus, .auto, at: 5))], pegasus, .auto),
            (
                "an archive beats the auto-assignment, whichever came first",
                [copy(1, said(pegasus, .auto, at: 9)), copy(2, said(novablast, .archive, at: 5))], novablast, .archive
            ),
            (
                "the runner beats a later archive", [copy(1, said(pegasus, .manual, at: 5)), copy(2, said(novablast, .archive, at: 9))], pegasus,
                .manual
            ),
            (
                "the runner's unassign beats a later archive", [copy(1, said(nil, .manual, at: 5)), copy(2, said(novablast, .archive, at: 9))], nil,
                nil
            ),
            (
                "the runner's latest word of any copy", [copy(1, said(pegasus, .manual, at: 5)), copy(2, said(novablast, .manual, at: 7))], novablast,
                .manual
            ),
            (
                "excluded: no archive or automatic shoe",
                [copy(1, said(pegasus, .auto, at: 5), isExcluded: true), copy(2, said(novablast, .archive, at: 7))], nil, nil
            ),
            ("excluded, then put on a shoe by hand", [copy(1, said(pegasus, .manual, at: 9), isExcluded: true)], pegasus, .manual),
            (
                "two archives: the preferred copy's", [copy(1, said(pegasus, .archive, at: 9)), copy(2, said(novablast, .archive, at: 5))], pegasus,
                .archive
            ),
            (
                "an archive's 'on no shoe there' keeps the auto-assignment off",
                [copy(1, said(nil, .archive, at: 9)), copy(2, said(pegasus, .auto, at: 5))], nil, nil
            ),
        ])
    func placement(_ name: String, _ copies: [Workout], _ shoe: UInt128?, _ origin: AssignmentOrigin?) {
        let decided = RunPlacementPolicy.placement(of: copies)
        #expect(decided?.shoe == shoe, "\(name)")
        #expect(decided?.shoe == nil ? origin == nil : decided?.origin == origin, "\(name)")
    }

    @Test(
        "news: a run started within a week of being recorded, not from an account archive",
        arguments: [
            (0, WorkoutRecording.deviceFile, true), (-6 * 24, .appleHealth, true), (-7 * 24, .healthAutoExport, true),
            (-7 * 24 - 1, .deviceFile, false), (-3 * 365 * 24, .appleHealth, false), (0, .accountArchive, false), (2, .app, true),
        ])
    func news(_ hoursBefore: Int, _ recording: WorkoutRecording, _ isNews: Bool) {
        let recordedAt = Timestamp(secondsSince1970: 1_900_000_000)
        #expect(
            NewRunNotice.isNews(start: recordedAt.adding(milliseconds: Int64(hoursBefore) * 3_600_000), recordedAt: recordedAt, recording: recording)
                == isNews)
    }
}
