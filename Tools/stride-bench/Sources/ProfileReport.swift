import Foundation

/// Where a `stride` command's time goes, from `perf` profiles of the whole process: each
/// sample is charged to the first frame of its stack, from the leaf up, that belongs to a
/// known step (so a step's share includes the C library and kernel work it calls).
enum ProfileReport {
    /// A step and the symbol fragments (as they appear in mangled Swift names) that mark it.
    typealias Step = (name: String, fragments: [String])

    /// The steps of an ingest, in the order they are tried for each frame.
    static let ingestSteps: [Step] = [
        ("zip: CRC-32 of the inflated export (ZIPFoundation's Swift fallback)", ["ZIPFoundation"]),
        ("zip: inflating (zlib)", ["inflate"]),
        ("reading: parsing dates", ["HealthDate", "CivilDate"]),
        ("reading: identity hashing", ["IdentityHasher", "SHA256Prefixes"]),
        (
            "appending: folding into the projections",
            [
                "LMDBEventStore4fold", "DailyHealth", "ShoeMileage", "PointsBalance", "SampleCounts", "EncodedChanges", "ProjectionRows",
                "RunningProjection",
            ]
        ),
        ("step awards", ["awardSteps", "dailyStepTotals"]),
        (
            "appending: envelope, CRC-32C, SHA-256 chain",
            ["Envelope", "ChainHash", "SHA256Hasher", "CRC32C", "stride_crc32c", "sha256_block", "SHA256_"]
        ),
        ("appending: LMDB puts and commits", ["mdb_", "LogIndexer", "LogAppender", "LMDBEventStore"]),
        (
            "reading: scanning XML, building records and their facts",
            [
                "XMLScanner", "XMLReferences", "AttributeReader", "StringTable", "RecordDraft", "WorkoutDraft", "HealthExportReader",
                "DecimalNumber", "IngestCollector", "DeviceClassifier", "FileChunks", "IngestBatch", "SampleFacts", "NDJSONReader", "GPXReader",
            ]
        ),
        ("handing batches between threads", ["BatchPipe"]),
        ("letting the ledger's mapped pages go", ["releaseMappedPages"]),
        (
            "process start: loader, runtime metadata",
            ["_dl_relocate", "dl_main", "_dl_map_object", "swift_conformsToProtocol", "swift_getTypeByMangledName"]
        ),
    ]

    /// The steps of a rebuild.
    static let rebuildSteps: [Step] = [
        (
            "decoding events (read-ahead thread)",
            [
                "ProjectionEvent.decode", "decodeContent", "SampleFacts", "Envelope", "BinaryReader", "StringTable", "ReadAhead",
                "forEachProjectionEvent",
            ]
        ),
        ("folding: daily records", ["DailyHealth"]),
        ("folding: sample counts, mileage, points", ["SampleCounts", "ShoeMileage", "PointsBalance"]),
        (
            "projection engine: runs, row updates, copying events",
            ["RunningProjection", "ProjectionRows", "ProjectionEvent", "LMDBEventStore4fold", "RowKeyHash"]
        ),
        ("encoding and writing rows", ["EncodedChanges", "mdb_put", "mdb_cursor_put", "mdb_txn_commit", "mdb_drop"]),
        ("LMDB reads", ["mdb_"]),
        ("handing batches between threads", ["BatchPipe"]),
        (
            "process start: loader, runtime metadata",
            ["_dl_relocate", "dl_main", "_dl_map_object", "swift_conformsToProtocol", "swift_getTypeByMangledName"]
        ),
        ("process exit", ["__run_exit_handlers", "exit_mmap", "do_exit"]),
    ]

    /// Records `stride ARGUMENTS` under `perf` `runs` times (each after `prepare`, untimed)
    /// and prints the share of each step; says so and returns when `perf` is missing or not
    /// allowed.
    /// - Throws: ``BenchFailure`` when the command cannot be started.
    static func run(
        label: String, steps: [Step], runs: Int, work: String, stride: String, prepare: (String) throws -> Void,
        arguments: (String) -> [String]
    ) throws {
        let data = work + "/perf.data"
        let ledger = work + "/profile-ledger"
        var charged: [String: Int] = [:]
        var total = 0
        for _ in 1...runs {
            try prepare(ledger)
            let recorded = try runChild(
                "perf",
                [
                    "record", "-e", "cpu-clock", "-F", "2000", "--call-graph", "dwarf,16384", "-o", data, "--", stride,
                ] + arguments(ledger))
            guard recorded.status == 0 else {
                print("\nNo profile: `perf record` failed (is linux-perf installed and allowed here?).")
                return
            }
            let script = try runChild("perf", ["script", "-i", data, "-F", "ip,sym"])
            for sample in script.output.components(separatedBy: "\n\n") {
                let frames = sample.split(separator: "\n").map { String($0) }
                guard !frames.isEmpty else { continue }
                total += 1
                charged[classify(frames, steps), default: 0] += 1
            }
        }
        try? FileManager.default.removeItem(atPath: data)
        guard total > 0 else { return }
        print("\nWhere the time goes in \(label) (perf, \(runs) runs, \(total) samples at 2 kHz, every thread):\n")
        let rows = charged.sorted { $0.value > $1.value }.map { [$0.key, String(format: "%.0f%%", Double($0.value) * 100 / Double(total))] }
        printTable(["step", "share"], rows)
    }

    static func classify(_ frames: [String], _ steps: [Step]) -> String {
        for frame in frames {
            for step in steps where step.fragments.contains(where: { frame.contains($0) }) { return step.name }
        }
        // A kernel frame whose user-space caller perf could not unwind: writes, syncs, page faults.
        if (frames.first ?? "").trimmingCharacters(in: .whitespaces).hasPrefix("ffffffff") {
            return "kernel, caller not unwound: writes, page faults"
        }
        return "other: allocation, reference counting, copying"
    }
}
