import Foundation
import StrideEvents
import StrideTestSupport
import Testing

@testable import StrideLedger

/// A read whose view found the projections behind the log — another process appended without
/// folding, and the view read on rather than catch up for ever — says so, and no cache keeps
/// what it read: once caught up, every read shows the new events.
@Suite("Figures behind the log")
struct LaggingFiguresTests {
    static let now = Timestamp(millisecondsSince1970: 1_735_689_600_000)  // 2025-01-01T00:00:00Z

    /// A run recorded as another process would append it: straight into the log, folded by
    /// nothing.
    static func appendUnfolded(_ ledger: Ledger, runStarting start: String, id: UInt128) throws {
        let begin = try #require(ISO8601.parse(start))
        let workout = WorkoutRecorded(
            activityType: "HKWorkoutActivityTypeRunning", deviceClass: .watch, start: begin, end: begin.adding(milliseconds: 1_800_000),
            durationSeconds: 1_800, distanceMeters: 6_000, distanceSource: .reported, distanceAsWritten: nil, energyKilocalories: nil,
            created: nil, sourceName: "Other Watch", sourceVersion: nil, device: nil, metadata: [])
        let event = PendingEvent(
            .workoutRecorded(workout), occurredAt: begin, entity: EntityReference(.workout, id: id),
            idempotencyKey: IdempotencyKey(hashing: Array("unfolded-\(id)".utf8)))
        _ = try ledger.store.append([event], expecting: [], recordedAt: now)
    }

    @Test("the point says how far behind; the workout list, the training view and the daily records keep nothing read behind")
    func caches() throws {
        try withTemporaryDirectory { folder in
            // Reads never catch up by themselves here: the view reads what is folded.
            let ledger = try Ledger.create(at: folder + "/ledger", timeZone: "Europe/Paris", clock: FixedClock(Self.now), catchUpRounds: 0)
            let file = folder + "/run.ndjson"
            try
                #"{"activity":"HKWorkoutActivityTypeRunning","start":"2024-03-05T07:00:00Z","end":"2024-03-05T07:30:00Z","distance":5,"distanceUnit":"km","source":"Watch","id":"run-1"}"#
                .write(toFile: file, atomically: true, encoding: .utf8)
            _ = try ledger.ingest(file: file)
            let first = try ledger.read { try ledger.figuresPoint() }
            #expect(first.isCurrent)
            // Read once current, so that the caches hold the present.
            #expect(try ledger.read { try ledger.workouts(from: nil, through: nil, unassignedOnly: false).count } == 1)
            #expect(try ledger.read { try ledger.trainingView().runs.count } == 1)

            try Self.appendUnfolded(ledger, runStarting: "2024-03-07T07:00:00Z", id: 7)
            let behind = try ledger.read { try ledger.figuresPoint() }
            #expect(behind.sequence == first.sequence && behind.logEnd == first.sequence + 1 && !behind.isCurrent)
            // Read behind: the folded state, kept nowhere.
            #expect(try ledger.read { try ledger.workouts(from: nil, through: nil, unassignedOnly: false).count } == 1)
            #expect(try ledger.read { try ledger.trainingView().runs.count } == 1)
            #expect(try ledger.read { try ledger.trainingView().sequence } == first.sequence)

            try ledger.catchUp()
            let caughtUp = try ledger.read { try ledger.figuresPoint() }
            #expect(caughtUp.isCurrent && caughtUp.sequence == first.sequence + 1)
            #expect(try ledger.read { try ledger.workouts(from: nil, through: nil, unassignedOnly: false).count } == 2)
            #expect(try ledger.read { try ledger.trainingView().runs.count } == 2)
        }
    }

    @Test("a read behind the log then caught up: the lists read behind are never served once the figures move")
    func behindThenCaughtUp() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Ledger.create(at: folder + "/ledger", timeZone: "Europe/Paris", clock: FixedClock(Self.now), catchUpRounds: 0)
            // The first read of the workouts is one behind the log: under the log's last sequence
            // it would be kept, and served again once caught up.
            try Self.appendUnfolded(ledger, runStarting: "2024-03-07T07:00:00Z", id: 8)
            #expect(try ledger.read { try ledger.workouts(from: nil, through: nil, unassignedOnly: false).count } == 0)
            #expect(try ledger.read { try ledger.trainingView().runs.count } == 0)
            try ledger.catchUp()
            #expect(try ledger.read { try ledger.workouts(from: nil, through: nil, unassignedOnly: false).count } == 1)
            #expect(try ledger.read { try ledger.trainingView().runs.count } == 1)
        }
    }
}
