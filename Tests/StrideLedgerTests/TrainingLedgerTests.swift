import Foundation
import StrideContract
import StrideEvents
import StrideTestSupport
import Testing
import TrainingLog

@testable import StrideLedger

/// The training log over a real ledger: streams kept and read once, runs counted once, settings
/// that reach back only as far as they say, a late run that moves only its week and the load
/// from its day on, and the same figures after a rebuild.
@Suite("The training log in the ledger")
struct TrainingLedgerTests {
    static let now = Timestamp(millisecondsSince1970: 1_735_689_600_000)  // 2025-01-01T00:00:00Z

    func ledger(_ folder: String) throws -> Ledger {
        try Ledger.create(at: folder + "/ledger", timeZone: "Europe/Paris", clock: FixedClock(Self.now))
    }

    /// A TCX run: a trackpoint a second for `seconds`, at `speed` m/s, heart rate `heartRate`.
    static func tcx(start: String, seconds: Int, speed: Double, heartRate: Int?) -> String {
        let begin = ISO8601.parse(start)!
        var points = ""
        for second in 0...seconds {
            let time = ISO8601.format(begin.adding(milliseconds: Int64(second) * 1000), offsetSeconds: 0)
            let pulse = heartRate.map { "<HeartRateBpm><Value>\($0)</Value></HeartRateBpm>" } ?? ""
            points += "<Trackpoint><Time>\(time)</Time><DistanceMeters>\(Double(second) * speed)</DistanceMeters>\(pulse)</Trackpoint>\n"
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">
            <Activities><Activity Sport="Running"><Id>\(start)</Id>
            <Lap StartTime="\(start)"><TotalTimeSeconds>\(seconds)</TotalTimeSeconds><DistanceMeters>\(Double(seconds) * speed)</DistanceMeters>
            <Track>
            \(points)</Track></Lap>
            <Creator><Name>Test Watch</Name><UnitId>1</UnitId></Creator>
            </Activity></Activities></TrainingCenterDatabase>
            """
    }

    @discardableResult
    func ingest(_ ledger: Ledger, _ folder: String, _ name: String, _ text: String) throws -> FileIngestReport {
        let path = folder + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return try ledger.ingest(file: path)
    }

    // TRIMP of a run at a steady heart rate, by hand: HRr = (150 − 50) / (190 − 50) = 0.714286;
    // a minute is worth 0.714286 × 0.64 × e^(1.92 × 0.714286) = 0.457143 × e^1.371429
    // = 0.457143 × 3.940942 = 1.801574; 1,000 s (each of 1,000 readings holds 1 s; the last
    // holds nothing) are 16.6667 minutes: 30.026.
    static let trimpOf1000sAt150 = 30.026

    @Test("a run's stream gives its efforts, zones and TRIMP; the same file again appends nothing")
    func streamFigures() throws {
        try withTemporaryDirectory { folder in
            let ledger = try ledger(folder)
            try ledger.setAthlete(maximumHeartRate: 190, restingHeartRate: 50, from: nil)
            let first = try ingest(ledger, folder, "run.tcx", Self.tcx(start: "2024-03-05T07:00:00Z", seconds: 1000, speed: 4, heartRate: 150))
            #expect(first.appended == 2 && first.counts.streams == 1 && first.counts.streamReadings == 1001)
            #expect(
                try ingest(ledger, folder, "again.tcx", Self.tcx(start: "2024-03-05T07:00:00Z", seconds: 1000, speed: 4, heartRate: 150)).appended
                    == 0)
            let view = try ledger.trainingView()
            let run = try #require(view.runs.first)
            #expect(view.runs.count == 1)
            #expect(abs(run.trimp - Self.trimpOf1000sAt150) < 0.001)
            // 150 / 190 = 79 %: zone 3, all 1,000 s.
            #expect(run.secondsInZones == [0, 0, 1000, 0, 0])
            // 4 m/s: 400 m in 100 s, 1 km in 250 s; 4 km in all, so no mile beyond 1,609 m… yes, 1 mile in 402.3 s.
            let efforts = TrainingLog.bestEfforts(view.runs)
            #expect(efforts.map(\.distance.name) == ["400m", "1k", "1mi"])
            #expect(abs(efforts[0].seconds - 100) < 0.01 && abs(efforts[1].seconds - 250) < 0.01 && abs(efforts[2].seconds - 402.336) < 0.01)
            #expect(run.movingSeconds == 1000)
            // The best 1 km explained down to its readings: 250 one-second readings and the end's.
            let explained = try TrainingExplainDocument(ledger, try .init(kind: "effort", name: "1k", year: nil), TrainingQuery())
            let readings = try #require(explained.effortReadings)
            #expect(readings.within == 251)
            #expect(readings.atEnd.last.map { ($0.metres ?? 0) - (readings.atStart.first?.metres ?? 0) } ?? 0 >= 1000)
            #expect(explained.runs.first?.facts?.sequence != nil)
        }
    }

    @Test("the same run from a watch's file and from the Health app, in either order, is one run, with the file's stream")
    func sameRunTwoSources() throws {
        for fileFirst in [true, false] {
            try withTemporaryDirectory { folder in
                let ledger = try ledger(folder)
                let health =
                    #"{"activity":"HKWorkoutActivityTypeRunning","start":"2024-03-05T07:00:00Z","end":"2024-03-05T07:16:40Z","distance":4.0,"distanceUnit":"km","source":"Health","id":"h-run"}"#
                    + "\n"
                let file = Self.tcx(start: "2024-03-05T07:00:00Z", seconds: 1000, speed: 4, heartRate: 150)
                if fileFirst {
                    try ingest(ledger, folder, "run.tcx", file)
                    try ingest(ledger, folder, "run.ndjson", health)
                } else {
                    try ingest(ledger, folder, "run.ndjson", health)
                    try ingest(ledger, folder, "run.tcx", file)
                }
                let runs = try ledger.trainingView().runs
                #expect(runs.count == 1, "file first: \(fileFirst)")
                #expect(runs.first?.facts?.readings == 1001, "file first: \(fileFirst)")
                #expect(runs.first?.copies.count == 1, "file first: \(fileFirst)")
            }
        }
    }

    @Test("a late run (ingested today, run in 2019) changes its week and the load from its day on, nothing else")
    func lateRun() throws {
        try withTemporaryDirectory { folder in
            let ledger = try ledger(folder)
            try ledger.setAthlete(maximumHeartRate: 190, restingHeartRate: 50, from: nil)
            try ingest(ledger, folder, "a.tcx", Self.tcx(start: "2019-03-05T07:00:00Z", seconds: 600, speed: 3, heartRate: 140))
            try ingest(ledger, folder, "b.tcx", Self.tcx(start: "2019-03-19T07:00:00Z", seconds: 600, speed: 3, heartRate: 160))
            let before = try ledger.trainingView()
            let weeksBefore = TrainingLog.volume(before.runs, per: .week)
            let loadBefore = TrainingLog.load(before.runs, through: CivilDate(year: 2019, month: 4, day: 30))
            try ingest(ledger, folder, "late.tcx", Self.tcx(start: "2019-03-12T07:00:00Z", seconds: 900, speed: 3.5, heartRate: 170))
            let after = try ledger.trainingView()
            let weeksAfter = TrainingLog.volume(after.runs, per: .week)
            let loadAfter = TrainingLog.load(after.runs, through: CivilDate(year: 2019, month: 4, day: 30))
            #expect(weeksBefore.map(\.period) == ["2019-W10", "2019-W12"])
            #expect(weeksAfter.map(\.period) == ["2019-W10", "2019-W11", "2019-W12"])
            #expect(weeksAfter[0] == weeksBefore[0] && weeksAfter[2] == weeksBefore[1])
            let lateDay = CivilDate(year: 2019, month: 3, day: 12)
            #expect(loadAfter.count == loadBefore.count)
            for (old, new) in zip(loadBefore, loadAfter) {
                if old.date < lateDay { #expect(old == new) } else { #expect(new.fitness > old.fitness) }
            }
            // The day itself: its form is yesterday's, unchanged; its fitness and fatigue grow.
            let day = try #require(loadAfter.first { $0.date == lateDay })
            #expect(day.form == loadBefore.first { $0.date == lateDay }?.form)
        }
    }

    @Test("a setting dated 2023 leaves the 2021 runs as they were; one without a day reaches back to all")
    func settingsOverTime() throws {
        try withTemporaryDirectory { folder in
            let ledger = try ledger(folder)
            try ingest(ledger, folder, "2021.tcx", Self.tcx(start: "2021-06-01T07:00:00Z", seconds: 1000, speed: 3, heartRate: 150))
            try ingest(ledger, folder, "2024.tcx", Self.tcx(start: "2024-06-04T07:00:00Z", seconds: 1000, speed: 3, heartRate: 150))
            try ledger.setAthlete(maximumHeartRate: 190, restingHeartRate: 50, from: nil)
            var trimps = try ledger.trainingView().runs.map(\.trimp)
            #expect(trimps.allSatisfy { abs($0 - Self.trimpOf1000sAt150) < 0.001 })
            try ledger.setAthlete(maximumHeartRate: 170, restingHeartRate: nil, from: CivilDate(year: 2023, month: 1, day: 1))
            let view = try ledger.trainingView()
            trimps = view.runs.map(\.trimp)
            #expect(abs(trimps[0] - Self.trimpOf1000sAt150) < 0.001)
            // 2024: HRr = 100 / 120 = 0.833333; 0.833333 × 0.64 × e^1.6 = 0.533333 × 4.953032 = 2.641617 a minute: 44.027.
            #expect(abs(trimps[1] - 44.027) < 0.001)
            #expect(view.runs[1].maximumHeartRate.value == 170 && view.runs[1].restingHeartRate.value == 50)
            // An undated change replaces the all-time figure only: 2024 stays on its dated one.
            try ledger.setAthlete(maximumHeartRate: 200, restingHeartRate: nil, from: nil)
            let again = try ledger.trainingView().runs
            #expect(again[0].maximumHeartRate.value == 200 && again[1].maximumHeartRate.value == 170)
        }
    }

    @Test("settings out of range, a maximum not above the resting rate, or a day ahead are refused; nothing is appended")
    func refusedSettings() throws {
        try withTemporaryDirectory { folder in
            let ledger = try ledger(folder)
            let last = try ledger.lastSequence()
            #expect(throws: ValueRefusal.self) { try ledger.setAthlete(maximumHeartRate: 300, restingHeartRate: nil, from: nil) }
            #expect(throws: ValueRefusal.self) { try ledger.setAthlete(maximumHeartRate: nil, restingHeartRate: 10, from: nil) }
            #expect(throws: ValueRefusal.self) { try ledger.setAthlete(maximumHeartRate: 110, restingHeartRate: 115, from: nil) }
            #expect(throws: ValueRefusal.self) { try ledger.setAthlete(maximumHeartRate: nil, restingHeartRate: nil, from: nil) }
            #expect(throws: ValueRefusal.self) {
                try ledger.setAthlete(maximumHeartRate: 190, restingHeartRate: nil, from: CivilDate(year: 2025, month: 1, day: 2))
            }
            #expect(try ledger.lastSequence() == last)
        }
    }

    @Test(
        "the settings are checked as a whole: a change is refused when on any day it reaches the maximum would not lie above the resting rate",
        arguments: [
            // (the change already made, the change refused): maximum, resting, from.
            ((105.0 as Double?, nil as Double?, "2024-03-01" as String?), (nil as Double?, 110.0 as Double?, nil as String?)),
            ((105, nil, "2024-03-01"), (nil, 110, "2024-01-01")),
            ((nil, 110, "2024-06-01"), (105, nil, nil)),
        ])
    func settingsAsAWhole(earlier: (Double?, Double?, String?), refused: (Double?, Double?, String?)) throws {
        try withTemporaryDirectory { folder in
            let ledger = try ledger(folder)
            try ledger.setAthlete(maximumHeartRate: 190, restingHeartRate: 50, from: nil)
            try ledger.setAthlete(maximumHeartRate: earlier.0, restingHeartRate: earlier.1, from: earlier.2.flatMap { CivilDate($0) })
            let last = try ledger.lastSequence()
            #expect {
                try ledger.setAthlete(maximumHeartRate: refused.0, restingHeartRate: refused.1, from: refused.2.flatMap { CivilDate($0) })
            } throws: { error in
                "\(error)".contains("the heart-rate reserve would be none")
            }
            #expect(try ledger.lastSequence() == last)
            // Every day keeps a real reserve, so no TRIMP falls to 0.
            let settings = try ledger.trainingView().settings
            for day in ["2023-12-31", "2024-01-01", "2024-03-01", "2024-06-01", "2025-01-01"] {
                let date = try #require(CivilDate(day))
                let maximum = try #require(settings.maximumHeartRate(on: date)?.value)
                let resting = try #require(settings.restingHeartRate(on: date)?.value)
                #expect(maximum > resting, "\(day)")
            }
        }
    }

    @Test("a refusal names the day and the figure that holds there; a resting rate below every maximum it meets is accepted, undated")
    func settingsRefusalNamesTheDay() throws {
        try withTemporaryDirectory { folder in
            let ledger = try ledger(folder)
            try ledger.setAthlete(maximumHeartRate: 150, restingHeartRate: nil, from: CivilDate("2024-01-01"))
            try ledger.setAthlete(maximumHeartRate: nil, restingHeartRate: 110, from: nil)
            #expect(try ledger.trainingView().settings.restingHeartRate(on: try #require(CivilDate("2024-05-01")))?.value == 110)
            #expect {
                try ledger.setAthlete(maximumHeartRate: 105, restingHeartRate: nil, from: CivilDate("2024-03-01"))
            } throws: { error in
                "\(error)".contains(
                    "the maximum heart rate 105 beats a minute is not believable: it must be above the resting heart rate that holds with it from 2024-03-01 (110, set for all time)"
                )
            }
            try ledger.setAthlete(maximumHeartRate: 115, restingHeartRate: nil, from: CivilDate("2024-04-01"))
            #expect {
                try ledger.setAthlete(maximumHeartRate: nil, restingHeartRate: 118, from: CivilDate("2024-05-01"))
            } throws: { error in
                "\(error)".contains(
                    "the resting heart rate 118 beats a minute is not believable: it must be below the maximum heart rate that holds with it from 2024-05-01 (115, set from 2024-04-01)"
                )
            }
        }
    }

    @Test("without settings: the maximum is estimated from the runs, the resting rate assumed, each marked so")
    func estimatedSettings() throws {
        try withTemporaryDirectory { folder in
            let ledger = try ledger(folder)
            try ingest(ledger, folder, "run.tcx", Self.tcx(start: "2024-03-05T07:00:00Z", seconds: 300, speed: 3, heartRate: 172))
            let view = try ledger.trainingView()
            #expect(view.runs[0].maximumHeartRate.value == 172 && view.runs[0].maximumHeartRate.isEstimated)
            #expect(view.runs[0].restingHeartRate.value == AthleteEstimate.assumedResting && view.runs[0].restingHeartRate.isEstimated)
            #expect(view.estimatedMaximum.estimate?.contains("estimated") == true)
        }
    }

    @Test("as of race day, the best 5 km is the best run by then; a rebuild and verify give the same figures")
    func asOfAndRebuild() throws {
        try withTemporaryDirectory { folder in
            let ledger = try ledger(folder)
            try ingest(ledger, folder, "race.tcx", Self.tcx(start: "2024-04-07T08:00:00Z", seconds: 1500, speed: 4, heartRate: 170))
            try ingest(ledger, folder, "later.tcx", Self.tcx(start: "2024-09-01T08:00:00Z", seconds: 1300, speed: 4.5, heartRate: 175))
            let raceDay = try #require(ISO8601.parse("2024-04-07T20:00:00+02:00"))
            let then = TrainingLog.bestEfforts(try ledger.trainingView(asOf: raceDay).runs).first { $0.distance.name == "5k" }
            let now = TrainingLog.bestEfforts(try ledger.trainingView().runs).first { $0.distance.name == "5k" }
            #expect(abs((then?.seconds ?? 0) - 1250) < 0.01)
            #expect(abs((now?.seconds ?? 0) - 5000 / 4.5) < 0.01)
            // As recorded before the later run: the same as of race day.
            let recorded = try ledger.trainingView(asRecordedThrough: 4).runs
            #expect(recorded.count == 1)
            let before = try ledger.trainingView().runs
            #expect(try ledger.rebuild(["training"]) == ["training"])
            #expect(try ledger.trainingView().runs == before)
            #expect(try ledger.verify().isIntact)
            #expect(try ledger.verifyProjections().allSatisfy(\.matches))
        }
    }

    @Test("a ledger that kept no streams gets them when the same files come again, and no run twice")
    func streamsAddedLater() throws {
        try withTemporaryDirectory { folder in
            let path = folder + "/run.tcx"
            try Self.tcx(start: "2024-03-05T07:00:00Z", seconds: 600, speed: 4, heartRate: 150).write(toFile: path, atomically: true, encoding: .utf8)
            // Another ledger reads the file; its workout event alone, as an earlier Stride wrote it.
            let reference = try Ledger.create(at: folder + "/reference", timeZone: "Europe/Paris", clock: FixedClock(Self.now))
            _ = try reference.ingest(file: path)
            let recorded = try #require(try reference.events(from: 1, limit: 100, type: .workoutRecorded).first)
            let old = try ledger(folder)
            _ = try old.append([
                PendingEvent(recorded.event, occurredAt: recorded.occurredAt, entity: recorded.entity, idempotencyKey: recorded.idempotencyKey)
            ])
            #expect(try old.trainingView().runs.first?.facts == nil)
            let again = try old.ingest(file: path)
            #expect(again.appended == 1 && again.duplicates == 1)
            #expect(try old.workouts(from: nil, through: nil, unassignedOnly: false).count == 1)
            #expect(try old.trainingView().runs.first?.facts?.readings == 601)
        }
    }

    @Test("a run whose file has no heart rate takes the watch's heart-rate samples in the Health app during it, not the phone's")
    func heartRateFromHealth() throws {
        try withTemporaryDirectory { folder in
            let ledger = try ledger(folder)
            try ledger.setAthlete(maximumHeartRate: 190, restingHeartRate: 50, from: nil)
            try ingest(ledger, folder, "run.tcx", Self.tcx(start: "2024-03-05T07:00:00Z", seconds: 600, speed: 4, heartRate: nil))
            var lines: [String] = []
            // A watch sample every 5 s at 150 through the run (and one after it); a phone's at 100.
            for second in stride(from: 0, through: 700, by: 5) {
                let time = ISO8601.format(Timestamp(millisecondsSince1970: 1_709_622_000_000 + Int64(second) * 1000), offsetSeconds: 0)
                lines.append(
                    #"{"type":"HKQuantityTypeIdentifierHeartRate","start":"\#(time)","end":"\#(time)","value":150,"unit":"count/min","device":"watch","id":"w\#(second)"}"#
                )
                lines.append(
                    #"{"type":"HKQuantityTypeIdentifierHeartRate","start":"\#(time)","end":"\#(time)","value":100,"unit":"count/min","device":"phone","id":"p\#(second)"}"#
                )
            }
            try ingest(ledger, folder, "samples.ndjson", lines.joined(separator: "\n") + "\n")
            let run = try #require(try ledger.trainingView().runs.first)
            #expect(run.heartRateSource == "health samples")
            // Samples at 0, 5 … 600 s inside the run: 121 readings, 120 holds of 5 s.
            #expect(run.secondsInZones == [0, 0, 600, 0, 0])
            #expect(abs(run.trimp - Self.trimpOf1000sAt150 * 0.6) < 0.001)
        }
    }

    /// A GPX route as the Health app writes it: a point a second due north from 48° N, `metres`
    /// a second (1° of latitude is 111,195 m on the mean sphere).
    static func route(start: Timestamp, seconds: Int, metresPerSecond: Double) -> String {
        var points = ""
        for second in 0...seconds {
            let time = ISO8601.format(start.adding(milliseconds: Int64(second) * 1000), offsetSeconds: 0)
            let latitude = 48 + Double(second) * metresPerSecond / 111_194.93
            points += "<trkpt lon=\"6.0\" lat=\"\(String(format: "%.7f", latitude))\"><ele>300</ele><time>\(time)</time></trkpt>\n"
        }
        return "<?xml version=\"1.0\"?><gpx version=\"1.1\" creator=\"Apple Health Export\"><trk><trkseg>\n\(points)</trkseg></trk></gpx>"
    }

    @Test(
        "the Health app's workout routes become their workouts' streams; a route of no workout is counted, not read; the export again appends nothing"
    )
    func healthRoutes() throws {
        try withTemporaryDirectory { folder in
            let ledger = try ledger(folder)
            let start = try #require(ISO8601.parse("2024-03-05T07:00:00Z"))
            let export = """
                <?xml version="1.0" encoding="UTF-8"?>
                <HealthData locale="en_US">
                 <ExportDate value="2024-03-06 08:00:00 +0000"/>
                 <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="20" durationUnit="min" totalDistance="4.8" totalDistanceUnit="km" sourceName="Apple Watch" sourceVersion="10.3" device="&lt;&lt;HKDevice: 0x1&gt;, name:Apple Watch, model:Watch&gt;" creationDate="2024-03-05 07:21:00 +0000" startDate="2024-03-05 07:00:00 +0000" endDate="2024-03-05 07:20:00 +0000"/>
                </HealthData>
                """
            let zip = folder + "/export.zip"
            try ArchiveWriting.zip(
                zip,
                [
                    ("apple_health_export/export.xml", Data(export.utf8)),
                    // Its route begins 20 s before the workout (the GPS warming up).
                    (
                        "apple_health_export/workout-routes/route_2024-03-05_8.00am.gpx",
                        Data(Self.route(start: start.adding(milliseconds: -20_000), seconds: 1220, metresPerSecond: 4).utf8)
                    ),
                    (
                        "apple_health_export/workout-routes/route_2023-01-01_9.00am.gpx",
                        Data(Self.route(start: start.adding(milliseconds: -400 * 86_400_000), seconds: 60, metresPerSecond: 3).utf8)
                    ),
                ])
            let first = try ledger.ingest(file: zip)
            #expect(first.counts.workouts == 1 && first.counts.streams == 1)
            #expect(first.counts.notRead["workout routes of no workout in the export"] == 1)
            let run = try #require(try ledger.trainingView().runs.first)
            let facts = try #require(run.facts)
            // From the workout's start through its end: 1,201 points, one a second.
            #expect(facts.readings == 1201 && facts.seconds == 1200)
            // The track's length from the workout's start: 4 m a second; 400 m in 100 s.
            let efforts = TrainingLog.bestEfforts([run])
            #expect(efforts.first.map { abs($0.seconds - 100) < 0.2 } == true)
            #expect(try ledger.ingest(file: zip).appended == 0)
        }
    }
}
