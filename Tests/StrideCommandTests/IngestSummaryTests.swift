import Foundation
import StrideTestSupport
import Testing

/// What `stride ingest` says of records it skipped or left out, as text and as JSON.
@Suite("stride ingest's summary")
struct IngestSummaryTests {
    let stride = builtExecutable("stride")

    static func record(_ value: Int, children: String = "") -> String {
        let open =
            " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Phone\" unit=\"count\" startDate=\"2024-05-01 08:00:00 +0200\" endDate=\"2024-05-01 08:10:00 +0200\" value=\"\(value)\""
        return children.isEmpty ? open + "/>" : open + ">\n" + children + "\n </Record>"
    }

    static func export(_ body: String) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n\(body)\n</HealthData>\n"
    }

    func files(_ output: String) throws -> [[String: Any]] {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        return try #require(document["files"] as? [[String: Any]])
    }

    @Test("a Record inside a Record is named apart from a correlation's; the JSON key appears only then")
    func recordsInsideRecords() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let nested = folder + "/nested.xml"
            try Self.export(Self.record(1, children: Self.record(2))).write(toFile: nested, atomically: true, encoding: .utf8)
            let plain = folder + "/plain.xml"
            try Self.export(Self.record(3)).write(toFile: plain, atomically: true, encoding: .utf8)
            for ledger in ["a", "b"] {
                #expect(try runProcess(stride, ["--ledger", folder + "/" + ledger, "init", "--time-zone", "UTC"]).status == 0)
            }
            let text = try runProcess(stride, ["--ledger", folder + "/a", "ingest", nested])
            #expect(text.status == 0)
            #expect(text.standardOutput.contains("Read 1 sample, 1 record inside other records skipped (only top-level records are samples)."))
            #expect(!text.standardOutput.contains("correlations"))
            let json = try runProcess(stride, ["--ledger", folder + "/b", "ingest", "--json", nested, plain])
            let files = try files(json.standardOutput)
            #expect(files.count == 2)
            #expect(files.first?["recordsInsideRecordsSkipped"] as? Int == 1)
            #expect(files.last?.keys.contains("recordsInsideRecordsSkipped") == false)
        }
    }

    @Test("a sample spanning millennia is kept and named among what is left out of figures")
    func absurdSpan() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let file = folder + "/absurd.ndjson"
            try
                #"{"type":"HKCategoryTypeIdentifierSleepAnalysis","start":"0001-01-01T00:00:00Z","end":"9999-12-31T23:59:59Z","value":"HKCategoryValueSleepAnalysisInBed"}"#
                .write(toFile: file, atomically: true, encoding: .utf8)
            #expect(try runProcess(stride, ["--ledger", folder + "/a", "init", "--time-zone", "UTC"]).status == 0)
            let text = try runProcess(stride, ["--ledger", folder + "/a", "ingest", file])
            #expect(text.status == 0)
            #expect(text.standardOutput.contains("1 new event"))
            #expect(
                text.standardOutput.contains(
                    "Kept but left out of figures: 1 — it spans more than 48 hours, too long for HKCategoryTypeIdentifierSleepAnalysis"))
            let daily = try runProcess(stride, ["--ledger", folder + "/a", "daily", "--json"])
            #expect(daily.standardOutput.contains("\"days\":[]"))
        }
    }

    @Test("what a FIT file holds and Stride does not read is named as it is, without the Health Auto Export's explanation")
    func notReadFromFIT() throws {
        try withTemporaryDirectory { (folder: String) throws in
            // A running session with nothing to place it in time: no start, no end, no record.
            let file = folder + "/timeless.fit"
            try Data(FITTestFile.file([0x40, 0, 0] + FITTestFile.littleEndian16(18) + [1, 5, 1, 0x00] + [0, 1]))
                .write(to: URL(fileURLWithPath: file))
            #expect(try runProcess(stride, ["--ledger", folder + "/a", "init", "--time-zone", "UTC"]).status == 0)
            let text = try runProcess(stride, ["--ledger", folder + "/a", "ingest", file])
            #expect(text.status == 0)
            #expect(text.standardOutput.contains("  Not read: 1 FIT sessions without a start time or a timed record.\n"))
            #expect(!text.standardOutput.contains("Stride reads its metrics and workouts"))
        }
    }

    @Test("an archive of 120 shoes and 60 missing files names 50 of each list and counts the rest, as text and as JSON")
    func longListsCut() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let archive = folder + "/export_1"
            try FileManager.default.createDirectory(atPath: archive, withIntermediateDirectories: true)
            var csv = "id,date,name,type,description,elapsed_time,distance,commute,gear,filename\n"
            for index in 0..<120 {
                let day = String(format: "2024-%02d-%02d 06:30:00", 1 + index / 28, 1 + index % 28)
                let file = index < 60 ? "activities/\(index).gpx" : ""
                csv += "\(1000 + index),\(day),Run,Run,\"\",1800,5000,false,\"Shoe number \(index)\",\(file)\n"
            }
            try csv.write(toFile: archive + "/activities.csv", atomically: true, encoding: .utf8)
            for ledger in ["a", "b"] {
                #expect(try runProcess(stride, ["--ledger", folder + "/" + ledger, "init", "--time-zone", "UTC"]).status == 0)
            }
            let text = try runProcess(stride, ["--ledger", folder + "/a", "ingest", archive])
            #expect(text.status == 0, "\(text.standardError)")
            let shoes = try #require(text.standardOutput.split(separator: "\n").first { $0.hasPrefix("  Shoes: ") })
            #expect(shoes.hasPrefix("  Shoes: 120 added (Shoe number 0, "))
            #expect(shoes.contains("Shoe number 49, and 70 more)"))
            #expect(!shoes.contains("Shoe number 50,"))
            #expect(text.standardOutput.contains("    … and 10 more.\n"))
            #expect(text.standardOutput.contains("    … and 70 more shoes, 0 of them with differences.\n"))
            #expect(text.standardOutput.utf8.count < 40_000)

            let json = try runProcess(stride, ["--ledger", folder + "/b", "ingest", "--json", archive])
            #expect(json.status == 0)
            let summary = try #require(try files(json.standardOutput).first?["archive"] as? [String: Any])
            #expect((summary["shoesAdded"] as? [String])?.count == 50)
            #expect(summary["shoesAddedNotListed"] as? Int == 70)
            #expect((summary["reconciliation"] as? [Any])?.count == 50)
            #expect(summary["reconciliationNotListed"] as? Int == 70)
            #expect((summary["filesNotRead"] as? [String])?.count == 50)
            #expect(summary["filesNotReadCount"] as? Int == 60)
            #expect(summary["notesNotListed"] as? Int == 0)
        }
    }
}
