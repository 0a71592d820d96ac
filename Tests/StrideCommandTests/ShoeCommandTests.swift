import Foundation
import StrideTestSupport
import Testing

/// The rack and the mileage audit as a runner uses them.
@Suite("stride shoes, workouts, assign, mileage and notifications")
struct ShoeCommandTests {
    let stride = builtExecutable("stride")

    func run(_ ledger: String, _ arguments: String...) throws -> ProcessResult {
        try runProcess(stride, ["--ledger", ledger] + arguments)
    }

    func json(_ ledger: String, _ arguments: String...) throws -> [String: Any] {
        let result = try runProcess(stride, ["--ledger", ledger] + arguments + ["--json"])
        return (try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]) ?? [:]
    }

    func lastSequence(_ ledger: String) throws -> Int { try json(ledger, "stats")["lastSequence"] as? Int ?? -1 }

    /// Two runs a year apart and a ride, as NDJSON.
    func history(in folder: String) throws -> String {
        let lines = [
            #"{"activity":"HKWorkoutActivityTypeRunning","start":"2023-05-01T07:00:00+02:00","end":"2023-05-01T07:30:00+02:00","distance":5.02,"distanceUnit":"km","id":"old-run"}"#,
            #"{"activity":"HKWorkoutActivityTypeCycling","start":"2024-05-01T18:00:00+02:00","end":"2024-05-01T19:00:00+02:00","distance":20,"distanceUnit":"km","id":"ride"}"#,
        ]
        let file = folder + "/history.ndjson"
        try lines.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test("a year of history stays unassigned; a default shoe takes the new runs; the audit explains every kilometre")
    func runnerStory() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let ledger = folder + "/ledger"
            _ = try run(ledger, "init", "--time-zone", "Europe/Paris")
            #expect(try run(ledger, "ingest", try history(in: folder)).status == 0)
            #expect(
                try run(
                    ledger, "shoes", "add", "Pegasus 40", "--brand", "Nike", "--start-km", "10", "--goal-km", "20", "--at",
                    "2024-05-02T00:00:00+02:00"
                ).status == 0)
            #expect(try run(ledger, "shoes", "default", "PEGASUS 40", "--at", "2024-05-02T00:00:00+02:00").status == 0)
            let newRun = folder + "/new.ndjson"
            try
                #"{"activity":"HKWorkoutActivityTypeRunning","start":"2024-05-03T07:00:00+02:00","end":"2024-05-03T07:40:00+02:00","distance":10.5,"distanceUnit":"km","id":"new-run"}"#
                .write(toFile: newRun, atomically: true, encoding: .utf8)
            let ingest = try run(ledger, "ingest", newRun)
            #expect(ingest.standardOutput.contains("1 new run assigned to the default shoe"))
            let shoes = try #require(try json(ledger, "shoes", "list")["shoes"] as? [[String: Any]])
            #expect(shoes.first?["kilometers"] as? Double == 20.5)
            #expect(shoes.first?["runs"] as? Int == 1)
            #expect(shoes.first?["isDefault"] as? Bool == true)
            let unassigned = try #require(try json(ledger, "workouts", "--unassigned")["workouts"] as? [[String: Any]])
            #expect(unassigned.count == 2)
            let explain = try json(ledger, "mileage", "explain", "pegasus 40")
            let entries = try #require(explain["entries"] as? [[String: Any]])
            #expect(entries.map { $0["kind"] as? String ?? "" } == ["registered", "assigned (auto)"])
            #expect(entries.last?["runningTotal"] as? Double == explain["kilometers"] as? Double)
            let notes = try #require(try json(ledger, "notifications")["notifications"] as? [[String: Any]])
            // Runs of 2024 ingested now are history: the outbox tells only the goal reached.
            #expect(notes.map { $0["text"] as? String ?? "" } == ["Pegasus 40 reached its 20.00 km goal (20.50 km): time for a new pair"])
            let asOf = try #require(try json(ledger, "mileage", "--as-of", "2024-05-02T12:00:00+02:00")["shoes"] as? [[String: Any]])
            #expect(asOf.first?["kilometers"] as? Double == 10)
        }
    }

    @Test(
        "refused commands say why and append nothing",
        arguments: [
            (["assign", "00", "Pegasus 40"], "no workout"),
            (["assign", "@RUN", "Novablast"], "no shoe"),
            (["assign", "@RIDE", "Pegasus 40"], "not a run"),
            (["assign", "@RUN", "Retired One"], "retired"),
            (["shoes", "add", "pegasus 40"], "already on the rack"),
            (["unassign", "@RUN"], "on no shoe"),
            (["shoes", "default", "Retired One"], "retired"),
            (["assign", "", "Pegasus 40"], "no workout"),
        ])
    func refusals(arguments: [String], expected: String) throws {
        try withTemporaryDirectory { (folder: String) throws in
            let ledger = folder + "/ledger"
            _ = try run(ledger, "init", "--time-zone", "UTC")
            _ = try run(ledger, "ingest", try history(in: folder))
            _ = try run(ledger, "shoes", "add", "Pegasus 40")
            _ = try run(ledger, "shoes", "add", "Retired One")
            _ = try run(ledger, "shoes", "retire", "retired one")
            let workouts = try #require(try json(ledger, "workouts")["workouts"] as? [[String: Any]])
            let runID = try #require(workouts.first { ($0["activity"] as? String)?.hasSuffix("Running") == true }?["id"] as? String)
            let rideID = try #require(workouts.first { ($0["activity"] as? String)?.hasSuffix("Cycling") == true }?["id"] as? String)
            let before = try lastSequence(ledger)
            let resolved = arguments.map { $0 == "@RUN" ? runID : ($0 == "@RIDE" ? rideID : $0) }
            let result = try runProcess(stride, ["--ledger", ledger] + resolved)
            #expect(result.status == 1)
            #expect(result.standardError.contains(expected), "\(result.standardError)")
            #expect(try lastSequence(ledger) == before)
        }
    }

    @Test("a workout id may be shortened to a unique prefix; an ambiguous one is refused with the candidates")
    func prefixes() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let ledger = folder + "/ledger"
            _ = try run(ledger, "init", "--time-zone", "UTC")
            let lines = (1...40).map {
                #"{"activity":"HKWorkoutActivityTypeRunning","start":"2024-05-\#(String(format: "%02d", $0 % 28 + 1))T07:00:00Z","end":"2024-05-\#(String(format: "%02d", $0 % 28 + 1))T07:30:00Z","distance":5,"id":"r\#($0)"}"#
            }
            try lines.joined(separator: "\n").write(toFile: folder + "/runs.ndjson", atomically: true, encoding: .utf8)
            _ = try run(ledger, "ingest", folder + "/runs.ndjson")
            _ = try run(ledger, "shoes", "add", "Novablast")
            let ids = try #require(try json(ledger, "workouts")["workouts"] as? [[String: Any]]).compactMap { $0["id"] as? String }
            let unique = try #require(ids.first { id in ids.filter { $0.hasPrefix(String(id.prefix(6))) }.count == 1 })
            #expect(try run(ledger, "assign", String(unique.prefix(6)), "novablast").status == 0)
            let shared = try #require(ids.map { String($0.prefix(1)) }.first { first in ids.filter { $0.hasPrefix(first) }.count > 1 })
            let ambiguous = try run(ledger, "assign", shared, "novablast")
            #expect(ambiguous.status == 1)
            #expect(ambiguous.standardError.contains("matches"))
        }
    }
}
