import DailyHealth
import Foundation
import StrideEvents
import StrideIngest
import StrideProjection
import StrideStore
import StrideTestSupport
import Testing

@testable import StrideLedger

/// A clock that moves a minute on at every reading, with a step back on demand: recording
/// times that rise, and one that does not (two processes racing, a clock set back).
final class TickingClock: LedgerClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Int64

    init(_ start: Timestamp) { current = start.millisecondsSince1970 }

    func now() -> Timestamp {
        lock.withLock {
            current += 60_000
            return Timestamp(millisecondsSince1970: current)
        }
    }

    func setBack(minutes: Int64) { lock.withLock { current -= minutes * 60_000 } }
}

/// The past as recorded, in milliseconds: the daily rows taken back from today's, the small
/// projections from their snapshots, always the answers of a replay of the log from 1.
@Suite("The past as recorded, from snapshots and superseded facts")
struct PastAsRecordedTests {
    static let start = ISO8601.parse("2024-05-20T08:00:00+02:00") ?? Timestamp(millisecondsSince1970: 0)

    /// A ledger with a history of every kind: samples from files, synced samples re-sent with
    /// new versions, withdrawals and restores, shoes registered, renamed and retired, runs,
    /// points earned and spent, tokens given and revoked. Snapshots every `interval` events.
    static func historyLedger(
        in folder: String, snapshots: SnapshotPolicy = SnapshotPolicy(interval: 7, rowsPerEvent: 1_000), rounds: Int = 60, seed: UInt64 = 27
    ) throws -> (Ledger, TickingClock) {
        let clock = TickingClock(start)
        let ledger = try Ledger.create(at: folder + "/ledger", timeZone: "Europe/Paris", clock: clock, snapshots: snapshots)
        var random = SeededGenerator(state: seed)
        var shoes: [String] = []
        var tokens: [String] = []
        for round in 0..<rounds {
            let day = Int.random(in: 1...12, using: &random)
            let date = String(format: "2024-05-%02d", day)
            switch Int.random(in: 0..<9, using: &random) {
            case 0, 1:
                var lines: [String] = []
                for index in 0..<Int.random(in: 1...4, using: &random) {
                    let hour = String(format: "%02d", Int.random(in: 0...22, using: &random))
                    let value = Int.random(in: 10...9000, using: &random)
                    let device = ["watch", "phone", "other"][Int.random(in: 0...2, using: &random)]
                    let type = [
                        "HKQuantityTypeIdentifierStepCount", "HKQuantityTypeIdentifierHeartRate", "HKQuantityTypeIdentifierDistanceWalkingRunning",
                    ][index % 3]
                    let unit = ["count", "count/min", "m"][index % 3]
                    lines.append(
                        #"{"type":"\#(type)","start":"\#(date)T\#(hour):\#(String(format: "%02d", round % 60)):00+02:00","end":"\#(date)T\#(hour):59:00+02:00","value":\#(value),"unit":"\#(unit)","source":"Gen \#(device)","device":"\#(device)"}"#
                    )
                }
                if Bool.random(using: &random) {
                    lines.append(
                        #"{"activity":"HKWorkoutActivityTypeRunning","start":"\#(date)T06:\#(String(format: "%02d", round % 60)):00+02:00","end":"\#(date)T06:59:00+02:00","distance":\#(Int.random(in: 3...20, using: &random)),"distanceUnit":"km","source":"Gen watch","device":"watch","id":"run-\#(round)"}"#
                    )
                }
                let file = folder + "/round-\(round).ndjson"
                try lines.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
                _ = try ledger.ingest(file: file)
            case 2, 3:
                // The same hour buckets pushed again with grown values: synced versions replaced.
                let hours = (7...9).filter { _ in Bool.random(using: &random) }
                let steps = hours.map { hour in
                    #"{"date": "\#(date) \#(String(format: "%02d", hour)):00:00 +0200", "qty": \#(Int.random(in: 100...3000, using: &random)), "source": "Marie’s Apple Watch"}"#
                }
                let file = folder + "/push-\(round).json"
                try #"{"data": {"metrics": [{"name": "step_count", "units": "count", "data": [\#(steps.joined(separator: ", "))]}]}}"#.write(
                    toFile: file, atomically: true, encoding: .utf8)
                _ = try ledger.ingest(
                    file: file,
                    options: IngestOptions(
                        healthAutoExport: HealthAutoExportContext(aggregationHeader: "Hours", receivedAt: clock.now()),
                        expectedFormat: .healthAutoExport))
            case 4:
                let samples = try ledger.events(from: 1, limit: 10_000, type: .sampleRecorded)
                let withdrawn = Set(try ledger.withdrawnSamples().map(\.id))
                let candidates = samples.map(\.entity.shortID).filter { !withdrawn.contains($0) }
                if let id = candidates.randomElement(using: &random) { _ = try? ledger.withdrawSamples([id], reason: "not mine", at: nil) }
            case 5:
                if let id = try ledger.withdrawnSamples().map(\.id).randomElement(using: &random) { _ = try? ledger.restoreSamples([id], at: nil) }
            case 6:
                switch Int.random(in: 0..<4, using: &random) {
                case 0:
                    let name = "Shoe \(round)"
                    try ledger.registerShoe(
                        name: name, brand: nil, startKilometers: 0, goalKilometers: 500, makeDefault: Bool.random(using: &random), at: nil)
                    shoes.append(name)
                case 1:
                    if let index = shoes.indices.randomElement(using: &random) {
                        let name = "Renamed \(round)"
                        try ledger.renameShoe(shoes[index], to: name, at: nil)
                        shoes[index] = name
                    }
                case 2:
                    if let name = shoes.randomElement(using: &random) { try? ledger.setRetired(name, Bool.random(using: &random), at: nil) }
                default:
                    let runs = try ledger.workouts(from: nil, through: nil, unassignedOnly: false)
                    if let run = runs.randomElement(using: &random), let name = shoes.randomElement(using: &random) {
                        try? ledger.assign(workout: Ledger.workoutID(run.id), to: name, at: nil)
                    }
                }
            case 7:
                _ = try ledger.checkIn(at: nil)
                _ = try ledger.addJournalEntry("round \(round)", at: nil)
                let balance = try ledger.account().balance
                if balance > 0 { _ = try ledger.spend(Int.random(in: 1...balance, using: &random), reason: "treat \(round)", at: nil) }
            default:
                if let name = tokens.randomElement(using: &random), Bool.random(using: &random) {
                    try ledger.revokeToken(name: name, at: nil)
                    tokens.removeAll { $0 == name }
                } else {
                    let name = "device-\(round)"
                    _ = try ledger.addToken(name: name, at: nil)
                    tokens.append(name)
                }
            }
        }
        return (ledger, clock)
    }

    /// The fast past at `sequence` equals a replay from 1, row for row, in every projection,
    /// and reads the same through the pages' queries.
    static func expectSameAsReplay(_ ledger: Ledger, at sequence: UInt64, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let fast = try ledger.rowsAsRecorded(through: sequence)
        let full = try ledger.fullReplay(through: sequence)
        #expect(Set(fast.keys) == Set(full.keys), sourceLocation: sourceLocation)
        for (name, rows) in full {
            let fastRows = fast[name] ?? []
            let same = fastRows.count == rows.count && zip(fastRows, rows).allSatisfy { $0.key == $1.key && $0.row == $1.row }
            #expect(same, "\(name) at \(sequence): \(fastRows.count) rows, a replay \(rows.count)", sourceLocation: sourceLocation)
        }
        let past = try ledger.replayedState(through: sequence)
        let runs = try ledger.store.replay([ledger.dailyHealth, ledger.mileage, ledger.points], through: sequence)
        let (days, shoes, statement) = (
            try runs.state(of: ledger.dailyHealth).records(), try runs.state(of: ledger.mileage).shoes(),
            try runs.state(of: ledger.points).statement()
        )
        #expect(try past.days() == days, "days at \(sequence)", sourceLocation: sourceLocation)
        #expect(try past.shoes() == shoes, "shoes at \(sequence)", sourceLocation: sourceLocation)
        #expect(try past.statement() == statement, "points at \(sequence)", sourceLocation: sourceLocation)
        for day in [1, 4, 9, 12, 30] {
            let through = CivilDate(year: 2024, month: 5, day: day)
            let replayed = try runs.state(of: ledger.dailyHealth).lastDayWithRecord(through: through)
            #expect(
                try past.lastDayWithRecord(through: through) == replayed,
                "last day through \(through) at \(sequence)", sourceLocation: sourceLocation)
        }
    }

    @Test("at seeded points of a varied history, the fast past equals a replay from 1 in every projection")
    func randomPoints() throws {
        try withTemporaryDirectory { folder in
            let (ledger, _) = try Self.historyLedger(in: folder)
            let last = try ledger.store.lastSequence()
            // The history holds what the fast past must take back.
            let superseded = try ledger.state(of: ledger.dailyHealth).allRows().filter {
                if case .superseded = $0.key { true } else { false }
            }
            #expect(superseded.count > 5, "removals and re-markings kept: \(superseded.count)")
            #expect(try ledger.store.snapshotSequences(of: ledger.projections)["mileage"]?.count == Int(last / 7))
            var random = SeededGenerator(state: 4)
            var points: Set<UInt64> = [0, 1, last]
            for _ in 0..<25 { points.insert(UInt64.random(in: 1...last, using: &random)) }
            for point in points.sorted() { try Self.expectSameAsReplay(ledger, at: point) }
        }
    }

    @Test("at a snapshot's sequence, one before and one after", arguments: [7, 14, 35] as [UInt64])
    func cadenceBoundaries(snapshot: UInt64) throws {
        try withTemporaryDirectory { folder in
            let (ledger, _) = try Self.historyLedger(in: folder, rounds: 30)
            #expect(try ledger.store.lastSequence() > snapshot + 1)
            for point in [snapshot - 1, snapshot, snapshot + 1] { try Self.expectSameAsReplay(ledger, at: point) }
        }
    }

    @Test("snapshots stay within their share of the log's events; the past beyond is folded from further back, the same")
    func diskBound() throws {
        try withTemporaryDirectory { folder in
            let (ledger, _) = try Self.historyLedger(in: folder, snapshots: SnapshotPolicy(interval: 7, rowsPerEvent: 0.5))
            let last = try ledger.store.lastSequence()
            let entries = try ledger.store.snapshotsSize().entries
            #expect(entries > 0)
            #expect(Double(entries) <= Double(last) * 0.5)
            let taken = try ledger.store.snapshotSequences(of: ledger.projections).values.map(\.count).reduce(0, +)
            #expect(taken < 4 * Int(last / 7), "some snapshots left out: \(taken)")
            var random = SeededGenerator(state: 9)
            for _ in 0..<8 { try Self.expectSameAsReplay(ledger, at: UInt64.random(in: 1...last, using: &random)) }
        }
    }

    @Test("verify finds a corrupted snapshot row; rebuild takes the snapshots again")
    func verifyAndRebuild() throws {
        try withTemporaryDirectory { folder in
            let (ledger, _) = try Self.historyLedger(in: folder, rounds: 40)
            let checks = try ledger.verifyProjections()
            #expect(checks.allSatisfy { $0.matches })
            let taken = try ledger.store.snapshotSequences(of: ledger.projections)
            #expect(checks.first { $0.name == "points" }?.snapshotsChecked == taken["points"]?.count)
            let sequence = try #require(taken["points"]?.dropFirst(2).first)
            let rows = try #require(try ledger.store.snapshotRows(of: ledger.points, at: sequence))
            let row = try #require(rows.last)
            try ledger.store.overwriteSnapshotRow(of: "points", at: sequence, key: row.key, with: row.row + [0])
            let damaged = try ledger.verifyProjections()
            let points = try #require(damaged.first { $0.name == "points" })
            #expect(!points.matches)
            #expect(points.snapshotsMismatched == [sequence])
            #expect(damaged.filter { $0.name != "points" }.allSatisfy { $0.matches })

            _ = try ledger.rebuild(["points"])
            let repaired = try ledger.verifyProjections()
            #expect(repaired.allSatisfy { $0.matches })
            #expect(try ledger.store.snapshotRows(of: ledger.points, at: sequence)?.last?.row == row.row)
            #expect(try ledger.store.snapshotSequences(of: ledger.projections) == taken)
        }
    }

    @Test("a ledger without snapshots (an earlier Stride's) answers the same from a replay, and gets them on its rebuild")
    func withoutSnapshots() throws {
        try withTemporaryDirectory { folder in
            let (ledger, _) = try Self.historyLedger(in: folder, rounds: 30)
            let last = try ledger.store.lastSequence()
            try ledger.store.dropAllSnapshots()
            #expect(try ledger.store.snapshotSequences(of: ledger.projections).values.allSatisfy(\.isEmpty))
            try Self.expectSameAsReplay(ledger, at: last / 2)
            _ = try ledger.rebuild()
            #expect(try ledger.store.snapshotSequences(of: ledger.projections)["sampleCounts"]?.count == Int(last / 7))
            try Self.expectSameAsReplay(ledger, at: last / 2)
        }
    }

    @Test("an instant of recording becomes a sequence by a seek, as a walk from the first event finds it, clock set back or not")
    func sequenceRecordedBy() throws {
        try withTemporaryDirectory { folder in
            let (ledger, clock) = try Self.historyLedger(in: folder, rounds: 20)
            clock.setBack(minutes: 90)
            _ = try ledger.checkIn(at: nil)
            _ = try ledger.addJournalEntry("after the clock went back", at: nil)
            _ = try ledger.addToken(name: "late", at: nil)
            func walked(_ instant: Timestamp) throws -> UInt64 {
                var last: UInt64 = 0
                try ledger.store.scan { event in
                    guard event.recordedAt <= instant else { return false }
                    last = event.sequence
                    return true
                }
                return last
            }
            var instants: Set<Int64> = [0, .max, .min]
            try ledger.store.scan { event in
                for delta: Int64 in [-1, 0, 1] { instants.insert(event.recordedAt.millisecondsSince1970 + delta) }
                return true
            }
            for milliseconds in instants.sorted() {
                let instant = Timestamp(millisecondsSince1970: milliseconds)
                let expected = try walked(instant)
                #expect(try ledger.sequence(recordedBy: instant) == expected, "\(instant)")
            }
            // A ledger whose index was never made (an earlier Stride's) walks, and is indexed by a rebuild.
            try ledger.store.dropRecordingTimes()
            let middle = Timestamp(millisecondsSince1970: Self.start.millisecondsSince1970 + 20 * 60_000)
            let expectedMiddle = try walked(middle)
            #expect(try ledger.sequence(recordedBy: middle) == expectedMiddle)
            _ = try ledger.rebuild()
            for milliseconds in instants.sorted() {
                let instant = Timestamp(millisecondsSince1970: milliseconds)
                let expected = try walked(instant)
                #expect(try ledger.sequence(recordedBy: instant) == expected, "\(instant), indexed again")
            }
        }
    }

    @Test("snapshots follow the runs' streams: one every third stream, so that a point folds at most two from its snapshot; the same as a replay")
    func streamSnapshots() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Ledger.create(
                at: folder + "/ledger", timeZone: "Europe/Paris", clock: FixedClock(TrainingLedgerTests.now),
                snapshots: SnapshotPolicy(interval: 1_000_000, streamInterval: 3, rowsPerEvent: 1_000))
            try ledger.setAthlete(maximumHeartRate: 190, restingHeartRate: 50, from: nil)
            for day in 1...10 {
                let file = folder + "/run-\(day).tcx"
                let start = String(format: "2024-03-%02dT07:00:00Z", day)
                try TrainingLedgerTests.tcx(start: start, seconds: 300, speed: 3, heartRate: 140).write(
                    toFile: file, atomically: true, encoding: .utf8)
                _ = try ledger.ingest(file: file)
            }
            let streams = try ledger.store.events(ofType: .workoutStreamRecorded, from: 1, limit: 100).map(\.sequence)
            #expect(streams.count == 10)
            let taken = try ledger.store.snapshotSequences(of: ledger.projections)
            for name in ["training", "mileage", "points"] {
                #expect(taken[name] == [streams[2], streams[5], streams[8]], "\(name)")
            }
            let last = try ledger.store.lastSequence()
            for point in 1...last { try Self.expectSameAsReplay(ledger, at: point) }
            // A rebuild takes them at the same points.
            _ = try ledger.rebuild()
            #expect(try ledger.store.snapshotSequences(of: ledger.projections) == taken)
            #expect(try ledger.verifyProjections().allSatisfy(\.matches))
        }
    }
}
