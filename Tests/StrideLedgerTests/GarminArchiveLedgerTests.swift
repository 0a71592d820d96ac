import DailyHealth
import Foundation
import ShoeMileage
import StrideContract
import StrideEvents
import StrideFIT
import StrideIngest
import StrideTestSupport
import Testing

@testable import StrideLedger

/// Garmin Connect's account export into the ledger: the rack with its goals, retirements and
/// default, each shoe at the sum of its runs' distances (cm) in the summaries, the watch's FIT
/// files matched to their summaries, the days' totals and nights as summaries.
@Suite("Garmin Connect archives into the ledger")
struct GarminArchiveLedgerTests {
    static func ledger(_ folder: String) throws -> Ledger {
        try Ledger.create(at: folder + "/ledger", timeZone: "Europe/Paris", clock: FixedClock(Timestamp(secondsSince1970: 1_800_000_000)))
    }

    static let fitness = "DI_CONNECT/DI-Connect-Fitness/runner@example.com"

    /// Four activities over two summary files: the fenix2 run of the FIT fixture (2015-08-15
    /// 14:45:08Z, 9,008.22 m) and a treadmill run on the Pegasus, a trail run on the retired
    /// Brooks, a ride on a bike.
    static let summaries = [
        "[{\"summarizedActivitiesExport\": [\(ArchiveWriting.garminSummary(id: 1001, type: "running", start: "2015-08-15T14:45:08Z", seconds: 2_832, centimetres: 900_822)), "
            + "\(ArchiveWriting.garminSummary(id: 1002, type: "trail_running", start: "2015-08-17T06:00:00Z", seconds: 3_600, centimetres: 1_200_000)), "
            + "\(ArchiveWriting.garminSummary(id: 1003, type: "cycling", start: "2015-08-18T16:00:00Z", seconds: 3_600, centimetres: 3_000_000))]}]",
        "[{\"summarizedActivitiesExport\": [\(ArchiveWriting.garminSummary(id: 1004, type: "treadmill_running", start: "2015-08-20T18:00:00Z", seconds: 1_800, centimetres: 500_050))]}]",
    ]

    static let gear = """
        [{"gearDTOS": [
            {"gearPk": 11, "gearTypeName": "Shoes", "gearStatusName": "active", "displayName": "Pegasus 32", "maximumMeters": 800000.0},
            {"gearPk": 12, "gearTypeName": "Shoes", "gearStatusName": "retired", "displayName": null, "customMakeModel": "Brooks Ghost 8", "retiredDate": 1441065600000},
            {"gearPk": 21, "gearTypeName": "Bike", "gearStatusName": "active", "displayName": "Canyon"}
          ],
          "gearActivityDTOs": {"11": [{"gearPk": 11, "activityId": 1001}, {"gearPk": 11, "activityId": 1004}], "12": [{"gearPk": 12, "activityId": 1002}], "21": [{"gearPk": 21, "activityId": 1003}]},
          "gearActivityTypeDTOS": [{"activityType": "running", "gearPk": 11, "defaultFlag": true}, {"activityType": "cycling", "gearPk": 21, "defaultFlag": true}]
        }]
        """

    /// A day in Bangkok (UTC+7) and one in London, and a night.
    static let days = """
        [{"calendarDate": "2015-08-16", "totalSteps": 12000, "totalDistanceMeters": 9100, "restingHeartRate": 48, "minHeartRate": 44, "maxHeartRate": 171, "wellnessStartTimeGmt": "2015-08-15T17:00:00.0", "wellnessStartTimeLocal": "2015-08-16T00:00:00.0"},
         {"calendarDate": "2015-08-19", "totalSteps": 8000, "totalDistanceMeters": 6000, "restingHeartRate": 50, "wellnessStartTimeGmt": "2015-08-18T23:00:00.0", "wellnessStartTimeLocal": "2015-08-19T00:00:00.0"}]
        """
    static let nights = """
        [{"calendarDate": "2015-08-19", "sleepStartTimestampGMT": "2015-08-18T21:30:00.0", "sleepEndTimestampGMT": "2015-08-19T05:30:00.0", "deepSleepSeconds": 5400, "lightSleepSeconds": 16200, "remSleepSeconds": 5400, "awakeSleepSeconds": 1800},
         {"calendarDate": "2015-08-20"}]
        """

    /// The archive's zip; `uploads` are the FIT files of its inner `UploadedFiles` zip.
    static func archive(
        _ folder: String, uploads: [(String, Data)], summaries: [String] = summaries, gear: String = gear, inner: Data? = nil
    ) throws -> String {
        var entries: [(String, Data)] = summaries.enumerated().map { ("\(fitness)_\($0.offset)_summarizedActivities.json", Data($0.element.utf8)) }
        entries.append(("\(fitness)_gear.json", Data(gear.utf8)))
        entries.append(("DI_CONNECT/DI-Connect-Aggregator/UDSFile_2015-08-01_2015-11-09.json", Data(days.utf8)))
        entries.append(("DI_CONNECT/DI-Connect-Wellness/2015-08-01_2015-11-09_123_sleepData.json", Data(nights.utf8)))
        entries.append(("DI_CONNECT/DI-Connect-User/user_profile.json", Data("{}".utf8)))
        if let inner {
            entries.append(("DI_CONNECT/DI-Connect-Uploaded-Files/UploadedFiles_0-_Part1.zip", inner))
        } else if !uploads.isEmpty {
            entries.append(("DI_CONNECT/DI-Connect-Uploaded-Files/UploadedFiles_0-_Part1.zip", try ArchiveWriting.zipped(uploads, in: folder)))
        }
        let path = folder + "/garmin-export.zip"
        try ArchiveWriting.zip(path, entries)
        return path
    }

    /// A monitoring FIT file (type 32): a `file_id` and nothing else.
    static let monitoringFile: Data = {
        var records: [UInt8] = [0x40, 0, 0, 0, 0, 1, 0, 1, 0x00, 0x00, 32]
        var file: [UInt8] = [14, 0x10, 0x54, 0x08] + withUnsafeBytes(of: UInt32(records.count).littleEndian, Array.init) + Array(".FIT".utf8)
        file += withUnsafeBytes(of: fitCRC(file).littleEndian, Array.init)
        file += records
        records = file
        return Data(records + withUnsafeBytes(of: fitCRC(records).littleEndian, Array.init))
    }()

    static func fitCRC(_ bytes: [UInt8]) -> UInt16 { FITCRC.checksum(bytes) }

    static func kilometres(_ ledger: Ledger) throws -> [String: Double] {
        Dictionary(uniqueKeysWithValues: try ledger.shoes().map { ($0.shoe.name, ($0.shoe.kilometers * 1e6).rounded() / 1e6) })
    }

    @Test("the rack with its goal, retirement and default; each shoe the sum of its runs' centimetres; bikes left off")
    func rack() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Self.ledger(folder)
            let report = try ledger.ingest(file: try Self.archive(folder, uploads: [("runner@example.com_77.fit", Self.monitoringFile)]))
            #expect(report.format == .garminArchive)
            #expect(try Self.kilometres(ledger) == ["Pegasus 32": 14.00872, "Brooks Ghost 8": 12])
            let shoes = try ledger.shoes()
            #expect(shoes.first { $0.shoe.name == "Pegasus 32" }?.shoe.goalKilometers == 800)
            #expect(shoes.first { $0.shoe.name == "Brooks Ghost 8" }?.shoe.isRetired == true)
            #expect(shoes.first { $0.isDefault }?.shoe.name == "Pegasus 32")
            // The past: the Brooks on the rack from its run of the 17th, retired on 2015-09-01
            // (Garmin's retiredDate), not on the day of the ingest.
            let before = try ledger.shoes(asOf: try #require(ISO8601.parse("2015-08-16T00:00:00Z")))
            #expect(before.map(\.shoe.name) == ["Pegasus 32"])
            let during = try ledger.shoes(asOf: try #require(ISO8601.parse("2015-08-25T00:00:00Z")))
            #expect(during.first { $0.shoe.name == "Brooks Ghost 8" }.map { ($0.shoe.isRetired, $0.shoe.kilometers) } ?? (true, 0) == (false, 12))
            let after = try ledger.shoes(asOf: try #require(ISO8601.parse("2015-09-02T00:00:00Z")))
            #expect(after.first { $0.shoe.name == "Brooks Ghost 8" }?.shoe.isRetired == true)
            let archive = try #require(report.counts.archive)
            #expect(archive.runs == 3 && archive.activitiesByType == ["running": 1, "trail_running": 1, "cycling": 1, "treadmill_running": 1])
            #expect(archive.notRead["FIT monitoring B files (type 32), not activities"] == 1)
            #expect(archive.dailyTotals == 2 && archive.nights == 1)
            // The same archive again: nothing.
            let again = try ledger.ingest(file: folder + "/garmin-export.zip")
            #expect(again.appended == 0)
        }
    }

    @Test(
        "the watch's FIT file inside the inner zip is its summary's detail; a FIT file cut short is named, its summary kept",
        .enabled(if: fixturesFolder() != nil))
    func uploadedFiles() throws {
        let fit = try Data(
            contentsOf: URL(fileURLWithPath: try #require(fixturesFolder()) + "/fit/dtcooper__python-fitparse__activity-small-fenix2-run.fit"))
        try withTemporaryDirectory { folder in
            let ledger = try Self.ledger(folder)
            let path = try Self.archive(
                folder,
                uploads: [
                    ("runner@example.com_1.fit", fit), ("runner@example.com_2.fit", fit.prefix(fit.count / 2)),
                    ("runner@example.com_3.fit", Self.monitoringFile),
                ])
            let report = try ledger.ingest(file: path)
            let archive = try #require(report.counts.archive)
            #expect(archive.filesRead == 1)
            #expect(archive.unreadFileCount == 1 && archive.unreadFiles.first?.contains("runner@example.com_2.fit") == true)
            #expect(report.counts.workouts == 4)
            let run = try #require(try ledger.workouts(from: nil, through: nil, unassignedOnly: false).min { $0.start < $1.start })
            #expect(run.distanceMeters == 9_008.22)
            #expect(run.start == ISO8601.parse("2015-08-15T14:45:08Z"))
            #expect(try Self.kilometres(ledger) == ["Pegasus 32": 14.00872, "Brooks Ghost 8": 12])
        }
    }

    @Test("an inner zip's entry that fails its CRC-32 is named in the summary; its summary and the rest are kept")
    func corruptInnerEntry() throws {
        try withTemporaryDirectory { folder in
            var inner = try ArchiveWriting.zipped(
                [("runner@example.com_8.fit", Self.monitoringFile), ("runner@example.com_9.fit", Self.monitoringFile)], in: folder, method: .none)
            // The second entry's last byte (its FIT CRC), stored as is: the zip's CRC-32 no longer matches.
            let marker = Data("runner@example.com_9.fit".utf8)
            let name = try #require(inner.range(of: marker))
            inner[name.upperBound + Self.monitoringFile.count - 1] ^= 0xFF
            let ledger = try Self.ledger(folder)
            let report = try ledger.ingest(file: try Self.archive(folder, uploads: [], inner: inner))
            let archive = try #require(report.counts.archive)
            #expect(archive.unreadFileCount == 1)
            #expect(archive.unreadFiles.first?.contains("runner@example.com_9.fit") == true)
            #expect(archive.notRead["FIT monitoring B files (type 32), not activities"] == 1)
            #expect(report.counts.workouts == 4)
            #expect(try Self.kilometres(ledger) == ["Pegasus 32": 14.00872, "Brooks Ghost 8": 12])
        }
    }

    @Test("a run also in a Health app export is one run, counted at the archive's distance, whichever came first")
    func alsoInHealthExport() throws {
        let export = """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="47.2" durationUnit="min" totalDistance="8.99" totalDistanceUnit="km" sourceName="Connect" sourceVersion="4.20" creationDate="2015-08-15 18:00:00 +0200" startDate="2015-08-15 16:45:10 +0200" endDate="2015-08-15 17:32:20 +0200"/>
            </HealthData>

            """
        for archiveFirst in [true, false] {
            try withTemporaryDirectory { folder in
                let ledger = try Self.ledger(folder)
                let xml = folder + "/export.xml"
                try export.write(toFile: xml, atomically: true, encoding: .utf8)
                let archive = try Self.archive(folder, uploads: [])
                for file in archiveFirst ? [archive, xml] : [xml, archive] { _ = try ledger.ingest(file: file) }
                #expect(try Self.kilometres(ledger) == ["Pegasus 32": 14.00872, "Brooks Ghost 8": 12], "archive first: \(archiveFirst)")
                let runs = try ledger.workouts(from: nil, through: nil, unassignedOnly: false).filter(\.isRunning)
                #expect(runs.filter { $0.runOf == nil }.count == 3)
            }
        }
    }

    @Test("a day's totals count on its calendar date in the ledger's zone, wherever the runner was; the watch's own samples first")
    func dailyTotals() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Self.ledger(folder)
            _ = try ledger.ingest(file: try Self.archive(folder, uploads: []))
            // Bangkok's 2015-08-16 counts whole on Paris' 2015-08-16, none on the 15th.
            let records = try ledger.dailyRecords(from: CivilDate(year: 2015, month: 8, day: 15), through: CivilDate(year: 2015, month: 8, day: 19))
            let steps = Dictionary(uniqueKeysWithValues: records.map { ($0.date.description, $0.steps?.value ?? 0) })
            #expect((steps["2015-08-15"] ?? 0) == 0)
            #expect(steps["2015-08-16"] == 12_000)
            #expect(steps["2015-08-19"] == 8_000)
            let sixteenth = try #require(records.first { $0.date.description == "2015-08-16" })
            #expect(sixteenth.restingHeartRate == 48)
            // The night of the 18th to the 19th: 8 h in bed, deep 1.5 h, light 4.5, REM 1.5, awake 0.5.
            let nineteenth = try #require(records.first { $0.date.description == "2015-08-19" })
            #expect(nineteenth.sleep?.asleep == 27_000 && nineteenth.sleep?.inBed == 28_800 && nineteenth.sleep?.asleepDeep == 5_400)
            // A watch's own 5,000 steps that day count first; the total fills in the 3,000 left, not 8,000 more.
            let xml = folder + "/export.xml"
            try """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Marie’s Apple Watch" device="&lt;&lt;HKDevice&gt;, name:Apple Watch, model:Watch&gt;" unit="count" startDate="2015-08-19 10:00:00 +0200" endDate="2015-08-19 11:00:00 +0200" value="5000"/>
            </HealthData>

            """.write(toFile: xml, atomically: true, encoding: .utf8)
            _ = try ledger.ingest(file: xml)
            let after = try ledger.dailyRecords(from: CivilDate(year: 2015, month: 8, day: 19), through: CivilDate(year: 2015, month: 8, day: 19))
            #expect(after.first?.steps?.value == 8_000)
        }
    }

    @Test("a summaries file that is not JSON, or a summary without its start, stops with the file named and nothing appended")
    func brokenSummaries() throws {
        for (summary, named) in [
            ("[{\"summarizedActivitiesExport\": [", "line 1"), ("[{\"summarizedActivitiesExport\": [{\"activityId\": 5}]}]", "startTimeGmt"),
        ] {
            try withTemporaryDirectory { folder in
                let ledger = try Self.ledger(folder)
                let before = try ledger.lastSequence()
                let path = try Self.archive(folder, uploads: [], summaries: [Self.summaries[0], summary])
                #expect {
                    _ = try ledger.ingest(file: path)
                } throws: { error in
                    "\(error)".contains("_1_summarizedActivities.json") && "\(error)".contains(named)
                }
                #expect(try ledger.lastSequence() == before)
            }
        }
    }
}
