import Foundation
import StrideTestSupport
import Testing

/// Every `--json` document of the contract (DESIGN.md §8), byte for byte, on a small ledger
/// made with a fixed clock: what the CLI prints today is what clients (and the HTTP API)
/// rely on. The expected documents live in `Contract/`; after a deliberate change of the
/// contract, run the tests once with `STRIDE_RECORD_CONTRACT=1` to write them again, and
/// read the diff.
@Suite("The JSON contract, byte for byte")
struct ContractSnapshotTests {
    /// The executable under test (`STRIDE_CONTRACT_BINARY` names another, to compare builds).
    let stride = ProcessInfo.processInfo.environment["STRIDE_CONTRACT_BINARY"] ?? builtExecutable("stride")
    let isRecording = ProcessInfo.processInfo.environment["STRIDE_RECORD_CONTRACT"] == "1"
    let expectedFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Contract").path

    static let input = [
        #"{"type":"HKQuantityTypeIdentifierStepCount","start":"2024-05-01T08:00:00+02:00","end":"2024-05-01T08:10:00+02:00","value":1200,"unit":"count","device":"phone","id":"s-1"}"#,
        #"{"type":"HKQuantityTypeIdentifierStepCount","start":"2024-05-01T08:05:00+02:00","end":"2024-05-01T08:15:00+02:00","value":900,"unit":"count","device":"watch","id":"s-2"}"#,
        #"{"type":"HKQuantityTypeIdentifierHeartRate","start":"2024-05-01T09:00:00+02:00","end":"2024-05-01T09:00:00+02:00","value":62,"unit":"count/min","device":"watch","id":"h-1"}"#,
        #"{"type":"HKQuantityTypeIdentifierRestingHeartRate","start":"2024-05-01T07:00:00+02:00","end":"2024-05-01T07:00:00+02:00","value":55,"unit":"count/min","device":"watch","id":"r-1"}"#,
        #"{"type":"HKCategoryTypeIdentifierSleepAnalysis","start":"2024-04-30T23:00:00+02:00","end":"2024-05-01T06:00:00+02:00","value":"HKCategoryValueSleepAnalysisAsleepCore","device":"watch","id":"z-1"}"#,
        #"{"activity":"HKWorkoutActivityTypeRunning","start":"2024-05-01T07:00:00+02:00","end":"2024-05-01T07:30:00+02:00","distance":5.02,"distanceUnit":"km","source":"Strava"}"#,
        #"{"activity":"HKWorkoutActivityTypeRunning","start":"2024-05-02T07:00:00+02:00","end":"2024-05-02T07:40:00+02:00","distance":6.5,"distanceUnit":"km","source":"Strava"}"#,
        #"{"activity":"HKWorkoutActivityTypeCycling","start":"2024-05-03T07:00:00+02:00","end":"2024-05-03T08:00:00+02:00","distance":20,"distanceUnit":"km","source":"Strava"}"#,
    ].joined(separator: "\n")

    /// A watch's run of ten minutes on 2024-05-08 (a Wednesday): a point every 5 s, 15 m apart
    /// (3 m/s, 1.8 km), its heart rate rising from 120 to 180, so that the efforts over 400 m,
    /// 1 km and a mile and every zone but the first are pinned with a stream behind them.
    static let run: String = {
        var points = ""
        for index in 0...120 {
            let seconds = index * 5
            let time = String(format: "2024-05-08T05:%02d:%02dZ", seconds / 60, seconds % 60)
            let latitude = String(format: "%.6f", 48.85 + Double(index) * 15 / 111_195)
            points += """
                <trkpt lat="\(latitude)" lon="2.350000"><ele>35.0</ele><time>\(time)</time><extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>\(120 + index / 2)</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions></trkpt>

                """
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="Forerunner 255" xmlns="http://www.topografix.com/GPX/1/1" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">
            <trk><name>Morning Run</name><type>running</type><trkseg>
            \(points)</trkseg></trk>
            </gpx>

            """
    }()

    @Test("each read command's --json document is what the contract's snapshot holds")
    func documents() throws {
        try withTemporaryDirectory { folder in
            let ledger = folder + "/ledger"
            // The clock of each command: the ledger begun on 2024-04-01, a day lived on 2024-05-01
            // (a check-in and entries earn for today), the reads on 2024-06-01.
            // Run in the folder: a file named relative to it is recorded (a stream's source) the same
            // whichever temporary folder the test has.
            func run(_ arguments: [String], at time: String = "2024-06-01T12:00:00Z") throws -> String {
                let result = try runProcess(stride, ["--ledger", ledger] + arguments, environment: ["STRIDE_FIXED_TIME": time], in: folder)
                #expect(result.status == 0, "stride \(arguments.joined(separator: " ")): \(result.standardError)")
                return result.standardOutput
            }
            let input = folder + "/samples.ndjson"
            try Self.input.write(toFile: input, atomically: true, encoding: .utf8)
            _ = try run(["init", "--time-zone", "Europe/Paris"], at: "2024-04-01T06:00:00Z")
            _ = try run(["shoes", "add", "Pegasus 40", "--brand", "Nike", "--goal-km", "10", "--default", "--at", "2024-04-01T08:00:00+02:00"])
            _ = try run(["shoes", "add", "Novablast", "--at", "2024-04-01T08:00:00+02:00"])
            var documents: [(name: String, text: String)] = []
            // Ingested two days after the runs: news, each told in the outbox.
            let ingest = try run(["ingest", "--json", input], at: "2024-05-03T12:00:00Z")
                .replacingOccurrences(of: folder, with: "FOLDER")
                .replacingOccurrences(of: #""seconds":[0-9.e-]+"#, with: #""seconds":0"#, options: .regularExpression)
            documents.append(("ingest", ingest))
            let workouts = try run(["workouts", "--json"])
            documents.append(("workouts", workouts))
            let firstRun = try #require(workouts.range(of: #"[0-9a-f]{16}"#, options: .regularExpression).map { String(workouts[$0]) })
            _ = try run(["assign", firstRun, "Novablast", "--at", "2024-05-05T08:00:00+02:00"])
            _ = try run(["checkin"], at: "2024-05-01T08:00:00+02:00")
            for entry in 1...5 { _ = try run(["journal", "add", "entry \(entry)"], at: "2024-05-01T1\(entry):00:00+02:00") }
            _ = try run(["points", "spend", "3", "--reason", "a missed day", "--reopen", "2024-04-30"], at: "2024-05-02T08:00:00+02:00")
            _ = try run(["athlete", "set", "--max-hr", "190", "--resting-hr", "50"], at: "2024-05-02T09:00:00+02:00")
            _ = try run(["athlete", "set", "--max-hr", "186", "--from", "2024-05-02"], at: "2024-05-02T09:10:00+02:00")
            // A run with its stream, ingested the day it was run: efforts and zones have a shape.
            let track = folder + "/run.gpx"
            try Self.run.write(toFile: track, atomically: true, encoding: .utf8)
            _ = try run(["ingest", "run.gpx"], at: "2024-05-08T12:00:00Z")
            let reads: [(String, [String])] = [
                ("shoes", ["shoes", "list"]), ("mileage", ["mileage"]), ("mileage-as-of", ["mileage", "--as-of", "2024-05-01T12:00:00+02:00"]),
                ("mileage-explain", ["mileage", "explain", "Pegasus 40"]), ("workouts-unassigned", ["workouts", "--unassigned"]),
                ("notifications", ["notifications"]), ("daily", ["daily", "--from", "2024-04-30", "--to", "2024-05-03"]),
                ("points", ["points"]), ("points-history", ["points", "history"]), ("journal", ["journal", "list"]),
                ("log", ["log", "--limit", "12"]), ("log-by-type", ["log", "--type", "workout.assigned"]),
                ("replay", ["replay", "--until", "12"]), ("verify", ["verify"]),
                ("daily-explain", ["daily", "explain", "2024-05-01"]), ("samples-withdrawn", ["samples", "withdrawn"]),
                ("training-weeks", ["training", "weeks"]), ("training-months", ["training", "months"]),
                ("training-efforts", ["training", "efforts"]), ("training-zones", ["training", "zones"]),
                ("training-load", ["training", "load", "--from", "2024-04-30", "--to", "2024-05-04"]),
                ("training-explain", ["training", "explain", "week", "2024-W18"]),
                ("training-explain-effort", ["training", "explain", "effort", "1k"]), ("athlete", ["athlete", "show"]),
                ("training-shoes", ["training", "shoes"]),
            ]
            for (name, arguments) in reads { documents.append((name, try run(arguments + ["--json"]))) }
            let stats = try run(["stats", "--json"]).replacingOccurrences(of: #""bytes":[0-9]+"#, with: #""bytes":0"#, options: .regularExpression)
            documents.append(("stats", stats))
            for (name, text) in documents {
                let path = expectedFolder + "/" + name + ".json"
                if isRecording {
                    try FileManager.default.createDirectory(atPath: expectedFolder, withIntermediateDirectories: true)
                    try text.write(toFile: path, atomically: true, encoding: .utf8)
                } else {
                    let expected = try String(contentsOfFile: path, encoding: .utf8)
                    #expect(text == expected, "\(name): the document differs from Contract/\(name).json")
                }
            }
        }
    }
}
