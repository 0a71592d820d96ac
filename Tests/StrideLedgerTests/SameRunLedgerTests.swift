import Foundation
import ShoeMileage
import StrideContract
import StrideEvents
import StrideLedger
import StrideTestSupport
import Testing

/// One run recorded several ways — a watch's FIT file, Garmin Connect's copy in an Apple
/// Health export, a GPX track, an app's line — is one run on one shoe, whatever the order the
/// copies arrive in, with the preferred copy's distance; the audit shows each step.
@Suite("One run, counted once")
struct SameRunLedgerTests {
    /// A ledger in Paris whose default shoe predates every run here.
    static func ledger(_ folder: String) throws -> Ledger {
        let ledger = try Ledger.create(
            at: folder + "/ledger", timeZone: "Europe/Paris", clock: FixedClock(Timestamp(secondsSince1970: 1_900_000_000)))
        try ledger.registerShoe(
            name: "Pegasus", brand: nil, startKilometers: 0, goalKilometers: 800, makeDefault: true, at: ISO8601.parse("2015-01-01T00:00:00Z"))
        return ledger
    }

    static func write(_ text: String, _ name: String, in folder: String) throws -> String {
        try text.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8)
        return folder + "/" + name
    }

    /// The fenix2 run of the FIT fixture (2015-08-15 14:45:08Z, 2,832 s, 9,008.22 m) as Garmin
    /// Connect writes it to Apple Health: started two seconds later, 8.99 km.
    static let connectExport = """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="47.2" durationUnit="min" totalDistance="8.99" totalDistanceUnit="km" sourceName="Connect" sourceVersion="4.20" creationDate="2015-08-15 18:00:00 +0200" startDate="2015-08-15 16:45:10 +0200" endDate="2015-08-15 17:32:20 +0200"/>
        </HealthData>

        """

    /// A phone's GPX track of the same run, started a minute late: ten points northwards.
    static let track: String = {
        var points = ""
        for index in 0...10 {
            let latitude = 48.80 + Double(index) * 0.0078
            let minute = 46 + index * 4
            let time = String(format: "2015-08-15T%02d:%02d:00Z", 14 + minute / 60, minute % 60)
            points += "<trkpt lat=\"\(latitude)\" lon=\"2.35\"><time>\(time)</time></trkpt>\n"
        }
        return "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"Phone\"><trk><trkseg>\n\(points)</trkseg></trk></gpx>\n"
    }()

    /// An app's line for the same run (NDJSON): 9.1 km.
    static let appLine =
        #"{"activity":"HKWorkoutActivityTypeRunning","start":"2015-08-15T16:45:00+02:00","end":"2015-08-15T17:32:00+02:00","distance":9.1,"distanceUnit":"km","source":"Some App","device":"phone","id":"app-run"}"#
        + "\n"

    /// Every order of a list.
    static func orders<T>(_ items: [T]) -> [[T]] {
        guard items.count > 1 else { return [items] }
        return items.indices.flatMap { index in
            var rest = items
            let first = rest.remove(at: index)
            return orders(rest).map { [first] + $0 }
        }
    }

    /// Ingests the files in order and checks: one run on the shoe, at `kilometers`, the audit
    /// adding up to the shoe's figure and naming the copies not counted.
    static func check(_ files: [String], in folder: String, kilometers: Double, copies: Int) throws {
        let ledger = try Self.ledger(folder)
        for file in files { _ = try ledger.ingest(file: file) }
        let shoe = try #require(try ledger.shoes().first)
        #expect(shoe.shoe.runs == 1, "\(files.map { ($0 as NSString).lastPathComponent })")
        #expect(abs(shoe.shoe.kilometers - kilometers) < 0.0001, "\(files.map { ($0 as NSString).lastPathComponent }): \(shoe.shoe.kilometers)")
        let audit = try ShoeAuditDocument(ledger, shoe: ShoeID.text(shoe.shoe.id))
        #expect(abs((audit.steps.last?.runningTotal ?? -1) - shoe.shoe.kilometers) < 0.0001)
        #expect(audit.steps.contains { $0.entry.detail.contains("not counted") })
        let workouts = try ledger.workouts(from: nil, through: nil, unassignedOnly: false)
        #expect(workouts.count == copies + 1)
        #expect(workouts.filter { $0.runOf == nil }.count == 1)
        #expect(workouts.filter { $0.shoe != nil }.count == 1)
        // A rebuild folds the same decisions from the log.
        _ = try ledger.rebuild()
        #expect(abs((try ledger.shoes().first?.shoe.kilometers ?? -1) - kilometers) < 0.0001)
    }

    @Test(
        "a FIT file, Connect's copy in an Apple Health export and a GPX track, in every order: one run at the FIT file's 9.008 km",
        .enabled(if: fixturesFolder() != nil))
    func fitExportTrack() throws {
        let fit = try #require(fixturesFolder()) + "/fit/dtcooper__python-fitparse__activity-small-fenix2-run.fit"
        for order in Self.orders(["fit", "export", "gpx"]) {
            try withTemporaryDirectory { folder in
                let files = try order.map { kind -> String in
                    switch kind {
                    case "fit": return fit
                    case "export": return try Self.write(Self.connectExport, "export.xml", in: folder)
                    default: return try Self.write(Self.track, "run.gpx", in: folder)
                    }
                }
                try Self.check(files, in: folder, kilometers: 9.00822, copies: 2)
            }
        }
    }

    @Test("an Apple Health export, an app's line and a GPX track, in every order: one run at Apple Health's 8.99 km")
    func exportAppTrack() throws {
        for order in Self.orders(["export", "app", "gpx"]) {
            try withTemporaryDirectory { folder in
                let files = try order.map { kind -> String in
                    switch kind {
                    case "export": return try Self.write(Self.connectExport, "export.xml", in: folder)
                    case "app": return try Self.write(Self.appLine, "app.ndjson", in: folder)
                    default: return try Self.write(Self.track, "run.gpx", in: folder)
                    }
                }
                try Self.check(files, in: folder, kilometers: 8.99, copies: 2)
            }
        }
    }

    @Test("two short runs back to back are two runs; a walk during a run is not the run")
    func backToBack() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Self.ledger(folder)
            let lines = [
                #"{"activity":"HKWorkoutActivityTypeRunning","start":"2024-05-01T10:00:00+02:00","end":"2024-05-01T10:20:00+02:00","distance":3,"distanceUnit":"km","source":"Watch","device":"watch","id":"warm-up"}"#,
                #"{"activity":"HKWorkoutActivityTypeRunning","start":"2024-05-01T10:20:00+02:00","end":"2024-05-01T10:40:00+02:00","distance":5,"distanceUnit":"km","source":"Watch","device":"watch","id":"race"}"#,
                #"{"activity":"HKWorkoutActivityTypeWalking","start":"2024-05-01T10:00:00+02:00","end":"2024-05-01T10:40:00+02:00","distance":8,"distanceUnit":"km","source":"Phone","device":"phone","id":"walk"}"#,
            ]
            _ = try ledger.ingest(file: try Self.write(lines.joined(separator: "\n") + "\n", "runs.ndjson", in: folder))
            let shoe = try #require(try ledger.shoes().first)
            #expect(shoe.shoe.runs == 2)
            #expect(abs(shoe.shoe.kilometers - 8) < 0.0001)
            #expect(try ledger.workouts(from: nil, through: nil, unassignedOnly: false).allSatisfy { $0.runOf == nil })
        }
    }

    @Test("the runner's word wins: `different` splits a run the rule joined, `same` joins what it missed, and the rule does not undo either")
    func runnerDecides() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Self.ledger(folder)
            _ = try ledger.ingest(file: try Self.write(Self.connectExport, "export.xml", in: folder))
            _ = try ledger.ingest(file: try Self.write(Self.track, "run.gpx", in: folder))
            let workouts = try ledger.workouts(from: nil, through: nil, unassignedOnly: false)
            let export = try #require(workouts.first { $0.sourceName == "Connect" })
            let track = try #require(workouts.first { $0.sourceName != "Connect" })
            #expect(track.runOf == export.id)
            let exportID = Ledger.workoutID(export.id)
            let trackID = Ledger.workoutID(track.id)

            try ledger.decideSameRun(trackID, exportID, isSameRun: false, at: nil)
            let split = try ledger.workouts(from: nil, through: nil, unassignedOnly: false)
            #expect(split.allSatisfy { $0.runOf == nil })
            #expect(split.first { $0.id == track.id }?.shoe == nil)
            #expect(abs((try ledger.shoes().first?.shoe.kilometers ?? 0) - 8.99) < 0.0001)
            #expect(throws: ShoeError.self) { try ledger.decideSameRun(exportID, trackID, isSameRun: false, at: nil) }

            // The track on a shoe of its own, then said to be the same run after all: counted
            // once, under the run that was on a shoe first... both were: the later leaves its shoe.
            try ledger.registerShoe(name: "Trail", brand: nil, startKilometers: 0, goalKilometers: nil, makeDefault: false, at: nil)
            try ledger.assign(workout: trackID, to: "Trail", at: nil)
            try ledger.decideSameRun(trackID, exportID, isSameRun: true, at: nil)
            let shoes = try ledger.shoes()
            #expect(shoes.map(\.shoe.runs).reduce(0, +) == 1)
            #expect(abs(shoes.map(\.shoe.kilometers).reduce(0, +) - 8.99) < 0.0001)
            for view in shoes {
                let audit = try ShoeAuditDocument(ledger, shoe: ShoeID.text(view.shoe.id))
                #expect(abs((audit.steps.last?.runningTotal ?? 0) - view.shoe.kilometers) < 0.0001, "\(view.shoe.name)")
            }
            #expect(throws: ShoeError.self) { try ledger.decideSameRun(exportID, trackID, isSameRun: true, at: nil) }
        }
    }
}
