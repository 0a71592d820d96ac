import Foundation
import StrideEvents
import StrideTestSupport
import Testing

@testable import StrideIngest

/// What iOS 8 and 9 (2014–2015) wrote, in small hand-made exports: compact dates, `source=`,
/// numeric sleep values, metadata as attributes (some with spaces in their names).
@Suite("Exports from iOS 8 and 9")
struct LegacyExportTests {
    /// A clock after every fixture was exported (2026-11-26).
    static let now = Timestamp(secondsSince1970: 1_795_651_200)

    static let legacyExport = """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="de_DE">
         <ExportDate value="20150915113529+0200"/>
         <Record type="HKQuantityTypeIdentifierBodyMassIndex" source="Withings" unit="count" creationDate="20150718161649+0200" startDate="20150718103801+0200" endDate="20150718103801+0200" Health Mate App Version="2.6.2" Withings Link="withings-bd2://m?a=1&amp;amp;b=2" HKWasUserEntered="1" value="24.7567"/>
         <Record type="HKCategoryTypeIdentifierSleepAnalysis" source="Sleep Cycle" unit="" creationDate="20150602043558+0100" startDate="20150601215104+0100" endDate="20150602043558+0100" sessionId="p2" value="1"/>
        </HealthData>

        """

    @Test(
        "compact dates are instants, whatever offset they print",
        arguments: [
            ("20141018163235+0100", Int64(1_413_646_355)), ("20141018153235+0000", 1_413_646_355), ("20141018113235-0400", 1_413_646_355),
        ])
    func compactDates(text: String, seconds: Int64) {
        #expect(HealthDate.parse(text) == Timestamp(secondsSince1970: seconds))
    }

    @Test(
        "text that only looks like a compact date is refused",
        arguments: [
            "20141018163235 0100", "20141318163235+0100", "20141018163261+0100", "2014101816323+01000", "2014-10-18163235+01",
        ])
    func badCompactDates(text: String) {
        #expect(HealthDate.parse(text) == nil)
    }

    @Test("a legacy record is read whole: its source, its dates, its value as written, and its attributes as metadata")
    func legacyRecords() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let result = try read(try write(Self.legacyExport, named: "Exportieren.xml", in: folder))
            #expect(result.samples.count == 2)
            let bmi = try #require(result.samples.first)
            #expect(bmi.sourceName == "Withings")
            #expect(bmi.start == Timestamp(secondsSince1970: 1_437_208_681))
            #expect(bmi.created == HealthDate.parse("2015-07-18 16:16:49 +0200"))
            #expect(bmi.metadata.map(\.key) == ["Health Mate App Version", "Withings Link", "HKWasUserEntered"])
            #expect(bmi.metadata.first?.value == "2.6.2")
            #expect(bmi.metadata[1].value == "withings-bd2://m?a=1&amp;b=2")
            let sleep = try #require(result.samples.last)
            #expect(sleep.value == .number(1))
            #expect(SleepValue(sleep.value) == .asleepUnspecified)
            #expect(SampleQuality.problem(with: sleep, recordedAt: Self.now) == nil)
            #expect(result.result.counts.leftOut.isEmpty)
        }
    }

    @Test("the same legacy record read twice, or printed with another offset, has one identity")
    func stableIdentity() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let first = try read(try write(Self.legacyExport, named: "a.xml", in: folder))
            let again = try read(try write(Self.legacyExport, named: "b.xml", in: folder))
            let shifted = Self.legacyExport.replacingOccurrences(of: "20150601215104+0100", with: "20150601225104+0200")
            let moved = try read(try write(shifted, named: "c.xml", in: folder))
            #expect(first.events.map(\.idempotencyKey) == again.events.map(\.idempotencyKey))
            #expect(first.events.map(\.idempotencyKey) == moved.events.map(\.idempotencyKey))
            #expect(Set(first.events.compactMap(\.idempotencyKey)).count == 2)
        }
    }

    @Test("a workout of that era names its source with `source=` too")
    func legacyWorkout() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let body =
                " <Workout workoutActivityType=\"HKWorkoutActivityTypeRunning\" source=\"Runtastic\" duration=\"30\" durationUnit=\"min\" totalDistance=\"5\" totalDistanceUnit=\"km\" startDate=\"20150601070000+0200\" endDate=\"20150601073000+0200\"/>"
            let workout = try #require(try read(try write(export(body), named: "w.xml", in: folder)).workouts.first)
            #expect(workout.sourceName == "Runtastic")
            #expect(workout.distanceMeters == 5000)
        }
    }

    @Test(
        "a tag that is broken, not merely old, still stops the read with the file and line",
        arguments: [
            (
                "a name with no value",
                " <Record type=\"X\" source=\"P\" Health Mate App Version startDate=\"20150601070000+0200\" endDate=\"20150601070000+0200\"/>"
            ),
            (
                "a name broken across lines",
                " <Record type=\"X\" source=\"P\" Health Mate\n App=\"1\" startDate=\"20150601070000+0200\" endDate=\"20150601070000+0200\"/>"
            ),
            (
                "a stray word before the end",
                " <Record type=\"X\" source=\"P\" startDate=\"20150601070000+0200\" endDate=\"20150601070000+0200\" stray/>"
            ),
            ("no source at all", " <Record type=\"X\" startDate=\"20150601070000+0200\" endDate=\"20150601070000+0200\"/>"),
        ])
    func brokenStillStops(name: String, body: String) throws {
        try withTemporaryDirectory { (folder: String) throws in
            let file = try write(export(body), named: "broken.xml", in: folder)
            do {
                _ = try read(file)
                Issue.record("\(name) was read without an error")
            } catch IngestError.broken(let named, let line, _) {
                #expect(named == file)
                #expect(line == 4, "\(name)")
            }
        }
    }
}

/// Real exports of every era (SOURCES.md in ../shared/fixtures says what each holds): each
/// type counted as healthkit-to-sqlite counts it wherever that tool reads the file, and as a
/// plain reading of the file's text where it cannot.
@Suite("Real exports counted like healthkit-to-sqlite", .enabled(if: fixturesFolder() != nil, "needs ../shared/fixtures"))
struct PeerCountTests {
    /// Counts by HealthKit type, written without the identifiers' long prefixes.
    static func counts(_ short: KeyValuePairs<String, Int>) -> [String: Int] {
        let categories: Set = ["SleepAnalysis", "SexualActivity", "MindfulSession"]
        return Dictionary(
            uniqueKeysWithValues: short.map { name, count in
                let prefix = name.hasPrefix("HK") ? "" : categories.contains(name) ? "HKCategoryTypeIdentifier" : "HKQuantityTypeIdentifier"
                return (prefix + name, count)
            })
    }

    static let cases: [(file: String, counts: [String: Int])] = [
        // healthkit-to-sqlite's counts (SOURCES.md).
        (
            "legacy-ios8/export.xml",
            counts([
                "ActiveEnergyBurned": 1171, "StepCount": 534, "DistanceWalkingRunning": 534, "FlightsClimbed": 494, "SleepAnalysis": 92,
                "HeartRate": 89, "BodyMass": 76, "BodyFatPercentage": 76, "Height": 1,
            ])
        ),
        // Not XML (attribute names with spaces), so the peer stops; 2,819 records (SOURCES.md),
        // by type as the text reads.
        (
            "legacy-ios8/Exportieren.xml",
            counts([
                "SleepAnalysis": 1293, "StepCount": 362, "DistanceWalkingRunning": 362, "FlightsClimbed": 306, "NikeFuel": 186,
                "BasalEnergyBurned": 127, "HeartRate": 80, "ActiveEnergyBurned": 59, "BodyMass": 15, "BodyMassIndex": 13,
                "BodyFatPercentage": 12, "DistanceCycling": 2, "Height": 1, "SexualActivity": 1,
            ])
        ),
        // The peer's counts of the XML (its zip reading does not find it).
        ("josejamilena/exportacion.zip", counts(["StepCount": 1931, "DistanceWalkingRunning": 1740, "FlightsClimbed": 125, "SleepAnalysis": 27])),
        // 221 heart-rate records (SOURCES.md).
        ("kairess/export_sample.xml", counts(["HeartRate": 221])),
        // 3,352 records (SOURCES.md), by type as the text reads.
        (
            "rgosdin/export.zip",
            counts([
                "StepCount": 1588, "DistanceWalkingRunning": 1587, "FlightsClimbed": 170, "SleepAnalysis": 4, "NumberOfTimesFallen": 1,
                "UVExposure": 1, "MindfulSession": 1,
            ])
        ),
        // healthkit-to-sqlite's counts (SOURCES.md).
        (
            "bwassim/export.zip",
            counts([
                "HeartRate": 51154, "StepCount": 3036, "WalkingSpeed": 2663, "WalkingStepLength": 2650, "HeadphoneAudioExposure": 2187,
                "WalkingDoubleSupportPercentage": 1984, "WalkingAsymmetryPercentage": 1305, "SleepAnalysis": 964,
                "DistanceWalkingRunning": 830, "FlightsClimbed": 422, "ActiveEnergyBurned": 93, "BasalEnergyBurned": 93,
                "BodyFatPercentage": 13, "BodyMassIndex": 13, "BodyMass": 1, "HKDataTypeSleepDurationGoal": 1,
            ])
        ),
    ]

    @Test("samples by type", arguments: cases)
    func perType(file: String, expected: [String: Int]) throws {
        let fixtures = try #require(fixturesFolder())
        let result = try read(fixtures + "/" + file)
        #expect(result.result.counts.samplesByType == expected)
        #expect(result.samples.count == expected.values.reduce(0, +))
        #expect(result.result.counts.recordsInsideRecordsSkipped == 0)
    }

    @Test("SOURCES.md's totals: 2,819 records in the German export, 3,352 in rgosdin's, 67,409 in bwassim's")
    func totals() throws {
        let fixtures = try #require(fixturesFolder())
        #expect(try read(fixtures + "/legacy-ios8/Exportieren.xml").samples.count == 2819)
        #expect(try read(fixtures + "/rgosdin/export.zip").samples.count == 3352)
        #expect(try read(fixtures + "/bwassim/export.zip").samples.count == 67409)
    }

    @Test("the Spanish zip's XML is found at its root under its Spanish name")
    func spanishZip() throws {
        let file = try #require(fixturesFolder()) + "/josejamilena/exportacion.zip"
        let archive = try ExportArchive(file: file)
        #expect(!archive.entry.path.contains("/"))
        #expect(archive.entry.path.hasPrefix("exportacio"))
        #expect(!archive.entry.path.contains("_cda"))
        #expect(try read(file).result.format == .healthExportArchive)
    }

    @Test("haozes: 10,939 top-level records by type as the text reads, 162 in correlations skipped, 61 workouts, `meal` beside `Meal`")
    func haozes() throws {
        let file = try #require(fixturesFolder()) + "/haozes/export.xml"
        let result = try read(file)
        let expected = RealExportTests.directCounts(try String(contentsOfFile: file, encoding: .utf8))
        #expect(expected.values.reduce(0, +) == 10939)
        #expect(result.result.counts.samplesByType == expected)
        #expect(result.result.counts.nestedRecordsSkipped == 162)
        #expect(result.result.counts.recordsInsideRecordsSkipped == 0)
        #expect(result.workouts.count == 61)
        #expect(result.samples.contains { sample in Set(sample.metadata.map(\.key)).isSuperset(of: ["meal", "Meal"]) })
    }

    @Test("bwassim: 60 workouts, of which 46 runs of 272.871 km together")
    func bwassimRuns() throws {
        let result = try read(try #require(fixturesFolder()) + "/bwassim/export.zip")
        #expect(result.workouts.count == 60)
        let runs = result.workouts.filter(\.isRunning)
        #expect(runs.count == 46)
        #expect(abs(runs.compactMap(\.distanceMeters).reduce(0, +) / 1000 - 272.871) < 0.001)
    }

    @Test("rgosdin: the two records a phone dated 2030 are read, kept, and left out of figures: they start after the clock")
    func futureRecords() throws {
        let result = try read(try #require(fixturesFolder()) + "/rgosdin/export.zip")
        let future = result.samples.filter { $0.start >= Timestamp(secondsSince1970: 1_893_456_000) }  // 2030-01-01
        #expect(future.count == 2)
        #expect(
            future.allSatisfy { SampleQuality.problem(with: $0, recordedAt: LegacyExportTests.now)?.hasPrefix("it starts after the clock") == true })
        #expect(result.samples.filter { SampleQuality.problem(with: $0, recordedAt: LegacyExportTests.now) != nil }.count == 2)
    }

    @Test(
        "legacy exports: numeric sleep values count, and every sample keeps its source",
        arguments: [
            "legacy-ios8/export.xml", "legacy-ios8/Exportieren.xml",
        ])
    func legacySleep(file: String) throws {
        let result = try read(try #require(fixturesFolder()) + "/" + file)
        let sleep = result.samples.filter { $0.healthType == "HKCategoryTypeIdentifierSleepAnalysis" && $0.value == .number(1) }
        #expect(!sleep.isEmpty)
        #expect(sleep.allSatisfy { SampleQuality.problem(with: $0, recordedAt: LegacyExportTests.now) == nil })
        #expect(result.samples.allSatisfy { !$0.sourceName.isEmpty })
    }

    @Test(
        "the limits on a sample's span leave out no sample of any real export",
        arguments: [
            "legacy-ios8/export.xml", "legacy-ios8/Exportieren.xml", "josejamilena/exportacion.zip", "haozes/export.xml",
            "kairess/export_sample.xml", "rgosdin/export.zip", "bwassim/export.zip", "apple-health-grafana/test-export.zip",
            "ipyhealth/export.xml", "healthkit-to-sqlite/export.xml",
        ])
    func noRealSampleTooLong(file: String) throws {
        let result = try read(try #require(fixturesFolder()) + "/" + file)
        #expect(!result.result.counts.leftOut.keys.contains { $0.contains("spans more than") })
    }
}
