import Foundation
import ShoeMileage
import StrideContract
import StrideEvents
import StrideTestSupport
import Testing

@testable import StrideIngest
@testable import StrideLedger

/// What real Strava and Garmin archives hold that no generator makes, into the ledger: a gear
/// name two ids share, rows naming it without an id, an activity whose file is damaged in one
/// download and whole in the next, four years of history that must not nag.
@Suite("Archives as real runners' downloads hold them")
struct ArchiveShapesTests {
    typealias Row = ArchiveWriting.StravaRow

    static func archive(
        _ folder: String, rows: [Row], shoes: String = "Shoe Name,Shoe Brand,Shoe Model\n", files: [String: Data] = [:]
    ) throws
        -> String
    {
        try ArchiveWriting.stravaFolder(
            folder,
            files: ["activities.csv": Data(ArchiveWriting.activitiesCSV(.english94, rows).utf8), "shoes.csv": Data(shoes.utf8)].merging(
                files, uniquingKeysWith: { first, _ in first }))
    }

    @Test("a gear name with two ids: two shoes named by their ids; rows naming it without an id are set apart, named, and settled by --shoe")
    func oneNameTwoIDs() throws {
        let name = "New Balance 1080R14"
        let rows = [
            Row(id: "1", start: "2024-01-01T07:00:00Z", metres: 8_000, gear: name, gearID: "11"),
            Row(id: "2", start: "2024-01-02T07:00:00Z", metres: 6_000, gear: name, gearID: "12"),
            Row(id: "3", start: "2024-01-03T07:00:00Z", metres: 5_000, gear: name),
            Row(id: "4", start: "2024-01-04T07:00:00Z", metres: 4_000, gear: name),
        ]
        try withTemporaryDirectory { folder in
            let ledger = try RunOrderTests.ledger(folder + "/ledger")
            let path = try Self.archive(folder + "/export", rows: rows, shoes: "Shoe Name,Shoe Brand,Shoe Model\n\(name),New Balance,1080\n")
            let report = try ledger.ingest(file: path)
            let shoes = Dictionary(uniqueKeysWithValues: try ledger.shoes().map { ($0.shoe.name, $0.shoe.kilometers) })
            #expect(shoes["\(name) (Strava gear 11)"] == 8)
            #expect(shoes["\(name) (Strava gear 12)"] == 6)
            // No shoe named after a file's line, and no third shoe.
            #expect(shoes.keys.allSatisfy { !$0.contains("line") })
            #expect(shoes.count == 3)
            let settled = try #require(report.archive)
            #expect(settled.notes.contains { $0.contains("2 runs on \(name)") && $0.contains("--shoe \"\(name)\"=RACK_NAME") })
            let apart = try #require(settled.reconciliation.first { $0.rackShoe == nil })
            #expect(apart.archiveKilometers == 9)
            #expect(apart.differences.map(\.reason) == [.notOnRack, .notOnRack])
            #expect(apart.unexplained == 0)
            // The runner says which: the rows go to that shoe, and the archive's own shoes stay on theirs.
            var options = IngestOptions()
            options.shoeNames = ["11": "\(name) (Strava gear 11)", "12": "\(name) (Strava gear 12)", name: "\(name) (Strava gear 11)"]
            let said = try ledger.ingest(file: path, options: options)
            let after = Dictionary(uniqueKeysWithValues: try ledger.shoes().map { ($0.shoe.name, $0.shoe.kilometers) })
            #expect(after["\(name) (Strava gear 11)"] == 17)
            #expect(after["\(name) (Strava gear 12)"] == 6)
            #expect(said.archive?.reconciliation.allSatisfy { $0.unexplained == 0 } == true)
        }
    }

    @Test("Garmin's running default read from defaultFlag written true, 1 or \"true\"", arguments: ["true", "1", "\"true\""])
    func garminDefault(_ flag: String) throws {
        try withTemporaryDirectory { folder in
            let ledger = try Ledger.create(at: folder + "/ledger", timeZone: "Europe/Berlin", clock: RunOrderTests.clock)
            let summary = ArchiveWriting.garminSummary(id: 1, type: "running", start: "2024-03-01T07:00:00Z", seconds: 1_800, centimetres: 500_000)
            let gear = """
                [{"gearDTOS": [{"gearPk": 11, "gearTypeName": "Shoes", "gearStatusName": "active", "displayName": "Pegasus 40"}],
                  "gearActivityDTOs": {"11": [{"gearPk": 11, "activityId": 1}]},
                  "gearActivityTypeDTOS": [{"activityType": "running", "gearPk": 11, "defaultFlag": \(flag)}]}]
                """
            let fitness = "DI_CONNECT/DI-Connect-Fitness/runner@example.com"
            try ArchiveWriting.zip(
                folder + "/garmin.zip",
                [
                    ("\(fitness)_0_summarizedActivities.json", Data("[{\"summarizedActivitiesExport\": [\(summary)]}]".utf8)),
                    ("\(fitness)_gear.json", Data(gear.utf8)),
                ])
            _ = try ledger.ingest(file: folder + "/garmin.zip")
            #expect(try ledger.shoes().first { $0.isDefault }?.shoe.name == "Pegasus 40")
        }
    }

    @Test("an activity whose file is damaged in one download and whole in the next is one workout: its identity is its id and its row's start")
    func damagedThenWhole() throws {
        // The file's track starts ten seconds after the row says.
        let gpx = """
            <?xml version="1.0"?>
            <gpx version="1.1" creator="StravaGPX"><trk><trkseg>
            <trkpt lat="48.80" lon="2.35"><time>2024-03-04T06:30:10Z</time></trkpt>
            <trkpt lat="48.81" lon="2.35"><time>2024-03-04T06:45:00Z</time></trkpt>
            <trkpt lat="48.82" lon="2.35"><time>2024-03-04T07:00:00Z</time></trkpt>
            </trkseg></trk></gpx>
            """
        let whole = ArchiveWriting.gzip(Data(gpx.utf8))
        var row = Row(id: "7001", start: "2024-03-04T06:30:00Z", metres: 5_000, gear: "Pegasus 40", gearID: "111")
        row.file = "activities/7001.gpx.gz"
        try withTemporaryDirectory { folder in
            let ledger = try RunOrderTests.ledger(folder + "/ledger")
            let damaged = try Self.archive(folder + "/first", rows: [row], files: ["activities/7001.gpx.gz": whole.prefix(whole.count / 2)])
            #expect(try ledger.ingest(file: damaged).counts.archive?.unreadFileCount == 1)
            let repaired = try Self.archive(folder + "/second", rows: [row], files: ["activities/7001.gpx.gz": whole])
            let second = try ledger.ingest(file: repaired)
            #expect(second.counts.archive?.filesRead == 1)
            #expect(try ledger.workouts(from: nil, through: nil, unassignedOnly: false).count == 1)
            #expect(try ledger.shoes().first?.shoe.runs == 1)
        }
    }

    @Test("an activity an earlier Stride keyed by its file's start is not appended again")
    func formerIdentity() throws {
        let gpx = """
            <?xml version="1.0"?>
            <gpx version="1.1" creator="StravaGPX"><trk><trkseg>
            <trkpt lat="48.80" lon="2.35"><time>2024-03-04T06:30:10Z</time></trkpt>
            <trkpt lat="48.82" lon="2.35"><time>2024-03-04T07:00:00Z</time></trkpt>
            </trkseg></trk></gpx>
            """
        var row = Row(id: "7001", start: "2024-03-04T06:30:00Z", metres: 5_000)
        row.file = "activities/7001.gpx.gz"
        try withTemporaryDirectory { folder in
            let ledger = try RunOrderTests.ledger(folder + "/ledger")
            let path = try Self.archive(folder + "/a", rows: [row], files: ["activities/7001.gpx.gz": ArchiveWriting.gzip(Data(gpx.utf8))])
            // What an earlier Stride appended: the workout under the identity of its file's start.
            var identity = IdentityHasher()
            let fileStart = try #require(ISO8601.parse("2024-03-04T06:30:10Z"))
            let former = SampleIdentity.make(start: fileStart, hash: identity.hash("strava-activity", "7001"))
            let workout = WorkoutRecorded(
                activityType: "HKWorkoutActivityTypeRunning", deviceClass: .other, start: fileStart,
                end: try #require(ISO8601.parse("2024-03-04T07:00:00Z")), durationSeconds: 1_790, distanceMeters: 5_000, distanceSource: .reported,
                distanceAsWritten: "5000 m as the Strava archive shows it", energyKilocalories: nil, created: nil, sourceName: "Strava",
                sourceVersion: nil, device: nil, metadata: [MetadataEntry(key: WorkoutRecording.archiveActivityKey, value: "Strava 7001")])
            try ledger.append([
                PendingEvent(
                    .workoutRecorded(workout), occurredAt: fileStart, entity: EntityReference(.workout, id: former),
                    idempotencyKey: IdempotencyKey(former))
            ])
            let report = try ledger.ingest(file: path)
            #expect(report.duplicates == 1)
            #expect(try ledger.workouts(from: nil, through: nil, unassignedOnly: false).count == 1)
        }
    }

    @Test("four years of history notify nothing; a run just run does, and its note follows it onto the shoe an archive then names")
    func historyNagsNot() throws {
        try withTemporaryDirectory { folder in
            let ledger = try RunOrderTests.ledger(folder + "/ledger")
            var files = RunFiles()
            for day in 0..<200 {
                let start = RunOrderTests.at("2020-03-01T06:00:00Z").adding(milliseconds: Int64(day) * 7 * 86_400_000)
                files.strava.append(.init(start: start, seconds: 1_800, kilometres: 5, gear: day % 3 == 0 ? nil : RunOrderTests.pegasus))
            }
            // History in a watch's file too: a run of 2023, and one of the last days before the clock.
            let recent = RunOrderTests.clock.now().adding(milliseconds: -2 * 86_400_000)
            files.watchFiles = [[.init(start: RunOrderTests.at("2023-05-01T06:00:00Z"), seconds: 1_800, kilometres: 6)]]
            files.app = [.init(start: recent, seconds: 1_800, kilometres: 7)]
            for path in try files.write(in: folder + "/files") { _ = try ledger.ingest(file: path) }
            let notes = try NotificationsDocument(ledger).notifications.filter { $0.kind == .newRun }
            #expect(notes.map(\.text) == ["7.00 km run — assigned to Pegasus 40"])
            // The recent run again in an archive, on Novablast: its note says so, never "choose a shoe".
            var archive = RunFiles()
            archive.strava = [.init(start: recent, seconds: 1_800, kilometres: 7, gear: RunOrderTests.novablast)]
            _ = try ledger.ingest(file: try archive.write(in: folder + "/later")[0])
            let after = try NotificationsDocument(ledger).notifications.filter { $0.kind == .newRun }
            #expect(after.map(\.text) == ["7.00 km run — on Novablast"])
        }
    }

    @Test("archive rows dated 1970, 2034 and 9999 are kept, left out of the shoes and the training log, and counted in the summary")
    func implausibleStarts() throws {
        let rows = [
            Row(id: "1", start: "2024-03-04T06:30:00Z", metres: 5_000, gear: "Pegasus 40", gearID: "111"),
            Row(id: "2", start: "1970-05-01T06:30:00Z", metres: 6_000, gear: "Pegasus 40", gearID: "111"),
            Row(id: "3", start: "2034-01-01T06:30:00Z", metres: 7_000, gear: "Pegasus 40", gearID: "111"),
            Row(id: "4", start: "9999-01-01T06:30:00Z", metres: 8_000, gear: "Pegasus 40", gearID: "111"),
        ]
        try withTemporaryDirectory { folder in
            let ledger = try RunOrderTests.ledger(folder + "/ledger")
            let report = try ledger.ingest(file: try Self.archive(folder + "/export", rows: rows))
            let pegasus = try #require(try ledger.shoes().first)
            #expect(pegasus.shoe.runs == 1)
            #expect(pegasus.shoe.kilometers == 5)
            let workouts = try ledger.workouts(from: nil, through: nil, unassignedOnly: false)
            #expect(workouts.count == 4)
            #expect(workouts.count { $0.startLeftOut != nil } == 3)
            let leftOut = report.counts.leftOut.first { $0.key.hasPrefix("a workout starting before 1980") }?.value
            #expect(leftOut?.count == 3)
            let reconciled = try #require(report.archive?.reconciliation.first)
            #expect(reconciled.unexplained == 0)
            #expect(reconciled.differences.count { $0.reason == .startLeftOut } == 3)
            let weeks = try TrainingVolumeDocument(ledger, per: .week, TrainingQuery()).json.text
            #expect(!weeks.contains("2034") && !weeks.contains("1970") && !weeks.contains("9999"))
            #expect(try WorkoutsDocument(ledger).json.text.components(separatedBy: "\"leftOut\"").count == 4)
            // The archive is as new as its newest believable row: a later download (its newest
            // run of 2024-05) still puts its runs on their shoes, though 9999 was read before.
            #expect(report.counts.archive?.asOf == RunOrderTests.at("2024-03-04T06:30:00Z"))
            let later = rows + [Row(id: "5", start: "2024-05-06T06:30:00Z", metres: 9_000, gear: "Novablast 4", gearID: "222")]
            let again = try ledger.ingest(file: try Self.archive(folder + "/export-later", rows: later))
            #expect(again.counts.archive?.asOf == RunOrderTests.at("2024-05-06T06:30:00Z"))
            let novablast = try #require(try ledger.shoes().first { $0.shoe.name == "Novablast 4" })
            #expect(novablast.shoe.kilometers == 9)
        }
    }
}
