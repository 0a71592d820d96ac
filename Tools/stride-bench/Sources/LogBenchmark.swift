import ArgumentParser
import Foundation
import LMDBBaseline
import StrideEvents
import StrideStore

/// The event log: batched append, durable single append and a full scan with decoding,
/// beside raw LMDB and `eventsourcing` on SQLite.
struct LogBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log", abstract: "Measure appends and scans of the event log.")

    @OptionGroup var options: BenchOptions

    @Option(help: "Events per batched-append and scan run.")
    var events = 1_000_000

    @Option(help: "Events per write transaction in the batched runs (an ingest's batch).")
    var batch = 50_000

    @Option(help: "Single durable appends per run.")
    var singles = 2_000

    func run() throws {
        let sample = BenchmarkEvents.pending(index: 0)
        let valueSize = BenchmarkEvents.envelopeSize(of: sample)
        print(
            "Event log: \(events) events of \(valueSize) bytes (a watch heart-rate sample with its key), batches of \(batch); \(singles) single appends; median of \(options.runs) runs.\n"
        )

        var strideBatched = Rate(label: "stride batched", perSecond: [])
        var strideSingle = Rate(label: "stride single", perSecond: [])
        var strideScan = Rate(label: "stride scan", perSecond: [])
        var rawBatched = Rate(label: "raw batched", perSecond: [])
        var rawSingle = Rate(label: "raw single", perSecond: [])
        var rawScan = Rate(label: "raw scan", perSecond: [])
        let pending = (0..<events).map(BenchmarkEvents.pending)
        let batches = stride(from: 0, to: events, by: batch).map { Array(pending[$0..<min($0 + batch, events)]) }

        for run in 1...options.runs {
            // Each timed step starts with the disk's write-back drained (`sync`, untimed), so
            // that none waits behind the data the step before it left to write.
            let rawFolder = try freshFolder(options.work, "raw")
            sync()
            let raw = stride_baseline_batched_put(rawFolder, events, batch, valueSize)
            guard raw.status == 0 else { throw ValidationError("raw LMDB failed with code \(raw.status)") }
            rawBatched.perSecond.append(Double(raw.count) / raw.seconds)
            let scan = stride_baseline_scan(rawFolder)
            rawScan.perSecond.append(Double(scan.count) / scan.seconds)
            // Single commits into the environment that holds the batched records, as Stride's
            // single appends go into the ledger that holds its own: a commit into a deeper
            // tree copies more pages.
            sync()
            let single = stride_baseline_single_commits(rawFolder, singles, valueSize)
            guard single.status == 0 else { throw ValidationError("raw LMDB single commits failed with code \(single.status)") }
            rawSingle.perSecond.append(Double(single.count) / single.seconds)
            try FileManager.default.removeItem(atPath: rawFolder)

            let folder = try freshFolder(options.work, "ledger")
            let store = try LMDBEventStore(directory: folder, initialMapSize: 1 << 30)
            let recordedAt = Timestamp(secondsSince1970: 1_700_000_000)
            sync()
            strideBatched.perSecond.append(
                try measure(items: events) {
                    for events in batches { try store.append(events, recordedAt: recordedAt) }
                })
            var decoded = 0
            strideScan.perSecond.append(
                try measure(items: events) {
                    try store.scan { event in
                        if case .sampleRecorded = event.event { decoded += 1 }
                        return true
                    }
                })
            guard decoded == events else { throw ValidationError("the scan decoded \(decoded) of \(events) samples") }
            sync()
            strideSingle.perSecond.append(
                try measure(items: singles) {
                    for index in 0..<singles {
                        try store.append([BenchmarkEvents.pending(index: events + index)], recordedAt: recordedAt)
                    }
                })
            try FileManager.default.removeItem(atPath: folder)
            print(
                "run \(run): stride \(formatRate(strideBatched.perSecond.last ?? 0)) batched, \(formatRate(strideScan.perSecond.last ?? 0)) scan, \(formatRate(strideSingle.perSecond.last ?? 0)) single"
            )
        }

        var peer: [String: Double] = [:]
        if !options.skipPeers, let peers = PythonPeers.prepare(work: options.work) {
            let peerEvents = min(events, 100_000)
            let peerSingles = min(singles, 1_000)
            var runs: [[String: Double]] = []
            for _ in 1...options.runs {
                if let result = peers.runScript(peersFolder + "/eventsourcing_peer.py", [String(peerEvents), String(batch), String(peerSingles)]) {
                    runs.append(result)
                }
            }
            for key in ["batchedAppendPerSecond", "replayPerSecond", "singleAppendPerSecond"] {
                peer[key] = Rate(label: key, perSecond: runs.compactMap { $0[key] }).median
            }
            print("eventsourcing ran on \(peerEvents) events and \(peerSingles) single appends (it is slow; rates compare).")
        }

        print("")
        let rows: [[String]] = [
            row("batched append", strideBatched, rawBatched, peer["batchedAppendPerSecond"], target: "≥ 1 M/s, ≥ 30% raw, ≥ 20× peer"),
            row("durable single append", strideSingle, rawSingle, peer["singleAppendPerSecond"], target: "≥ 80% raw"),
            row("scan with decoding", strideScan, rawScan, peer["replayPerSecond"], target: "≥ 5 M/s, ≥ 20× peer replay"),
        ]
        printTable(["measure", "stride", "raw LMDB", "stride/raw", "eventsourcing", "stride/peer", "target"], rows)
    }

    private func row(_ name: String, _ stride: Rate, _ raw: Rate, _ peer: Double?, target: String) -> [String] {
        [
            name, formatRate(stride.median), formatRate(raw.median), formatRatio(stride.median / raw.median),
            peer.map(formatRate) ?? "n/a", peer.map { formatRatio(stride.median / $0) } ?? "n/a", target,
        ]
    }
}

/// The events the log benchmark appends: watch heart-rate samples, each with its own
/// idempotency key, as an ingest appends them.
enum BenchmarkEvents {
    static func pending(index: Int) -> PendingEvent {
        let start = Timestamp(secondsSince1970: 1_600_000_000 + Int64(index) * 60)
        let sample = SampleRecorded(
            healthType: "HKQuantityTypeIdentifierHeartRate", deviceClass: .watch, value: .number(Double(50 + index % 90)),
            unit: "count/min", start: start, end: start, created: start.adding(milliseconds: 300_000),
            sourceName: "Apple Watch de Marie", sourceVersion: "10.1", device: nil, metadata: [])
        let identity = SampleIdentity.make(start: start, hash: UInt64(truncatingIfNeeded: index) &* 0x9E37_79B9_7F4A_7C15)
        return PendingEvent(
            .sampleRecorded(sample), occurredAt: start, entity: EntityReference(.sample, id: identity),
            idempotencyKey: IdempotencyKey(identity))
    }

    static func envelopeSize(of pending: PendingEvent) -> Int {
        var writer = BinaryWriter()
        _ = Envelope.write(pending, sequence: 1, recordedAt: pending.occurredAt, previous: .genesis, into: &writer, hasher: SHA256Hasher())
        return writer.count
    }
}
