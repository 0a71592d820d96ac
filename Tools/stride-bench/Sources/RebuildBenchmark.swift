import ArgumentParser
import Foundation
import LMDBBaseline
import StrideEvents
import StrideLedger

/// Projections: a full rebuild over a ledger of a million events or more, beside the raw
/// LMDB scan of as many records of the same size, and the latency of catching up after one
/// appended event.
struct RebuildBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rebuild", abstract: "Measure a full rebuild of every projection and the catch-up after one append.")

    @OptionGroup var options: BenchOptions

    @Option(help: "Events in the ledger (a watch-and-phone mix of health samples over days).")
    var events = 1_000_000

    @Option(help: "Catch-ups timed (one appended event each).")
    var catchUps = 200

    func run() throws {
        let folder = try freshFolder(options.work, "rebuild-ledger")
        try FileManager.default.removeItem(atPath: folder)
        let clock = FixedClock(Timestamp(secondsSince1970: 1_720_000_000))
        let ledger = try Ledger.create(at: folder, timeZone: "Europe/Paris", clock: clock)
        var written = 0
        while written < events {
            let batch = (written..<min(written + 50_000, events)).map(HealthMix.event)
            try ledger.store.append(batch, recordedAt: clock.now())
            written += batch.count
        }
        let valueSize = try ledger.store.event(at: 2).map { _ in HealthMix.averageSize } ?? 150
        print("Projections over \(events) events (heart rate, steps, distance, energy, sleep from a watch and a phone); median of \(options.runs) runs.\n")

        var rebuilds: [Double] = []
        var scans: [Double] = []
        for _ in 1...options.runs {
            let total = try ledger.store.lastSequence()
            rebuilds.append(try measure(items: Int(total)) { _ = try ledger.rebuild() })
            let raw = try freshFolder(options.work, "raw-scan")
            _ = stride_baseline_batched_put(raw, events, 50_000, valueSize)
            let scan = stride_baseline_scan(raw)
            scans.append(Double(scan.count) / scan.seconds)
            try FileManager.default.removeItem(atPath: raw)
        }
        // Catching up after one append: standalone (its own commit), and folded into the
        // append's own transaction (what commands and ingest batches do), as the time it adds.
        var latencies: [Double] = []
        var appendsAlone: [Double] = []
        var appendsFolded: [Double] = []
        for index in 0..<catchUps {
            try ledger.store.append([HealthMix.event(events + 3 * index)], recordedAt: clock.now())
            let began = monotonicSeconds()
            try ledger.catchUp()
            latencies.append(monotonicSeconds() - began)
            let aloneBegan = monotonicSeconds()
            try ledger.store.append([HealthMix.event(events + 3 * index + 1)], recordedAt: clock.now())
            appendsAlone.append(monotonicSeconds() - aloneBegan)
            try ledger.catchUp()
            let foldedBegan = monotonicSeconds()
            _ = try ledger.store.append([HealthMix.event(events + 3 * index + 2)], expecting: [], recordedAt: clock.now(), projections: ledger.projections)
            appendsFolded.append(monotonicSeconds() - foldedBegan)
        }
        let added = Rate(label: "", perSecond: appendsFolded).median - Rate(label: "", perSecond: appendsAlone).median
        let rebuild = Rate(label: "", perSecond: rebuilds).median
        let scan = Rate(label: "", perSecond: scans).median
        let latency = Rate(label: "", perSecond: latencies).median
        let p90 = latencies.sorted()[latencies.count * 9 / 10]
        printTable(["measure", "stride", "raw LMDB scan", "stride/raw", "target"], [
            ["full rebuild, all projections", formatRate(rebuild), formatRate(scan), formatRatio(rebuild / scan), "≥ 3 M/s"],
            ["catch-up after one append, in the append's transaction", String(format: "%.3f ms", added * 1000), "", "", "well under 1 ms"],
            ["catch-up after one append, on its own (median)", String(format: "%.3f ms", latency * 1000), "", "", ""],
            ["catch-up after one append, on its own (90th pct)", String(format: "%.3f ms", p90 * 1000), "", "", ""],
        ])
        print("\nIn the append's transaction: the median append with the fold minus the median append without it.")
        print("On its own: a separate write transaction, so it includes a durable commit of its own.")
        try? FileManager.default.removeItem(atPath: folder)
    }
}

/// A day's worth of a watch and a phone, as events: heart rate every five minutes, steps,
/// distance and energy in blocks, and a night of sleep stages.
enum HealthMix {
    static let averageSize = 150

    static func event(_ index: Int) -> PendingEvent {
        let kinds: [(String, String, DeviceClass, String?)] = [
            ("HKQuantityTypeIdentifierHeartRate", "count/min", .watch, nil),
            ("HKQuantityTypeIdentifierHeartRate", "count/min", .watch, nil),
            ("HKQuantityTypeIdentifierHeartRate", "count/min", .watch, nil),
            ("HKQuantityTypeIdentifierStepCount", "count", .phone, nil),
            ("HKQuantityTypeIdentifierStepCount", "count", .watch, nil),
            ("HKQuantityTypeIdentifierDistanceWalkingRunning", "km", .phone, nil),
            ("HKQuantityTypeIdentifierActiveEnergyBurned", "kcal", .watch, nil),
            ("HKCategoryTypeIdentifierSleepAnalysis", "", .watch, "HKCategoryValueSleepAnalysisAsleepCore"),
        ]
        let (type, unit, deviceClass, category) = kinds[index % kinds.count]
        let start = Timestamp(secondsSince1970: 1_600_000_000 + Int64(index / kinds.count) * 300)
        let end = type.contains("HeartRate") ? start : start.adding(milliseconds: 600_000)
        let sample = SampleRecorded(
            healthType: type, deviceClass: deviceClass, value: category.map { .text($0) } ?? .number(Double(40 + index % 60)),
            unit: category == nil ? unit : nil, start: start, end: end, created: end,
            sourceName: deviceClass == .watch ? "Marie’s Apple Watch" : "Marie’s iPhone", sourceVersion: "10.1", device: nil,
            metadata: [])
        let identity = SampleIdentity.make(start: start, hash: UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
        return PendingEvent(
            .sampleRecorded(sample), occurredAt: start, entity: EntityReference(.sample, id: identity),
            idempotencyKey: IdempotencyKey(identity))
    }
}
