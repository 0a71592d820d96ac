import Foundation
import StrideTestSupport
import Testing

/// The two times of a ledger, on the story of issue 27: a shoe set as default in 2018, five
/// years of runs ingested today.
@Suite("stride mileage --as-of and --as-recorded")
struct TimeTravelCommandTests {
    let stride = builtExecutable("stride")

    /// When the shoe commands were typed, when the runs were ingested, when they were moved.
    static let setUpDay = "2025-01-10T09:00:00Z"
    static let ingestDay = "2025-01-15T09:00:00Z"
    static let laterDay = "2025-01-16T09:00:00Z"

    func run(_ ledger: String, at time: String, _ arguments: String...) throws -> ProcessResult {
        try runProcess(stride, ["--ledger", ledger] + arguments, environment: ["STRIDE_FIXED_TIME": time])
    }

    func shoes(_ ledger: String, _ arguments: String...) throws -> [[String: Any]] {
        let result = try runProcess(
            stride, ["--ledger", ledger, "mileage", "show", "--json"] + arguments, environment: ["STRIDE_FIXED_TIME": Self.laterDay])
        #expect(result.status == 0, "\(result.standardError)")
        let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        return try #require(object?["shoes"] as? [[String: Any]])
    }

    /// The story's ledger: Pegasus (default since 2018), the runs ingested today, the 2024 run
    /// then moved to a Novablast added in 2024, Pegasus retired in mid-2024.
    /// Returns the ledger's path and the last sequence before the ingest.
    func storyLedger(in folder: String) throws -> (path: String, beforeIngest: Int) {
        let ledger = folder + "/ledger"
        let file = folder + "/runs.ndjson"
        try TimeTravelStory.runs.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try run(ledger, at: Self.setUpDay, "init", "--time-zone", "UTC").status == 0)
        #expect(try run(ledger, at: Self.setUpDay, "shoes", "add", "Pegasus 40", "--at", "2018-04-01T10:00:00Z").status == 0)
        #expect(try run(ledger, at: Self.setUpDay, "shoes", "default", "Pegasus 40", "--at", "2018-04-01T10:00:00Z").status == 0)
        let stats = try runProcess(stride, ["--ledger", ledger, "stats", "--json"])
        let beforeIngest = try #require(
            (try JSONSerialization.jsonObject(with: Data(stats.standardOutput.utf8)) as? [String: Any])?["lastSequence"] as? Int)
        let ingest = try run(ledger, at: Self.ingestDay, "ingest", file)
        #expect(ingest.standardOutput.contains("5 new runs assigned to the default shoe"), "\(ingest.standardOutput)")
        #expect(try run(ledger, at: Self.laterDay, "shoes", "add", "Novablast", "--at", "2024-01-01T00:00:00Z").status == 0)
        let workouts = try runProcess(stride, ["--ledger", ledger, "workouts", "--json"])
        let list = try #require(
            (try JSONSerialization.jsonObject(with: Data(workouts.standardOutput.utf8)) as? [String: Any])?["workouts"] as? [[String: Any]])
        let last = try #require(list.last?["id"] as? String)
        #expect(try run(ledger, at: Self.laterDay, "assign", last, "Novablast", "--at", "2024-05-01T00:00:00Z").status == 0)
        #expect(try run(ledger, at: Self.laterDay, "shoes", "retire", "Pegasus 40", "--at", "2024-06-01T00:00:00Z").status == 0)
        return (ledger, beforeIngest)
    }

    @Test("--as-of counts the runs run by then on their shoe now; --as-recorded says what the ledger said; a sequence to --as-of is refused")
    func twoTimes() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let (ledger, beforeIngest) = try storyLedger(in: folder)
            let now = try shoes(ledger)
            #expect(now.map { $0["name"] as? String } == ["Novablast", "Pegasus 40"])
            #expect(now.map { $0["kilometers"] as? Double } == [21, 27.25])

            // 5 + 10 + 4.25 (under way at the instant); Novablast was added in 2024; Pegasus not yet retired.
            let asOf = try shoes(ledger, "--as-of", "2023-06-01T00:00:00Z")
            #expect(asOf.map { $0["name"] as? String } == ["Pegasus 40"])
            #expect(asOf.first?["kilometers"] as? Double == 19.25)
            #expect(asOf.first?["runs"] as? Int == 3)
            #expect(asOf.first?["isRetired"] as? Bool == false)
            #expect(asOf.first?["isDefault"] as? Bool == true)
            #expect(asOf.first?["lastRun"] as? String == "2023-05-31T23:45:00Z")
            // After the move, before the retirement: the 2024 run is Novablast's.
            let mid2024 = try shoes(ledger, "--as-of", "2024-05-15T00:00:00+02:00")
            #expect(mid2024.map { $0["kilometers"] as? Double } == [21, 27.25])
            #expect(try shoes(ledger, "--as-of", "2024-07-01T00:00:00Z").last?["isRetired"] as? Bool == true)

            // Before the ingest, the ledger had recorded the shoe and no run.
            let recorded = try shoes(ledger, "--as-recorded", "2025-01-12T00:00:00Z")
            #expect(recorded.map { $0["kilometers"] as? Double } == [0])
            #expect(recorded.first?["runs"] as? Int == 0)
            #expect(try shoes(ledger, "--as-recorded", String(beforeIngest)).first?["kilometers"] as? Double == 0)
            let table = try run(ledger, at: Self.laterDay, "mileage", "--as-recorded", "2025-01-12T00:00:00Z")
            #expect(table.standardOutput.contains("0.00"))

            let refused = try run(ledger, at: Self.laterDay, "mileage", "--as-of", "3")
            #expect(refused.status != 0)
            #expect(refused.standardError.contains("--as-recorded"))
            let both = try run(ledger, at: Self.laterDay, "mileage", "--as-of", "2023-06-01T00:00:00Z", "--as-recorded", "3")
            #expect(both.status != 0)
            let help = try run(ledger, at: Self.laterDay, "mileage", "show", "--help")
            #expect(help.standardOutput.contains("--as-of") && help.standardOutput.contains("--as-recorded"))
        }
    }

    @Test("stride report --as-of shows the rack of then; --as-recorded the ledger of then")
    func report() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let (ledger, beforeIngest) = try storyLedger(in: folder)
            #expect(try run(ledger, at: Self.laterDay, "report", folder + "/as-of.html", "--as-of", "2023-06-01T00:00:00Z").status == 0)
            let asOf = try String(contentsOfFile: folder + "/as-of.html", encoding: .utf8)
            #expect(asOf.contains("As of 2023-06-01 00:00 (UTC)"))
            #expect(asOf.contains("19.25"))
            #expect(!asOf.contains("Novablast"))
            #expect(try run(ledger, at: Self.laterDay, "report", folder + "/recorded.html", "--as-recorded", String(beforeIngest)).status == 0)
            let recorded = try String(contentsOfFile: folder + "/recorded.html", encoding: .utf8)
            #expect(recorded.contains("As the ledger stood at sequence \(beforeIngest)"))
            #expect(!recorded.contains("19.25"))
            let refused = try run(ledger, at: Self.laterDay, "report", folder + "/x.html", "--as-of", "3")
            #expect(refused.standardError.contains("--as-recorded"))
        }
    }
}
