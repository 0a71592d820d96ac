import Foundation

/// Where a `stride` command's time goes, from a `perf` profile of the whole process: each
/// sample is charged to the first frame of its stack, from the leaf up, that belongs to a
/// known step.
enum ProfileReport {
    /// A step and the symbol fragments (as they appear in mangled Swift names) that mark it.
    typealias Step = (name: String, fragments: [String])

    /// The steps of an ingest, in the order they are tried for each frame.
    static let ingestSteps: [Step] = [
        ("parsing dates", ["HealthDate", "CivilDate", "ISO8601"]),
        ("identity hashing", ["IdentityHasher", "SHA256Prefixes"]),
        ("appending: envelope, chain hash, LMDB", ["Envelope", "LogAppender", "LMDBEventStore", "LogIndexer", "ChainHash", "mdb_", "CRC32C", "stride_crc32c"]),
        ("projections and step awards", ["Projection", "DailyHealth", "ShoeMileage", "PointsBalance", "SampleCounts", "ActivityPolicy", "StepAward"]),
        ("reading XML: scanning, attributes, records", [
            "XMLScanner", "XMLReferences", "AttributeReader", "StringTable", "RecordDraft", "WorkoutDraft", "HealthExportReader",
            "DecimalNumber", "IngestCollector", "DeviceClassifier", "ExportArchive", "FileChunks", "NDJSONReader", "GPXReader",
        ]),
        ("inflating the zip", ["inflate", "ZIPFoundation", "crc32"]),
        ("handing batches between threads", ["BatchPipe"]),
    ]

    /// The steps of a rebuild.
    static let rebuildSteps: [Step] = [
        ("folding events into rows", ["DailyHealth", "ShoeMileage", "PointsBalance", "SampleCounts", "ActivityPolicy", "RunningProjection", "withFoldStep"]),
        ("decoding events (read-ahead thread)", ["Envelope", "decodeEvent", "BinaryReader", "StringTable", "ReadAhead", "SampleFacts"]),
        ("encoding, sorting and writing rows", ["EncodedChanges", "ProjectionRows", "RowKey", "mdb_", "ProjectionStore", "memcmp"]),
        ("projection engine", ["Projection"]),
        ("handing batches between threads", ["BatchPipe"]),
        ("opening the ledger, parsing the command", ["ArgumentParser", "Ledger.open", "LMDBEnvironment"]),
    ]

    /// Records `stride ARGUMENTS` under `perf` (after `prepare`, untimed) and prints the share
    /// of each step; says so and returns when `perf` is missing or not allowed.
    /// - Throws: ``BenchFailure`` when the command cannot be started.
    static func run(
        label: String, steps: [Step], work: String, stride: String, prepare: (String) throws -> Void,
        arguments: (String) -> [String]
    ) throws {
        let data = work + "/perf.data"
        let ledger = work + "/profile-ledger"
        try prepare(ledger)
        let recorded = try runChild("perf", [
            "record", "-e", "cpu-clock", "-F", "2000", "--call-graph", "dwarf,16384", "-o", data, "--", stride,
        ] + arguments(ledger))
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
            charged[classify(frames, steps), default: 0] += 1
        }
        guard total > 0 else { return }
        print("\nWhere the time goes in \(label) (perf, \(total) samples at 2 kHz, every thread):\n")
        let rows = charged.sorted { $0.value > $1.value }.map { [$0.key, String(format: "%.0f%%", Double($0.value) * 100 / Double(total))] }
        printTable(["step", "share"], rows)
    }

    private static func classify(_ frames: [String], _ steps: [Step]) -> String {
        for frame in frames {
            for step in steps where step.fragments.contains(where: { frame.contains($0) }) { return step.name }
        }
        let leaf = frames.first ?? ""
        if leaf.contains("[kernel") || leaf.contains("unknown") { return "kernel: page faults, file reads and writes" }
        return "runtime: allocation, reference counting, other"
    }
}
