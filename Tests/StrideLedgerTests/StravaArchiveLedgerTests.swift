import Foundation
import ShoeMileage
import StrideContract
import StrideEvents
import StrideIngest
import StrideTestSupport
import Testing

@testable import StrideLedger

/// A Strava archive into the ledger: the runner's rack, each shoe's kilometres the sum of its
/// runs' metres in `activities.csv`, every run once, a runner's decision never overturned.
@Suite("Strava archives into the ledger")
struct StravaArchiveLedgerTests {
    typealias Row = ArchiveWriting.StravaRow

    static func ledger(_ folder: String) throws -> Ledger {
        try Ledger.create(at: folder + "/ledger", timeZone: "Europe/Berlin", clock: FixedClock(Timestamp(secondsSince1970: 1_800_000_000)))
    }

    /// Three runs (two on shoes), a ride, a walk on a shoe: Pegasus 40 10,012.3 + 4,000.25 m,
    /// Brooks Ghost 15 (no name: "Brand Model") 5,000.5 m.
    static let rows = [
        Row(id: "1001", start: "2024-03-04T06:30:00Z", metres: 10_012.3, gear: "Pegasus 40", gearID: "111"),
        Row(id: "1002", start: "2024-03-05T06:30:00Z", metres: 5_000.5, gear: "Brooks Ghost 15", gearID: "222"),
        Row(id: "1003", start: "2024-03-06T17:00:00Z", name: "Ride", type: "Ride", elapsed: 3_600, moving: 3_500, metres: 20_000),
        Row(id: "1004", start: "2024-03-07T06:30:00Z", metres: 3_000),
        Row(id: "1005", start: "2024-03-08T06:30:00Z", type: "Trail Run", metres: 4_000.25, gear: "Pegasus 40", gearID: "111"),
        Row(id: "1006", start: "2024-03-09T06:30:00Z", name: "Walk", type: "Walk", metres: 2_000, gear: "Pegasus 40", gearID: "111"),
    ]

    static let shoes = ArchiveWriting.shoesCSV([("Pegasus 40", "Nike", "Pegasus 40", true), ("", "Brooks", "Ghost 15", false)])

    /// A Strava archive's folder with these rows.
    static func archive(_ folder: String, _ generation: ArchiveWriting.StravaGeneration, rows: [Row] = rows, shoes: String = shoes) throws -> String {
        var rows = rows
        if generation == .german {
            rows = rows.map { row in
                var row = row; row.type = row.type == "Run" ? "Lauf" : row.type; return row
            }
        }
        return try ArchiveWriting.stravaFolder(
            folder,
            files: [
                "activities.csv": Data(ArchiveWriting.activitiesCSV(generation, rows).utf8), "shoes.csv": Data(shoes.utf8),
                "bikes.csv": Data("Bike Name,Bike Brand,Bike Model\n".utf8), "profile.csv": Data("not read\n".utf8),
            ])
    }

    static func kilometres(_ ledger: Ledger) throws -> [String: Double] {
        Dictionary(uniqueKeysWithValues: try ledger.shoes().map { ($0.shoe.name, ($0.shoe.kilometers * 1e6).rounded() / 1e6) })
    }

    @Test("every generation of activities.csv: the rack, each shoe at the sum of its runs' metres, the default shoe, runs once")
    func everyGeneration() throws {
        for generation in ArchiveWriting.StravaGeneration.allCases {
            try withTemporaryDirectory { folder in
                let ledger = try Self.ledger(folder)
                let path = try Self.archive(folder + "/export_1", generation)
                let report = try ledger.ingest(file: path)
                #expect(report.format == .stravaArchive)
                #expect(report.counts.workouts == 6, "\(generation)")
                let km = try Self.kilometres(ledger)
                #expect(km == ["Pegasus 40": 14.01255, "Brooks Ghost 15": 5.0005], "\(generation): \(km)")
                #expect(try ledger.shoes().first { $0.isDefault }?.shoe.name == "Pegasus 40")
                let runs = try ledger.workouts(from: nil, through: nil, unassignedOnly: false).filter(\.isRunning)
                #expect(runs.count == 4, "\(generation)")
                #expect(runs.filter { $0.shoe == nil }.count == 1)
                #expect(runs.allSatisfy { $0.origin == nil || $0.origin == .archive })
                #expect(report.archive?.runsPutOnShoes == 3)
                #expect(report.counts.archive?.activitiesByType.values.reduce(0, +) == 6)
                // As of the evening of the first run: the Pegasus with that run; the Brooks, first
                // run the next day, not on the rack yet.
                let then = try ledger.shoes(asOf: try #require(ISO8601.parse("2024-03-04T20:00:00Z")))
                #expect(then.map(\.shoe.name) == ["Pegasus 40"] && then.first?.shoe.kilometers == 10.0123, "\(generation)")
            }
        }
    }

    @Test("the zip as downloaded, and activities.csv given alone, read as the folder")
    func zipAndCSV() throws {
        try withTemporaryDirectory { folder in
            let source = try Self.archive(folder + "/unzipped", .english94)
            let entries = try ["activities.csv", "shoes.csv", "bikes.csv"].map { ($0, try Data(contentsOf: URL(fileURLWithPath: source + "/" + $0))) }
            try ArchiveWriting.zip(folder + "/export_42.zip", entries + [("media/photo.jpg", Data([0xFF, 0xD8]))])
            let ledger = try Self.ledger(folder)
            let report = try ledger.ingest(file: folder + "/export_42.zip")
            #expect(report.format == .stravaArchive)
            #expect(try Self.kilometres(ledger) == ["Pegasus 40": 14.01255, "Brooks Ghost 15": 5.0005])
            // The folder's activities.csv is the same archive: nothing new.
            let again = try ledger.ingest(file: source + "/activities.csv")
            #expect(again.format == .stravaArchive)
            #expect(again.appended == 0)
        }
    }

    @Test("two shoes that print one name are two shoes where the gear ids say so; on a rack that has that name, they are reported")
    func twoShoesOneName() throws {
        let rows = [
            Row(id: "1", start: "2024-01-01T07:00:00Z", metres: 8_000, gear: "Pegasus", gearID: "111"),
            Row(id: "2", start: "2024-01-02T07:00:00Z", metres: 6_000, gear: "Pegasus", gearID: "222"),
            Row(id: "3", start: "2024-01-03T07:00:00Z", metres: 5_000, gear: "Pegasus", gearID: "111"),
        ]
        let shoes = ArchiveWriting.shoesCSV([("Pegasus", "Nike", "Pegasus 39", false), ("Pegasus", "Nike", "Pegasus 40", false)])
        try withTemporaryDirectory { folder in
            let ledger = try Self.ledger(folder)
            _ = try ledger.ingest(file: try Self.archive(folder + "/a", .english77, rows: rows, shoes: shoes))
            #expect(try Self.kilometres(ledger) == ["Pegasus (Strava gear 111)": 13, "Pegasus (Strava gear 222)": 6])
            // Again: the two are found on the rack under the names they were given.
            #expect(try ledger.ingest(file: folder + "/a").appended == 0)
        }
        try withTemporaryDirectory { folder in
            let ledger = try Self.ledger(folder)
            try ledger.registerShoe(name: "pegasus", brand: nil, startKilometers: 0, goalKilometers: nil, makeDefault: false, at: nil)
            let report = try ledger.ingest(file: try Self.archive(folder + "/a", .english77, rows: rows, shoes: shoes))
            #expect(try Self.kilometres(ledger) == ["pegasus": 0])
            #expect(report.archive?.notes.contains { $0.contains("could be any of pegasus") && $0.contains("--shoe 111=RACK_NAME") } == true)
            // The runner says which: gear 111 is the rack's shoe; 222 is still ambiguous.
            var options = IngestOptions()
            options.shoeNames = ["111": "pegasus"]
            let said = try ledger.ingest(file: folder + "/a", options: options)
            #expect(try Self.kilometres(ledger) == ["pegasus": 13], "\(said.archive?.notes ?? [])")
        }
    }

    @Test(
        "the same archive again appends nothing; a later one only what changed there (a run moved, a run on no shoe); an older one after it changes nothing"
    )
    func laterAndOlder() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Self.ledger(folder)
            let first = try Self.archive(folder + "/first", .english94)
            _ = try ledger.ingest(file: first)
            let events = try ledger.lastSequence()
            let again = try ledger.ingest(file: first)
            #expect(try ledger.lastSequence() == events)
            #expect(again.appended == 0 && again.archive?.runsAlreadyOnTheirShoe == 3)
            // Later: run 1002 moved to the Pegasus, run 1001 on no shoe there, a new run on the Brooks.
            var rows = Self.rows
            rows[1].gear = "Pegasus 40"
            rows[1].gearID = "111"
            (rows[0].gear, rows[0].gearID) = (nil, nil)
            rows.append(Row(id: "1007", start: "2024-04-01T06:30:00Z", metres: 7_000, gear: "Brooks Ghost 15", gearID: "222"))
            let later = try Self.archive(folder + "/later", .english94, rows: rows)
            let report = try ledger.ingest(file: later)
            #expect(try Self.kilometres(ledger) == ["Pegasus 40": 9.00075, "Brooks Ghost 15": 7])
            #expect(report.archive?.runsPutOnShoes == 2 && report.archive?.runsTakenOffShoes == 1)
            let added = try ledger.store.events(ofType: .workoutAssigned, from: events + 1, limit: 10)
            #expect(added.count == 2)
            #expect(
                added.allSatisfy { if case .workoutAssigned(let assigned) = $0.event { assigned.source?.contains("later") == true } else { false } })
            let takenOff = try ledger.store.events(ofType: .workoutAssignmentChanged, from: events + 1, limit: 10)
            #expect(takenOff.count == 1)
            // The older one again: nothing moves back.
            let before = try ledger.lastSequence()
            let older = try ledger.ingest(file: first)
            #expect(older.archive?.isOlderThanOneRead == true)
            #expect(try ledger.lastSequence() == before)
            #expect(try Self.kilometres(ledger) == ["Pegasus 40": 9.00075, "Brooks Ghost 15": 7])
        }
    }

    @Test("a decision the runner made in Stride is kept, and the summary says where the archive disagreed")
    func runnerDecisionsKept() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Self.ledger(folder)
            try ledger.registerShoe(name: "Race Flats", brand: nil, startKilometers: 0, goalKilometers: nil, makeDefault: true, at: nil)
            _ = try ledger.ingest(file: try Self.archive(folder + "/a", .english94))
            let runs = try ledger.workouts(from: nil, through: nil, unassignedOnly: false).filter(\.isRunning).sorted { $0.start < $1.start }
            // The runner moves the first run to the flats, excludes the second.
            try ledger.assign(workout: Ledger.workoutID(runs[0].id), to: "Race Flats", at: nil)
            try ledger.unassign(workout: Ledger.workoutID(runs[1].id), at: nil)
            try ledger.exclude(workout: Ledger.workoutID(runs[1].id), at: nil)
            var rows = Self.rows
            rows.append(Row(id: "1008", start: "2024-05-01T06:30:00Z", metres: 1_000))
            let report = try ledger.ingest(file: try Self.archive(folder + "/b", .english94, rows: rows))
            #expect(try Self.kilometres(ledger) == ["Race Flats": 10.0123, "Pegasus 40": 4.00025, "Brooks Ghost 15": 0])
            let notes = report.archive?.notes ?? []
            #expect(notes.contains { $0.contains("you put it on Race Flats") && $0.contains("Pegasus 40") })
            #expect(notes.contains { $0.contains("you excluded it") })
            // The runner chose the default shoe: the archive's default is reported, not taken.
            #expect(try ledger.shoes().first { $0.isDefault }?.shoe.name == "Race Flats")
            #expect(notes.contains { $0.contains("you chose the default") })
        }
    }

    @Test("a run the Health app holds too is one run, counted at the archive's distance, in either order; mileage explain names the row")
    func alsoInHealthExport() throws {
        let export = """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="29.5" durationUnit="min" totalDistance="9.95" totalDistanceUnit="km" sourceName="Connect" sourceVersion="4.20" creationDate="2024-03-04 08:10:00 +0100" startDate="2024-03-04 07:30:05 +0100" endDate="2024-03-04 08:00:00 +0100"/>
            </HealthData>

            """
        for archiveFirst in [true, false] {
            try withTemporaryDirectory { folder in
                let ledger = try Self.ledger(folder)
                let xml = folder + "/export.xml"
                try export.write(toFile: xml, atomically: true, encoding: .utf8)
                let archive = try Self.archive(folder + "/a", .english94)
                let reports = try (archiveFirst ? [archive, xml] : [xml, archive]).map { try ledger.ingest(file: $0) }
                #expect(try Self.kilometres(ledger) == ["Pegasus 40": 14.01255, "Brooks Ghost 15": 5.0005], "archive first: \(archiveFirst)")
                let runs = try ledger.workouts(from: nil, through: nil, unassignedOnly: false).filter(\.isRunning)
                #expect(runs.filter { $0.runOf == nil }.count == 4)
                if !archiveFirst { #expect(reports[1].archive?.runsAlreadyFromElsewhere == 1) }
                let pegasus = try #require(try ledger.shoes().first { $0.shoe.name == "Pegasus 40" })
                let audit = try ShoeAuditDocument(ledger, shoe: ShoeID.text(pegasus.shoe.id))
                #expect(audit.steps.contains { $0.entry.detail.contains("Strava archive a, activities.csv line 2 (activity 1001)") })
                #expect(abs((audit.steps.last?.runningTotal ?? 0) - 14.01255) < 1e-9)
            }
        }
    }

    @Test("a broken activities.csv stops with the file and line named, and nothing appended")
    func brokenIndex() throws {
        let cases: [(String, String)] = [
            ("Activity ID,Activity Date,Activity Name,Activity Type,Distance\n1,\"Jan 1, 2024, 7:00:00 AM\",\"unbalanced,Run,5\n", "line 2"),
            (
                "Activity ID,Activity Date,Activity Name,Activity Type,Distance\n1,\"Jan 1, 2024, 7:00:00 AM\",\"\(String(repeating: "x", count: 10 << 20))\",Run,5\n",
                "line 2"
            ),
            ("Activity ID,When,Activity Name,Activity Type,Distance\n", "Activity Date"),
            ("Activity ID,Activity Date,Activity Name,Activity Type,Distance\n1,yesterday,Run,Run,5\n", "line 2"),
        ]
        for (text, named) in cases {
            try withTemporaryDirectory { folder in
                let ledger = try Self.ledger(folder)
                let before = try ledger.lastSequence()
                let path = try ArchiveWriting.stravaFolder(folder + "/a", files: ["activities.csv": Data(text.utf8)])
                #expect {
                    _ = try ledger.ingest(file: path)
                } throws: { error in
                    "\(error)".contains("activities.csv") && "\(error)".contains(named)
                }
                #expect(try ledger.lastSequence() == before)
            }
        }
    }

    @Test("a zip climbing out of itself, or cut short, is refused before anything is appended")
    func unsafeZips() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Self.ledger(folder)
            let before = try ledger.lastSequence()
            let csv = Data(ArchiveWriting.activitiesCSV(.english94, Self.rows).utf8)
            try ArchiveWriting.zip(folder + "/climb.zip", [("activities.csv", csv), ("../../evil.fit", Data([1, 2, 3]))])
            #expect {
                _ = try ledger.ingest(file: folder + "/climb.zip")
            } throws: { error in
                "\(error)".contains("climbs out")
            }
            try ArchiveWriting.zip(folder + "/whole.zip", [("activities.csv", csv), ("shoes.csv", Data(Self.shoes.utf8))])
            let whole = try Data(contentsOf: URL(fileURLWithPath: folder + "/whole.zip"))
            try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: folder + "/cut.zip"))
            #expect(throws: IngestError.self) { _ = try ledger.ingest(file: folder + "/cut.zip") }
            #expect(try ledger.lastSequence() == before)
        }
    }

    @Test("a damaged activity file keeps its row as a workout and is named in the summary, never a stop")
    func damagedFiles() throws {
        try withTemporaryDirectory { folder in
            let gpx = Data(
                """
                <?xml version="1.0"?><gpx version="1.1" creator="Strava"><trk><trkseg>
                <trkpt lat="52.5" lon="13.4"><time>2024-03-04T06:30:00Z</time></trkpt>
                <trkpt lat="52.6" lon="13.4"><time>2024-03-04T07:00:00Z</time></trkpt>
                </trkseg></trk></gpx>
                """.utf8)
            var rows = Self.rows
            rows[0].file = "activities/9001.gpx.gz"
            rows[1].file = "activities/9002.fit.gz"
            rows[3].file = "#error#"
            let whole = ArchiveWriting.gzip(gpx)
            let path = try ArchiveWriting.stravaFolder(
                folder + "/a",
                files: [
                    "activities.csv": Data(ArchiveWriting.activitiesCSV(.english94, rows).utf8), "shoes.csv": Data(Self.shoes.utf8),
                    "activities/9001.gpx.gz": whole, "activities/9002.fit.gz": whole.prefix(whole.count - 12),
                ])
            let ledger = try Self.ledger(folder)
            let report = try ledger.ingest(file: path)
            let archive = try #require(report.counts.archive)
            #expect(archive.filesRead == 1)
            #expect(archive.unreadFileCount == 2)
            #expect(archive.unreadFiles.contains { $0.hasPrefix("activities/9002.fit.gz") })
            #expect(archive.unreadFiles.contains { $0.contains("#error#") })
            #expect(report.counts.workouts == 6)
            #expect(try Self.kilometres(ledger) == ["Pegasus 40": 14.01255, "Brooks Ghost 15": 5.0005])
            // The run with its track takes the file's times, the archive's distance.
            let first = try #require(try ledger.workouts(from: nil, through: nil, unassignedOnly: false).min { $0.start < $1.start })
            #expect(first.end.millisecondsSince1970 - first.start.millisecondsSince1970 == 1_800_000)
            #expect(first.distanceMeters == 10_012.3)
        }
    }

    @Test("the real archives: the 2020 rack with its two unnamed Brooks shoes, runs on gear named by id only until the runner says which")
    func realArchives() throws {
        guard let fixtures = fixturesFolder() else { return }
        try withTemporaryDirectory { folder in
            let ledger = try Self.ledger(folder)
            let report = try ledger.ingest(file: fixtures + "/strava/peloton-tcx")
            #expect(try Self.kilometres(ledger) == ["Brooks Levitate 2": 0, "Brooks Ghost 11": 0])
            #expect(report.counts.workouts == 162)
            #expect(report.counts.archive?.runs == 47)
            #expect(report.archive?.notes.filter { $0.contains("--shoe 4460292=RACK_NAME") || $0.contains("--shoe 4460297=RACK_NAME") }.count == 2)
            var options = IngestOptions()
            options.shoeNames = ["4460292": "Brooks Ghost 11", "4460297": "Brooks Levitate 2"]
            let said = try ledger.ingest(file: fixtures + "/strava/peloton-tcx", options: options)
            #expect(said.appended == said.archive?.runsPutOnShoes)
            // The sums of the metres column (and the one run with none: its 0 km).
            let km = try Self.kilometres(ledger)
            #expect(abs((km["Brooks Ghost 11"] ?? 0) - 59.339500061035156) < 1e-6)
            #expect(abs((km["Brooks Levitate 2"] ?? 0) - 102.984099609375) < 1e-6)
            #expect(try ledger.verify().isIntact)
        }
        try withTemporaryDirectory { folder in
            let ledger = try Self.ledger(folder)
            let report = try ledger.ingest(file: fixtures + "/strava/geo-activity-playground")
            #expect(report.counts.archive?.filesRead == 1)
            let run = try #require(try ledger.workouts(from: nil, through: nil, unassignedOnly: false).first)
            #expect(run.isRunning && run.distanceMeters == 3_322.949951171875)
        }
    }
}
