import ArgumentParser
import Foundation
import StrideEvents
import StrideFIT
import StrideLedger

/// Reading FIT files: Stride's decoder, and `stride ingest` of the same files into a fresh
/// ledger, beside fitdecode (Python) on every FIT fixture, in the same run, a pair at a time.
struct FITBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fit", abstract: "Measure reading the FIT fixtures beside fitdecode (Python), and ingesting them.")

    @OptionGroup var options: BenchOptions

    @Option(help: "The folder of FIT files (default: ../shared/fixtures/fit beside the checkout, when present).")
    var fixtures: String?

    func run() throws {
        guard let folder = fixtures ?? RealExports.defaultFolder().map({ $0 + "/fit" }) else {
            throw BenchFailure("no FIT fixtures: ../shared/fixtures/fit is not on this machine (or pass --fixtures)")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.lowercased().hasSuffix(".fit") }.sorted()
        guard !names.isEmpty else { throw BenchFailure("no .fit file in \(folder)") }
        let files = names.map { folder + "/" + $0 }
        let megabytes = Double(files.reduce(0) { $0 + ((try? FileManager.default.attributesOfItem(atPath: $1)[.size] as? Int) ?? 0) }) / 1e6
        try FileManager.default.createDirectory(atPath: options.work, withIntermediateDirectories: true)
        let peers = options.skipPeers ? nil : PythonPeers.prepare(work: options.work)
        print("\(files.count) FIT files, \(String(format: "%.1f", megabytes)) MB; median of \(options.runs) runs, each a pair in turn.\n")

        var decodeSeconds: [Double] = []
        var ingestSeconds: [Double] = []
        var peerSeconds: [Double] = []
        var decoded = (sessions: 0, failed: 0)
        var ingested = 0
        var peerCounts: [String: Double] = [:]
        for _ in 0..<options.runs {
            let began = monotonicSeconds()
            decoded = try Self.decodeAll(files)
            decodeSeconds.append(monotonicSeconds() - began)
            let ledgerFolder = try freshFolder(options.work, "fit-ledger")
            try FileManager.default.removeItem(atPath: ledgerFolder)
            let ledger = try Ledger.create(at: ledgerFolder, timeZone: "Europe/Paris", clock: FixedClock(Timestamp(secondsSince1970: 1_800_000_000)))
            let ingestBegan = monotonicSeconds()
            ingested = Self.ingestAll(files, into: ledger)
            ingestSeconds.append(monotonicSeconds() - ingestBegan)
            try? FileManager.default.removeItem(atPath: ledgerFolder)
            if let peers, let result = peers.runScript(peersFolder + "/fitdecode_peer.py", files), let seconds = result["seconds"] {
                peerSeconds.append(seconds)
                peerCounts = result
            }
        }
        let decodeMedian = Rate(label: "", perSecond: decodeSeconds).median
        let ingestMedian = Rate(label: "", perSecond: ingestSeconds).median
        let peerMedian = peerSeconds.isEmpty ? Double.nan : Rate(label: "", perSecond: peerSeconds).median
        func row(_ label: String, _ seconds: Double, _ outcome: String) -> [String] {
            [
                label, String(format: "%.1f ms", seconds * 1000), String(format: "%.0f MB/s", megabytes / seconds), outcome,
                peerMedian.isFinite ? formatRatio(peerMedian / seconds) : "n/a",
            ]
        }
        printTable(
            ["reader", "time", "speed", "what it read", "vs fitdecode"],
            [
                row("Stride's decoder (sessions)", decodeMedian, "\(decoded.sessions) sessions, \(decoded.failed) file refused"),
                row("stride ingest into a fresh ledger", ingestMedian, "\(ingested) workouts appended"),
                peerMedian.isFinite
                    ? [
                        "fitdecode 0.11 (every frame)", String(format: "%.1f ms", peerMedian * 1000),
                        String(format: "%.1f MB/s", megabytes / peerMedian),
                        "\(Int(peerCounts["sessions"] ?? 0)) sessions, \(Int(peerCounts["failed"] ?? 0)) file failed", "1×",
                    ]
                    : ["fitdecode", "n/a", "n/a", "peers skipped", "n/a"],
            ])
        print("\nTarget: Stride reads FIT files at least 50× faster than fitdecode.")
    }

    /// Reads and decodes every file; the sessions read and the files refused.
    private static func decodeAll(_ files: [String]) throws -> (sessions: Int, failed: Int) {
        var sessions = 0
        var failed = 0
        for file in files {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
            let (activity, failure) = bytes.withUnsafeBytes { FITActivity.decode($0) }
            sessions += activity.sessions.count
            if failure != nil { failed += 1 }
        }
        return (sessions, failed)
    }

    /// Ingests every file as `stride ingest` does, a refused file counted as none; the
    /// workouts appended.
    private static func ingestAll(_ files: [String], into ledger: Ledger) -> Int {
        var appended = 0
        for file in files {
            appended += (try? ledger.ingest(file: file).appended) ?? 0
        }
        return appended
    }
}
