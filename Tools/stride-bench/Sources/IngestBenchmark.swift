import ArgumentParser
import Foundation

/// Apple Health ingest as a user runs it: `stride ingest` as a whole process into a fresh
/// ledger, beside `healthkit-to-sqlite` on the same file, on every real export in the fixtures
/// (from the zip and from its XML) and on realistic generated exports of two sizes (one four
/// times the other, for peak memory); optionally where the time goes, from `perf`.
struct IngestBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest", abstract: "Measure `stride ingest` beside healthkit-to-sqlite on real and generated exports.")

    @OptionGroup var options: BenchOptions

    @Option(help: "Megabytes of XML in the larger generated export (the smaller holds a quarter as much).")
    var megabytes = 100

    @Option(help: "The folder of real exports (default: ../shared/fixtures beside the checkout, when present).")
    var fixtures: String?

    @Option(help: "Time only real exports holding at least this many megabytes of XML.")
    var minimumMegabytes: Double = 1

    @Option(help: "Time only the inputs whose label contains this text (for example bwassim/export.zip, or generated).")
    var only: String?

    @Option(help: "The time zone each fresh ledger is created with (`stride init`, untimed), as a user starts.")
    var timeZone = "Europe/Paris"

    @Flag(help: "Leave out the generated exports.")
    var skipGenerated = false

    @Flag(
        help:
            "Also time ingesting the same history again, as a later export prints it (`stride-sample reexport`: new device addresses, another offset), into the ledger that holds it."
    )
    var again = false

    @Flag(help: "Also profile the largest real export and the larger generated one with `perf` (--runs times each), and say where the time goes.")
    var profile = false

    func validate() throws {
        guard megabytes >= 4 else { throw ValidationError("--megabytes must be at least 4 (the smaller export is a quarter of it)") }
    }

    func run() throws {
        let (stride, sample) = try builtTools()
        try FileManager.default.createDirectory(atPath: options.work, withIntermediateDirectories: true)
        var inputs: [BenchInput] = []
        if let folder = fixtures ?? RealExports.defaultFolder() {
            inputs += try RealExports.inputs(in: folder, minimumBytes: Int(minimumMegabytes * 1e6), work: options.work)
        } else {
            print("No real exports: ../shared/fixtures is not on this machine (or pass --fixtures).")
        }
        var generated: [BenchInput] = []
        if !skipGenerated {
            generated = try generatedInputs(sample: sample)
            inputs += generated
        }
        if let only { inputs = inputs.filter { $0.label.contains(only) } }
        guard !inputs.isEmpty else { throw BenchFailure("no input to time; check --fixtures and --only") }
        let peers = options.skipPeers ? nil : PythonPeers.prepare(work: options.work)

        var rows: [[String]] = []
        var notes: [String] = []
        var peaks: [String: Int] = [:]
        for input in inputs {
            let result = try measure(input, stride: stride, peers: peers)
            peaks[input.label] = result.strideMemory
            rows.append(result.row)
            notes += result.notes.map { "\(input.label): \($0)" }
            print("measured \(input.label)")
        }
        print(
            "\nApple Health ingest: each run a whole process into a fresh ledger (made by `stride init --time-zone \(timeZone)`, untimed), Stride and the peer in turn (Stride, peer, Stride, peer…), \(options.runs) pairs; times and memory are medians, the speed-up is the median of the pairs' ratios.\n"
        )
        printTable(
            ["input", "XML", "stride", "MB/s", "events/s", "peak", "healthkit-to-sqlite", "its peak", "speed-up"]
                + (again ? ["again", "again/first"] : []),
            rows)
        if again {
            print(
                "\n`again`: `stride ingest` of the same history as a later export prints it (its XML, made once by `stride-sample reexport`), into the ledger the first ingest left, timed alone; medians."
            )
        }
        for note in notes { print("  " + note) }
        let sizes = generated.filter { !$0.isZip }
        if sizes.count == 2, let small = peaks[sizes[0].label], let large = peaks[sizes[1].label], small > 0 {
            print(
                String(
                    format: "\nPeak memory grows %.0f%% for a generated export four times larger (target: within 20%%). Target speed-up: ≥ 20×.",
                    (Double(large) / Double(small) - 1) * 100))
        }
        if profile {
            let largestReal = inputs.filter { $0.isZip && !generated.map(\.label).contains($0.label) }.max { $0.xmlBytes < $1.xmlBytes }
            for input in [largestReal, sizes.last].compactMap({ $0 }) {
                try ProfileReport.run(
                    label: "`stride ingest` of \(input.label)", steps: ProfileReport.ingestSteps, runs: options.runs, work: options.work,
                    stride: stride,
                    prepare: { ledger in
                        try? FileManager.default.removeItem(atPath: ledger)
                        _ = try runChild(stride, ["--ledger", ledger, "init", "--time-zone", timeZone])
                    },
                    arguments: { ledger in ["--ledger", ledger, "ingest", "--quiet", input.path] })
            }
        }
    }

    /// A realistic watch-and-phone export of `megabytes` and one of a quarter of that, as XML,
    /// and the larger as a zip too; made again when `stride-sample` is newer than them.
    private func generatedInputs(sample: String) throws -> [BenchInput] {
        var inputs: [BenchInput] = []
        for size in [megabytes / 4, megabytes] {
            for isZip in size == megabytes ? [false, true] : [false] {
                let file = options.work + "/generated-\(size)MB." + (isZip ? "zip" : "xml")
                if isStale(file, comparedWith: sample) {
                    try? FileManager.default.removeItem(atPath: file)
                    let made = try runChild(sample, [file, "--megabytes", String(size), "--start", "2023-01-01"])
                    guard made.status == 0 else { throw BenchFailure("stride-sample failed: \(made.errorOutput.prefix(300))") }
                }
                let xmlBytes = isZip ? (inputs.last?.xmlBytes ?? 0) : FileManager.default.sizeOfFile(file)
                inputs.append(BenchInput(label: (file as NSString).lastPathComponent, path: file, xmlBytes: xmlBytes, isZip: isZip))
            }
        }
        return inputs
    }

    private struct Result {
        var row: [String]
        var notes: [String]
        var strideMemory: Int
    }

    /// Runs Stride and the peer in turn on one input.
    private func measure(_ input: BenchInput, stride: String, peers: PythonPeers?) throws -> Result {
        var times: [Double] = []
        var memory: [Int] = []
        var events = 0
        var peerTimes: [Double] = []
        var peerMemory: [Int] = []
        var ratios: [Double] = []
        var notes: [String] = []
        var strideFailure: String?
        var peerFailure: String?
        var againTimes: [Double] = []
        let ledger = options.work + "/ingest-ledger"
        let database = options.work + "/healthkit.db"
        let later = again ? try laterExport(of: input) : nil
        // A side that fails is reported and not run again; the other goes on alone.
        for _ in 1...options.runs {
            var strideSeconds: Double?
            if strideFailure == nil {
                try? FileManager.default.removeItem(atPath: ledger)
                let created = try runChild(stride, ["--ledger", ledger, "init", "--time-zone", timeZone])
                guard created.status == 0 else { throw BenchFailure("stride init failed: \(created.errorOutput.prefix(300))") }
                let run = try runChild(stride, ["--ledger", ledger, "ingest", "--quiet", "--json", input.path])
                if run.status == 0, let later {
                    let second = try runChild(stride, ["--ledger", ledger, "ingest", "--quiet", later])
                    if second.status == 0 { againTimes.append(second.seconds) }
                }
                try? FileManager.default.removeItem(atPath: ledger)
                if run.status == 0 {
                    events = Self.newEvents(run.output)
                    times.append(run.seconds)
                    memory.append(run.peakKilobytes)
                    strideSeconds = run.seconds
                } else {
                    strideFailure = "Stride failed (status \(run.status)): " + Self.firstLine(run.errorOutput)
                }
            }
            guard let peers, peerFailure == nil else { continue }
            try? FileManager.default.removeItem(atPath: database)
            let peerRun = try runChild(peers.healthkitToSQLite, (input.isZip ? [] : ["--xml"]) + [input.path, database])
            try? FileManager.default.removeItem(atPath: database)
            guard peerRun.status == 0 else {
                peerFailure = "healthkit-to-sqlite cannot read it (status \(peerRun.status)): " + Self.lastLine(peerRun.errorOutput)
                continue
            }
            peerTimes.append(peerRun.seconds)
            peerMemory.append(peerRun.peakKilobytes)
            if let strideSeconds { ratios.append(peerRun.seconds / strideSeconds) }
        }
        if let strideFailure { notes.append(strideFailure) }
        if let peerFailure { notes.append(peerFailure) }
        let megabytes = Double(input.xmlBytes) / 1e6
        let size = String(format: "%.1f MB", megabytes) + (input.isZip ? " (zip)" : "")
        let peerCell: String
        let peerPeak: String
        let speedUp: String
        if !peerTimes.isEmpty {
            peerCell = String(format: "%.2f s", median(peerTimes))
            peerPeak = "\(peerMemory.sorted()[peerMemory.count / 2] / 1024) MB"
            speedUp = ratios.isEmpty ? "" : formatRatio(median(ratios))
        } else {
            peerCell = peerFailure == nil ? "n/a" : "cannot read"
            peerPeak = ""
            speedUp = ""
        }
        guard strideFailure == nil, !times.isEmpty else {
            return Result(
                row: [input.label, size, "failed", "", "", "", peerCell, peerPeak, ""] + (again ? ["", ""] : []), notes: notes, strideMemory: 0)
        }
        let seconds = median(times)
        let peak = memory.sorted()[memory.count / 2]
        let againCells =
            again
            ? (againTimes.isEmpty
                ? ["failed", ""] : [String(format: "%.3f s", median(againTimes)), String(format: "%.2f", median(againTimes) / seconds)])
            : []
        return Result(
            row: [
                input.label, size, String(format: "%.3f s", seconds), String(format: "%.0f", megabytes / seconds),
                formatRate(Double(events) / seconds), "\(peak / 1024) MB", peerCell, peerPeak, speedUp,
            ] + againCells, notes: notes, strideMemory: peak)
    }

    /// The same history as a later export prints it, made once beside the work folder's inputs.
    private func laterExport(of input: BenchInput) throws -> String {
        let (_, sample) = try builtTools()
        let file = options.work + "/later-" + input.label.replacingOccurrences(of: "/", with: "-") + ".xml"
        if isStale(file, comparedWith: sample) || isStale(file, comparedWith: input.path) {
            try? FileManager.default.removeItem(atPath: file)
            let made = try runChild(sample, ["reexport", input.path, file, "--offset=+0900"])
            guard made.status == 0 else { throw BenchFailure("stride-sample reexport failed: \(made.errorOutput.prefix(300))") }
        }
        return file
    }

    private func median(_ values: [Double]) -> Double { Rate(label: "", perSecond: values).median }

    private static func newEvents(_ json: String) -> Int {
        guard let data = json.data(using: .utf8), let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return 0 }
        return (object["newEvents"] as? Int) ?? 0
    }

    private static func firstLine(_ text: String) -> String {
        String(text.split(separator: "\n").first ?? "no message").prefix(300).description
    }

    private static func lastLine(_ text: String) -> String {
        String(text.split(separator: "\n").last ?? "no message").prefix(300).description
    }
}

extension FileManager {
    func sizeOfFile(_ path: String) -> Int {
        ((try? attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }
}
