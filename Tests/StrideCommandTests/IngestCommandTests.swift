import Foundation
import StrideTestSupport
import Testing

/// `stride ingest` as a user runs it, including a kill in the middle.
@Suite("stride ingest")
struct IngestCommandTests {
    let stride = builtExecutable("stride")
    let sample = builtExecutable("stride-sample")

    func statsByType(_ ledger: String) throws -> [String: Int] {
        let stats = try runProcess(stride, ["--ledger", ledger, "stats", "--json"])
        let document = try JSONSerialization.jsonObject(with: Data(stats.standardOutput.utf8)) as? [String: Any]
        return (document?["byType"] as? [String: Int]) ?? [:]
    }

    @Test("a generated export ingests once; again, it adds nothing; the summary says so and stderr stays quiet")
    func ingestTwice() throws {
        try withTemporaryDirectory { (folder: String) throws in
            #expect(try runProcess(stride, ["--ledger", folder + "/ledger", "init", "--time-zone", "UTC"]).status == 0)
            let export = folder + "/export.zip"
            #expect(try runProcess(sample, [export, "--days", "5"]).status == 0)
            let first = try runProcess(stride, ["--ledger", folder + "/ledger", "ingest", export])
            #expect(first.status == 0)
            #expect(first.standardError.isEmpty)
            // The generator repeats about one record in 2,000: those are skipped even the first
            // time, and said to be the export's own repeats, not something the ledger held.
            #expect(first.standardOutput.contains(": 0 already in the ledger (from earlier exports)"))
            #expect(first.standardOutput.contains("written twice in the export, counted once"))
            #expect(first.standardOutput.contains("0 no longer in this export"))
            #expect(first.standardOutput.contains("HKQuantityTypeIdentifierHeartRate"))
            let second = try runProcess(stride, ["--ledger", folder + "/ledger", "ingest", "--json", export])
            let document = try #require(try JSONSerialization.jsonObject(with: Data(second.standardOutput.utf8)) as? [String: Any])
            #expect(document["newEvents"] as? Int == 0)
            #expect((document["duplicates"] as? Int ?? 0) > 1000)
            // Again, every record is one the ledger holds: none is the file's own repeat.
            let file = try #require((document["files"] as? [[String: Any]])?.first)
            #expect(file["repeatedInFile"] == nil)
            #expect(try runProcess(stride, ["--ledger", folder + "/ledger", "verify"]).status == 0)
        }
    }

    @Test("a missing file fails with its name on stderr; an NDJSON file with bad lines exits 1 after ingesting the rest")
    func errors() throws {
        try withTemporaryDirectory { (folder: String) throws in
            #expect(try runProcess(stride, ["--ledger", folder + "/ledger", "init", "--time-zone", "UTC"]).status == 0)
            let missing = try runProcess(stride, ["--ledger", folder + "/ledger", "ingest", folder + "/nope.xml"])
            #expect(missing.status == 1)
            #expect(missing.standardError.contains("nope.xml"))
            let ndjson = folder + "/s.ndjson"
            try
                "{\"type\":\"HKQuantityTypeIdentifierStepCount\",\"start\":\"2024-05-01T08:00:00Z\",\"end\":\"2024-05-01T08:10:00Z\",\"value\":5}\n{oops\n"
                .write(toFile: ndjson, atomically: true, encoding: .utf8)
            let result = try runProcess(stride, ["--ledger", folder + "/ledger", "ingest", ndjson])
            #expect(result.status == 1)
            #expect(result.standardOutput.contains("line 2"))
            #expect(try statsByType(folder + "/ledger")["sample.recorded"] == 1)
        }
    }

    @Test("a Health Auto Export document: read with the grouping given, again it adds nothing; an unknown grouping is refused")
    func healthAutoExport() throws {
        try withTemporaryDirectory { (folder: String) throws in
            #expect(try runProcess(stride, ["--ledger", folder + "/ledger", "init", "--time-zone", "UTC"]).status == 0)
            let push = folder + "/push.json"
            try
                #"{"data": {"metrics": [{"name": "step_count", "units": "count", "data": [{"date": "2024-05-01 08:00:00 +0200", "qty": 1200, "source": "Watch"}]}]}}"#
                .write(toFile: push, atomically: true, encoding: .utf8)
            let first = try runProcess(stride, ["--ledger", folder + "/ledger", "ingest", "--json", "--grouping", "Hours", push])
            #expect(first.status == 0)
            let document = try #require(try JSONSerialization.jsonObject(with: Data(first.standardOutput.utf8)) as? [String: Any])
            let file = try #require((document["files"] as? [[String: Any]])?.first)
            #expect(file["format"] as? String == "Health Auto Export (JSON)")
            #expect(document["newEvents"] as? Int == 1)
            let again = try runProcess(stride, ["--ledger", folder + "/ledger", "ingest", "--grouping", "hours", push])
            #expect(again.standardOutput.contains("0 new events, 1 duplicate skipped"))
            let refused = try runProcess(stride, ["--ledger", folder + "/ledger", "ingest", "--grouping", "fortnights", push])
            #expect(refused.status == 64)
            #expect(refused.standardError.contains("--grouping \"fortnights\" is not one of seconds, minutes"))
        }
    }

    @Test(
        "killed at random moments, an ingest leaves a ledger verify accepts, and a re-run ends where an uninterrupted run does",
        arguments: [0.15, 0.4, 0.8])
    func killed(after delay: Double) throws {
        try withTemporaryDirectory { (folder: String) throws in
            let export = folder + "/export.xml"
            #expect(try runProcess(sample, [export, "--days", "40"]).status == 0)
            let clean = folder + "/clean"
            #expect(try runProcess(stride, ["--ledger", clean, "init", "--time-zone", "UTC"]).status == 0)
            #expect(try runProcess(stride, ["--ledger", clean, "ingest", "--batch-size", "500", export]).status == 0)
            let ledger = folder + "/killed"
            #expect(try runProcess(stride, ["--ledger", ledger, "init", "--time-zone", "UTC"]).status == 0)
            try killed(["--ledger", ledger, "ingest", "--quiet", "--batch-size", "500", export], after: delay)
            if FileManager.default.fileExists(atPath: ledger + "/data.mdb") {
                let verify = try runProcess(stride, ["--ledger", ledger, "verify"])
                #expect(verify.status == 0 || verify.standardError.contains("no ledger"), "\(verify.standardError)")
            }
            #expect(try runProcess(stride, ["--ledger", ledger, "ingest", "--quiet", export]).status == 0)
            #expect(try runProcess(stride, ["--ledger", ledger, "verify"]).status == 0)
            #expect(try statsByType(ledger) == statsByType(clean))
        }
    }

    /// Runs `stride` with `arguments` and kills it with SIGKILL after `delay` seconds.
    func killed(_ arguments: [String], after delay: Double) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: stride)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: delay)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    func shoesByName(_ ledger: String) throws -> [String: Double] {
        let shoes = try runProcess(stride, ["--ledger", ledger, "shoes", "--json"])
        let document = try JSONSerialization.jsonObject(with: Data(shoes.standardOutput.utf8)) as? [String: Any]
        var kilometres: [String: Double] = [:]
        for shoe in (document?["shoes"] as? [[String: Any]]) ?? [] {
            if let name = shoe["name"] as? String { kilometres[name] = shoe["kilometers"] as? Double }
        }
        return kilometres
    }

    @Test(
        "killed at random moments, an archive's ingest leaves a ledger verify accepts, and a re-run ends with the same rack and events",
        arguments: [("strava", 0.2), ("strava", 0.6), ("garmin", 0.3), ("garmin", 0.9)])
    func killedArchive(service: String, after delay: Double) throws {
        try withTemporaryDirectory { (folder: String) throws in
            let archive = folder + "/\(service).zip"
            #expect(try runProcess(sample, ["archive", archive, "--service", service, "--activities", "150"]).status == 0)
            let clean = folder + "/clean"
            #expect(try runProcess(stride, ["--ledger", clean, "init", "--time-zone", "UTC"]).status == 0)
            #expect(try runProcess(stride, ["--ledger", clean, "ingest", archive]).status == 0)
            let ledger = folder + "/killed"
            #expect(try runProcess(stride, ["--ledger", ledger, "init", "--time-zone", "UTC"]).status == 0)
            try killed(["--ledger", ledger, "ingest", "--quiet", archive], after: delay)
            let verify = try runProcess(stride, ["--ledger", ledger, "verify"])
            #expect(verify.status == 0, "\(verify.standardError)")
            #expect(try runProcess(stride, ["--ledger", ledger, "ingest", "--quiet", archive]).status == 0)
            #expect(try runProcess(stride, ["--ledger", ledger, "verify"]).status == 0)
            #expect(try statsByType(ledger) == statsByType(clean))
            let (shoes, cleanShoes) = (try shoesByName(ledger), try shoesByName(clean))
            #expect(shoes.count == 5 && shoes == cleanShoes)
        }
    }

    @Test("an archive's summary as JSON names what it did; --shoe that is not NAME=RACK_NAME is refused before anything is read")
    func archiveSummary() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let archive = folder + "/garmin.zip"
            #expect(try runProcess(sample, ["archive", archive, "--service", "garmin", "--activities", "20"]).status == 0)
            let ledger = folder + "/ledger"
            #expect(try runProcess(stride, ["--ledger", ledger, "init", "--time-zone", "Europe/Paris"]).status == 0)
            let refused = try runProcess(stride, ["--ledger", ledger, "ingest", archive, "--shoe", "Pegasus"])
            #expect(refused.status != 0 && refused.standardError.contains("NAME=RACK_NAME"))
            #expect(try statsByType(ledger)["workout.recorded"] == nil)
            let ingest = try runProcess(stride, ["--ledger", ledger, "ingest", "--json", archive])
            #expect(ingest.status == 0)
            let document = try JSONSerialization.jsonObject(with: Data(ingest.standardOutput.utf8)) as? [String: Any]
            let file = try #require((document?["files"] as? [[String: Any]])?.first)
            #expect(file["format"] as? String == "Garmin Connect archive")
            let summary = try #require(file["archive"] as? [String: Any])
            #expect(summary["service"] as? String == "Garmin Connect")
            #expect((summary["shoesAdded"] as? [String])?.count == 5)
            #expect(summary["defaultShoe"] as? String == "Asics Novablast 4")
            #expect((summary["notRead"] as? [String: Int])?["FIT monitoring B files (type 32), not activities"] == 3)
        }
    }
}
