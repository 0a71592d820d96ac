import Dispatch
import Foundation
import ShoeMileage
import StrideEvents
import StrideTestSupport
import Testing

@testable import StrideLedger

/// A decision the runner made by hand is never overturned by an import, however the two
/// interleave: twenty `exclude` and `unassign` commands released together with an archive
/// that puts the same runs on another shoe.
@Suite("The runner's decisions hold under races")
struct RunnerDecisionRaceTests {
    @Test("20 exclude and unassign commands released with an archive ingest of the same runs: every one of them stands", arguments: [1, 2, 3])
    func racingArchive(round: Int) throws {
        try withTemporaryDirectory { folder in
            let ledger = try RunOrderTests.ledger(folder + "/ledger")
            // Forty runs, on Pegasus in the first download of the archive and on Novablast in the next.
            var first = RunFiles()
            var second = RunFiles()
            for index in 0..<40 {
                let start = RunOrderTests.at("2024-03-01T06:00:00Z").adding(milliseconds: Int64(index) * 86_400_000)
                first.strava.append(.init(start: start, seconds: 1_800, kilometres: 5, gear: RunOrderTests.pegasus))
                second.strava.append(.init(start: start, seconds: 1_800, kilometres: 5, gear: RunOrderTests.novablast))
            }
            let firstPath = try first.write(in: folder + "/first")[0]
            let secondPath = try second.write(in: folder + "/second")[0]
            _ = try ledger.ingest(file: firstPath)
            let runs = try ledger.workouts(from: nil, through: nil, unassignedOnly: false).sorted { $0.start < $1.start }
            try #require(runs.count == 40)
            let excluded = runs.prefix(10).map { Ledger.workoutID($0.id) }
            let unassigned = runs.dropFirst(10).prefix(10).map { Ledger.workoutID($0.id) }
            var commands: [@Sendable () throws -> Void] = []
            for id in excluded { commands.append { try ledger.exclude(workout: id, at: nil) } }
            for id in unassigned { commands.append { try ledger.unassign(workout: id, at: nil) } }
            commands.append { _ = try ledger.ingest(file: secondPath) }
            let start = DispatchSemaphore(value: 0)
            let failures = Failures()
            let group = DispatchGroup()
            for index in commands.indices {
                // The archive now first, now in the middle, now last among the threads started.
                let position = (index + round * 7) % commands.count
                let command = commands[position]
                DispatchQueue.global().async(group: group) {
                    start.wait()
                    do { try command() } catch { failures.add("\(error)") }
                }
            }
            for _ in commands { start.signal() }
            group.wait()
            #expect(failures.all.isEmpty, "\(failures.all)")
            let now = Dictionary(uniqueKeysWithValues: try ledger.workouts(from: nil, through: nil, unassignedOnly: false).map { ($0.id, $0) })
            for run in runs.prefix(20) {
                #expect(now[run.id]?.shoe == nil, "round \(round): \(Ledger.workoutID(run.id)) is on a shoe the runner took it off")
            }
            let novablast = try #require(try ledger.shoes().first { $0.shoe.name == "Novablast" })
            #expect(novablast.shoe.runs == 20, "round \(round)")
            #expect(try ledger.shoes().first { $0.shoe.name == "Pegasus 40" }?.shoe.runs == 0, "round \(round)")
            #expect(try ledger.verifyProjections().allSatisfy(\.matches))
            // The same archive again, after the race: still nothing overturned.
            _ = try ledger.ingest(file: secondPath)
            #expect(
                try ledger.workouts(from: nil, through: nil, unassignedOnly: false).filter { runs.prefix(20).map(\.id).contains($0.id) }.allSatisfy {
                    $0.shoe == nil
                })
        }
    }
}

/// Errors gathered from several threads.
private final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func add(_ failure: String) { lock.withLock { list.append(failure) } }
    var all: [String] { lock.withLock { list } }
}
