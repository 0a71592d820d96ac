import Foundation
import StrideEvents
import StrideTestSupport
import Testing

@testable import StrideIngest

/// The real exports in ../shared/fixtures (SOURCES.md says what each holds). The suite is
/// reported as skipped where that folder is absent.
@Suite("Real Apple Health exports", .enabled(if: fixturesFolder() != nil, "needs ../shared/fixtures"))
struct RealExportTests {
    let fixtures = fixturesFolder()

    /// Per-type counts of top-level records, by a plain reading of the XML text.
    static func directCounts(_ xml: String) -> [String: Int] {
        var counts: [String: Int] = [:]
        for line in xml.split(separator: "\n") where line.hasPrefix(" <Record ") {
            guard let start = line.range(of: "type=\"")?.upperBound, let end = line[start...].firstIndex(of: "\"") else { continue }
            counts[String(line[start..<end]), default: 0] += 1
        }
        return counts
    }

    @Test("the grafana export yields exactly its 8,038 records, with the per-type counts of a direct reading")
    func grafana() throws {
        let fixtures = try #require(self.fixtures)
        let file = fixtures + "/apple-health-grafana/test-export.zip"
        let result = try read(file)
        #expect(result.result.format == .healthExportArchive)
        #expect(result.samples.count == 8038)
        let xml = try withTemporaryDirectory { folder -> String in
            let unzip = try runProcess("/usr/bin/unzip", ["-q", file, "-d", folder])
            try #require(unzip.status == 0)
            return try String(contentsOfFile: folder + "/apple_health_export/export.xml", encoding: .utf8)
        }
        let expected = Self.directCounts(xml)
        #expect(expected.values.reduce(0, +) == 8038)
        #expect(result.result.counts.samplesByType == expected)
        #expect(Set(result.events.compactMap(\.idempotencyKey)).count <= 8038)
    }

    @Test(
        "the three variants (a localized name, two broken DTDs) parse and hold nothing the export lacks",
        arguments: ["test-export-cn.zip", "test-export3.zip", "test-export4.zip"])
    func variants(name: String) throws {
        let fixtures = try #require(self.fixtures)
        let original = Set(try read(fixtures + "/apple-health-grafana/test-export.zip").events.compactMap(\.idempotencyKey))
        let variant = try read(fixtures + "/apple-health-grafana/" + name)
        #expect(!variant.events.isEmpty)
        #expect(Set(variant.events.compactMap(\.idempotencyKey)).isSubset(of: original))
    }

    @Test("the dogsheep run is 800.12 m, read from its attributes in miles; nested routes are not records")
    func dogsheep() throws {
        let fixtures = try #require(self.fixtures)
        let result = try read(fixtures + "/healthkit-to-sqlite/export.xml")
        let run = try #require(result.workouts.first { $0.isRunning })
        // 0.4971749504535062 mi × 1609.344 m = 800.1255 m.
        #expect(abs((run.distanceMeters ?? 0) - 800.12) < 0.01)
        #expect(run.distanceSource == .attributes)
        #expect(run.distanceAsWritten == "0.4971749504535062 mi")
        #expect(run.deviceClass == .watch)
        #expect(result.samples.count == 3)
        let fat = try #require(result.samples.first { $0.healthType == "HKQuantityTypeIdentifierDietaryFatTotal" })
        #expect(fat.metadata.map(\.key) == ["meal", "Meal"])
        let bmi = try #require(result.samples.first { $0.healthType == "HKQuantityTypeIdentifierBodyMassIndex" })
        #expect(bmi.metadata.first { $0.key == "Withings Link" }?.value == "withings-bd2://timeline/measure?userid=12345&date=482685932&type=1")
    }

    @Test("the ipyhealth export has 16 workouts, and its source name keeps its curly apostrophe and no-break space")
    func ipyhealth() throws {
        let fixtures = try #require(self.fixtures)
        let result = try read(fixtures + "/ipyhealth/export.xml")
        #expect(result.workouts.count == 16)
        #expect(result.result.counts.activitySummaries == 8)
        #expect(result.workouts.first?.sourceName == "User\u{2019}s Apple\u{00A0}Watch")
        #expect(result.workouts.allSatisfy { $0.deviceClass == .watch })
    }

    @Test("a real GPX route is a running workout as long as its track")
    func gpx() throws {
        let fixtures = try #require(self.fixtures)
        try withTemporaryDirectory { (folder: String) throws in
            let unzip = try runProcess("/usr/bin/unzip", ["-q", fixtures + "/apple-health-grafana/test-export.zip", "-d", folder])
            try #require(unzip.status == 0)
            let routes = folder + "/apple_health_export/workout-routes"
            let file = try #require(try FileManager.default.contentsOfDirectory(atPath: routes).sorted().first)
            let result = try read(routes + "/" + file)
            let run = try #require(result.workouts.first)
            #expect(result.result.format == .gpx)
            #expect(run.isRunning)
            #expect(run.distanceSource == .track)
            #expect((run.distanceMeters ?? 0) > 1000)
            #expect(run.end > run.start)
        }
    }
}
