import ArgumentParser
import Foundation

/// Apple Health ingest: MB/s and events/s on generated exports of two sizes (one four times
/// the other), beside `healthkit-to-sqlite` on the same files, with peak memory; optionally
/// where the time goes, from a `perf` profile.
struct IngestBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest", abstract: "Measure `stride ingest` beside healthkit-to-sqlite on generated exports.")

    @OptionGroup var options: BenchOptions

    @Option(help: "Days of history in the smaller export (the larger has four times as many).")
    var days = 90

    @Flag(help: "Also profile the larger ingest with `perf` and say where the time goes.")
    var profile = false

    func run() throws {
        let (stride, sample) = try builtTools()
        try FileManager.default.createDirectory(atPath: options.work, withIntermediateDirectories: true)
        let sizes = [days, days * 4]
        var files: [String] = []
        for size in sizes {
            let file = options.work + "/export-\(size)d.xml"
            if !FileManager.default.fileExists(atPath: file) {
                let made = try runChild(sample, [file, "--days", String(size)])
                guard made.status == 0 else { throw BenchFailure("stride-sample failed: \(made.output)") }
            }
            files.append(file)
        }
        let peers = options.skipPeers ? nil : PythonPeers.prepare(work: options.work)
        var rows: [[String]] = []
        var strideMemory: [Int] = []
        for file in files {
            let megabytes = Double(FileManager.default.sizeOfFile(file)) / 1e6
            var times: [Double] = []
            var memory: [Int] = []
            var events = 0
            var peerTimes: [Double] = []
            var peerMemories: [Int] = []
            // Stride and the peer take turns, run by run, so that both see the same minutes of
            // a shared machine whose speed drifts; the speed-up is the median of each pair's.
            var ratios: [Double] = []
            for _ in 1...options.runs {
                let ledger = try freshFolder(options.work, "ingest-ledger")
                try FileManager.default.removeItem(atPath: ledger)
                let run = try runChild(stride, ["--ledger", ledger, "ingest", "--quiet", "--json", file])
                guard run.status == 0 else { throw BenchFailure("stride ingest failed (\(run.status)): \(run.output.prefix(300))") }
                events = Self.newEvents(run.output)
                times.append(run.seconds)
                memory.append(run.peakKilobytes)
                try? FileManager.default.removeItem(atPath: ledger)
                if let peers {
                    let database = options.work + "/healthkit.db"
                    try? FileManager.default.removeItem(atPath: database)
                    let peerRun = try runChild(peers.healthkitToSQLite, ["--xml", file, database])
                    guard peerRun.status == 0 else { throw BenchFailure("healthkit-to-sqlite failed (\(peerRun.status))") }
                    peerTimes.append(peerRun.seconds)
                    peerMemories.append(peerRun.peakKilobytes)
                    ratios.append(peerRun.seconds / run.seconds)
                }
            }
            let seconds = Rate(label: "", perSecond: times).median
            strideMemory.append(memory.sorted()[memory.count / 2])
            let peerSeconds = peerTimes.isEmpty ? Double.nan : Rate(label: "", perSecond: peerTimes).median
            let peerMemory = peerMemories.isEmpty ? 0 : peerMemories.sorted()[peerMemories.count / 2]
            let speedUp = ratios.isEmpty ? Double.nan : Rate(label: "", perSecond: ratios).median
            rows.append([
                (file as NSString).lastPathComponent, String(format: "%.1f MB", megabytes), String(format: "%.2f s", seconds),
                String(format: "%.0f MB/s", megabytes / seconds), formatRate(Double(events) / seconds),
                "\((strideMemory.last ?? 0) / 1024) MB",
                peerSeconds.isNaN ? "n/a" : String(format: "%.2f s", peerSeconds),
                peerSeconds.isNaN ? "n/a" : "\(peerMemory / 1024) MB",
                speedUp.isNaN ? "n/a" : formatRatio(speedUp),
            ])
        }
        print("Apple Health ingest, median of \(options.runs) runs, a fresh ledger each (process start to exit); Stride and the peer take turns, and the speed-up is the median of the pairs:\n")
        printTable(["export", "size", "stride", "MB/s", "events/s", "peak memory", "healthkit-to-sqlite", "its peak", "speed-up"], rows)
        if strideMemory.count == 2, strideMemory[0] > 0 {
            let growth = Double(strideMemory[1]) / Double(strideMemory[0]) - 1
            print(String(format: "\nPeak memory grows %.0f%% for a file four times larger (target: within 20%%). Target speed-up: ≥ 20×.", growth * 100))
        }
        if profile, let larger = files.last { try ProfileReport.run(stride: stride, file: larger, work: options.work) }
    }

    private static func newEvents(_ json: String) -> Int {
        guard let data = json.data(using: .utf8), let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return 0 }
        return (object["newEvents"] as? Int) ?? 0
    }
}

extension FileManager {
    func sizeOfFile(_ path: String) -> Int {
        ((try? attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }
}
