import Foundation

/// Where an ingest's time goes, from a `perf` profile: each sample is charged to the first
/// frame of its stack, from the leaf up, that belongs to a known step.
enum ProfileReport {
    /// Steps and the symbol fragments (as they appear in mangled Swift names) that mark them,
    /// in the order they are tried for each frame.
    static let steps: [(name: String, fragments: [String])] = [
        ("parsing dates", ["HealthDate", "CivilDate", "ISO8601"]),
        ("identity hashing", ["IdentityHasher"]),
        ("appending: envelope, chain hash, LMDB", ["Envelope", "LogAppender", "LMDBEventStore", "LogIndexer", "ChainHash", "mdb_", "CRC32C", "stride_crc32c"]),
        ("projections", ["Projection", "DailyHealth", "ShoeMileage", "PointsBalance"]),
        ("reading XML: scanning, attributes, records", [
            "XMLScanner", "XMLReferences", "AttributeReader", "StringTable", "RecordDraft", "WorkoutDraft", "HealthExportReader",
            "DecimalNumber", "IngestCollector", "ExportArchive", "FileChunks", "NDJSONReader", "GPXReader", "inflate",
        ]),
        ("handing batches between threads", ["BatchPipe"]),
    ]

    static func run(stride: String, file: String, work: String) throws {
        let data = work + "/perf.data"
        let ledger = work + "/profile-ledger"
        try? FileManager.default.removeItem(atPath: ledger)
        let recorded = try runChild("perf", [
            "record", "-e", "cpu-clock", "-F", "2000", "--call-graph", "dwarf,16384", "-o", data, "--", stride, "--ledger", ledger,
            "ingest", "--quiet", file,
        ])
        try? FileManager.default.removeItem(atPath: ledger)
        guard recorded.status == 0 else {
            print("\nNo profile: `perf record` failed (is linux-perf installed and allowed here?).")
            return
        }
        let script = try runChild("perf", ["script", "-i", data, "-F", "ip,sym"])
        var charged: [String: Int] = [:]
        var total = 0
        for sample in script.output.components(separatedBy: "\n\n") {
            let frames = sample.split(separator: "\n").map { String($0) }
            guard !frames.isEmpty else { continue }
            total += 1
            charged[classify(frames), default: 0] += 1
        }
        guard total > 0 else { return }
        print("\nWhere the time goes (perf, \(total) samples of the larger ingest, both threads):\n")
        let rows = charged.sorted { $0.value > $1.value }.map { [$0.key, String(format: "%.0f%%", Double($0.value) * 100 / Double(total))] }
        printTable(["step", "share"], rows)
    }

    private static func classify(_ frames: [String]) -> String {
        for frame in frames {
            for step in steps where step.fragments.contains(where: { frame.contains($0) }) { return step.name }
        }
        let leaf = frames.first ?? ""
        if leaf.contains("[kernel") || leaf.contains("unknown") { return "kernel: page faults, file reads and writes" }
        return "runtime: allocation, reference counting, other"
    }
}
