import ArgumentParser
import Foundation
import StrideContract
import StrideDashboard
import StrideEvents
import StrideLedger
import TrainingLog

/// The training log (issue 35): the first build of its projection over every stream, a new
/// run's stream folded inside its append, the `training` documents and the Training page, and
/// the streams' bytes per second of running — on real files first, then on a ten-year ledger.
struct TrainingBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "training",
        abstract: "Time the training log: its first build, a new run's update, its documents and page; the streams' bytes.",
        discussion: """
            The real ledger: every FIT and TCX fixture and the real Strava archive (peloton-tcx), from \
            --fixtures. The ten-year ledger: `stride-sample --days 3650` (an export of a watch and a phone) \
            and a Strava archive of --activities runs and rides over the same years, each with its FIT file \
            recorded second by second (made once, kept in the working folder). The first build is `stride \
            rebuild training`, a whole process; the update is `stride ingest` of one more run's FIT file, a \
            whole process, and the stream's fold alone, in the process; the documents and the page are read \
            in the process as the server reads them. Medians of --runs. Target: the documents and the page \
            under 50 ms on ten years.
            """)

    @OptionGroup var options: BenchOptions

    @Option(help: "The shared fixtures folder (the real files); left out when absent.")
    var fixtures = "../shared/fixtures"

    @Option(help: "Activities in the ten-year ledger's Strava archive (one every 1.5 days on average).")
    var activities = 2_400

    @Option(help: "Days of the ten-year ledger's export.")
    var days = 3_650

    func run() throws {
        let (stride, sample) = try builtTools()
        try FileManager.default.createDirectory(atPath: options.work, withIntermediateDirectories: true)
        var rows: [[String]] = []
        if let real = try realLedger(stride) {
            rows += try measure("real files", ledger: real, stride: stride, sample: sample)
        }
        let tenYears = try tenYearLedger(stride, sample)
        rows += try measure("ten years", ledger: tenYears, stride: stride, sample: sample)
        print("")
        printTable(["ledger", "what", "median", "detail"], rows)
    }

    /// The real files in a fresh ledger.
    private func realLedger(_ stride: String) throws -> String? {
        let folder = (fixtures as NSString).standardizingPath
        guard FileManager.default.fileExists(atPath: folder + "/fit") else {
            print("No fixtures at \(folder): the real ledger is left out.")
            return nil
        }
        let ledger = options.work + "/training-real.ledger"
        try? FileManager.default.removeItem(atPath: ledger)
        guard try runChild(stride, ["--ledger", ledger, "init", "--time-zone", "Europe/Paris"]).status == 0 else { throw BenchFailure("init failed") }
        let files = try ["fit", "tcx"].flatMap { kind in
            try FileManager.default.contentsOfDirectory(atPath: "\(folder)/\(kind)").filter { $0.hasSuffix(".\(kind)") }.sorted().map {
                "\(folder)/\(kind)/\($0)"
            }
        }
        for file in files + ["\(folder)/strava/peloton-tcx"] { _ = try runChild(stride, ["--ledger", ledger, "ingest", "--quiet", file]) }
        return ledger
    }

    /// The ten-year ledger, made once.
    private func tenYearLedger(_ stride: String, _ sample: String) throws -> String {
        try trainingLedger(work: options.work, days: days, activities: activities, stride: stride, sample: sample)
    }

    private func measure(_ name: String, ledger path: String, stride: String, sample: String) throws -> [[String]] {
        var rows: [[String]] = []
        // The first build: the projection dropped and folded from the first event.
        var rebuilds: [Double] = []
        for _ in 0..<options.runs {
            let run = try runChild(stride, ["--ledger", path, "rebuild", "training"])
            guard run.status == 0 else { throw BenchFailure("rebuild failed: \(run.errorOutput.prefix(300))") }
            rebuilds.append(run.seconds)
        }
        let opened = try Ledger.open(at: path)
        let (streams, readings, seconds, bytes) = try streamFigures(opened)
        rows.append([
            name, "first build of the projection (stride rebuild training, whole process)", String(format: "%.2f s", median(rebuilds)),
            "\(streams) streams, \(readings) readings",
        ])
        rows.append([
            name, "streams on disk per second of running", String(format: "%.1f B/s", Double(bytes) / max(seconds, 1)),
            String(format: "%.1f MB over %.0f h (envelope and payload)", Double(bytes) / 1e6, seconds / 3600),
        ])
        // A new run: a FIT file never seen, ingested whole, then its stream's fold alone.
        var ingests: [Double] = []
        var folds: [Double] = []
        var newReadings = 0
        for index in 0..<options.runs {
            let folder = options.work + "/training-new-\(index)"
            try? FileManager.default.removeItem(atPath: folder)
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let runStart = String(format: "2025-%02d-%02d", 1 + index % 12, 1 + (index * 7 + Int(Date().timeIntervalSince1970) % 20) % 27)
            let (archive, fits) = (folder + "/a.zip", folder + "/one.zip")
            guard
                try runChild(
                    sample, ["archive", archive, "--activities", "1", "--start", runStart, "--seed", String(1000 + index), "--fit-zip", fits]
                ).status == 0
            else { throw BenchFailure("stride-sample archive failed") }
            let run = try runChild(stride, ["--ledger", path, "ingest", "--quiet", fits])
            guard run.status == 0 else { throw BenchFailure("ingest of one run failed: \(run.errorOutput.prefix(300))") }
            ingests.append(run.seconds)
            // The run's stream, and its fold alone (the median of five, warm).
            let ledger = try Ledger.open(at: path)
            let lastSequence = try ledger.lastSequence()
            if let recorded = try ledger.events(from: lastSequence > 20 ? lastSequence - 20 : 1, limit: 100, type: .workoutStreamRecorded).last,
                case .workoutStreamRecorded(let stream) = recorded.event
            {
                var times: [Double] = []
                for _ in 0..<6 {
                    let began = monotonicSeconds()
                    _ = RunFacts(stream.stream, sequence: recorded.sequence, source: stream.source)
                    times.append(monotonicSeconds() - began)
                }
                folds.append(median(Array(times.dropFirst())))
                newReadings = stream.stream.readings.count
            }
            try? FileManager.default.removeItem(atPath: folder)
        }
        rows.append([name, "a new run's FIT file ingested (whole process)", String(format: "%.0f ms", median(ingests) * 1000), ""])
        rows.append([
            name, "its stream folded into the training log (in the append)", String(format: "%.2f ms", median(folds) * 1000),
            "\(newReadings) readings",
        ])
        // The documents and the page, as the server reads them.
        let ledger = try Ledger.open(at: path)
        let query = TrainingQuery()
        let reads: [(String, () throws -> Void)] = [
            ("training weeks", { _ = try TrainingVolumeDocument(ledger, per: .week, query).json.bytes }),
            ("training months", { _ = try TrainingVolumeDocument(ledger, per: .month, query).json.bytes }),
            ("training efforts", { _ = try TrainingEffortsDocument(ledger, query).json.bytes }),
            ("training zones", { _ = try TrainingZonesDocument(ledger, query).json.bytes }),
            ("training load", { _ = try TrainingLoadDocument(ledger, query).json.bytes }),
            (
                "training explain effort 5k",
                { _ = try TrainingExplainDocument(ledger, try .init(kind: "effort", name: "5k", year: nil), query).json.bytes }
            ),
            (
                "the Training page",
                { _ = try Dashboard.render(page: .training, ledger: ledger, context: PageContext(links: .served(), forms: .omitted)) }
            ),
        ]
        for (label, read) in reads {
            try ledger.read { try read() }  // warm
            var times: [Double] = []
            for _ in 0..<max(5, options.runs) {
                let began = monotonicSeconds()
                try ledger.read { try read() }
                times.append(monotonicSeconds() - began)
            }
            rows.append([name, label + " (in the process)", String(format: "%.1f ms", median(times) * 1000), ""])
        }
        // The runs put together afresh (a ledger just opened keeps nothing): what the first read
        // after a change costs; the reads above find them kept.
        var fresh: [Double] = []
        for _ in 0..<max(5, options.runs) {
            let opened = try Ledger.open(at: path)
            try opened.read { _ = try opened.trainingView() }
            let again = try Ledger.open(at: path)
            let began = monotonicSeconds()
            try again.read { _ = try again.trainingView() }
            fresh.append(monotonicSeconds() - began)
        }
        rows.append([
            name, "the runs put together afresh (the first read after a change)", String(format: "%.1f ms", median(fresh) * 1000), "",
        ])
        var commands: [Double] = []
        for _ in 0..<options.runs {
            let run = try runChild(stride, ["--ledger", path, "training", "weeks", "--json"])
            guard run.status == 0 else { throw BenchFailure("training weeks failed") }
            commands.append(run.seconds)
        }
        rows.append([name, "stride training weeks --json (whole process)", String(format: "%.0f ms", median(commands) * 1000), ""])
        return rows
    }

    /// Streams, readings, seconds of running and their stored bytes (envelope and payload).
    private func streamFigures(_ ledger: Ledger) throws -> (Int, Int, Double, Int) {
        var (streams, readings, seconds, bytes) = (0, 0, 0.0, 0)
        var from: UInt64 = 1
        while true {
            let page = try ledger.events(from: from, limit: 2_000, type: .workoutStreamRecorded)
            guard let last = page.last else { break }
            for event in page {
                guard case .workoutStreamRecorded(let recorded) = event.event else { continue }
                streams += 1
                readings += recorded.stream.readings.count
                seconds += max(0, (recorded.stream.readings.last?.seconds ?? 0) - (recorded.stream.readings.first?.seconds ?? 0))
                bytes += recorded.encoded.bytes.count + Envelope.fixedHeaderSize
            }
            from = last.sequence + 1
        }
        return (streams, readings, seconds, bytes)
    }
}

/// The training benchmark's ten-year ledger in `work`: `stride-sample --days` of export from
/// 2015-01-05 and a Strava archive of `activities` runs and rides, each with its FIT file, both
/// ingested; made once (again when `stride-sample` was rebuilt since).
/// - Throws: ``BenchFailure`` when a tool fails.
func trainingLedger(work: String, days: Int, activities: Int, stride: String, sample: String) throws -> String {
    let ledger = work + "/training-\(days)d-\(activities).ledger"
    let done = ledger + "/.made"
    if !isStale(done, comparedWith: sample) { return ledger }
    try? FileManager.default.removeItem(atPath: ledger)
    let start = "2015-01-05"
    let (export, archive) = (work + "/training-export.xml", work + "/training-strava.zip")
    print("Making the ten-year ledger (once; kept in \(ledger)): \(days) days of export and \(activities) activities from \(start).")
    guard try runChild(sample, [export, "--days", String(days), "--start", start]).status == 0,
        try runChild(sample, ["archive", archive, "--activities", String(activities), "--start", start]).status == 0
    else { throw BenchFailure("stride-sample failed") }
    defer {
        try? FileManager.default.removeItem(atPath: export)
        try? FileManager.default.removeItem(atPath: archive)
    }
    guard try runChild(stride, ["--ledger", ledger, "init", "--time-zone", "Europe/Paris"]).status == 0 else { throw BenchFailure("init failed") }
    for file in [export, archive] {
        let run = try runChild(stride, ["--ledger", ledger, "ingest", "--quiet", file])
        guard run.status == 0 else { throw BenchFailure("ingest of \(file) failed: \(run.errorOutput.prefix(300))") }
        print(String(format: "Ingested %@ in %.1f s.", (file as NSString).lastPathComponent, run.seconds))
    }
    FileManager.default.createFile(atPath: done, contents: Data())
    return ledger
}
