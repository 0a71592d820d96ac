import ArgumentParser
import Foundation
import LMDBBaseline
import StrideEvents
import StrideLedger

/// Projections: a full rebuild of every projection, measured two ways — the whole `stride
/// rebuild` process on a realistic ledger (made by ingesting a generated watch-and-phone
/// export) beside the same rebuild called in this process, and, in process, a rebuild over a
/// ledger of a million synthetic events beside the raw LMDB scan of as many records of the
/// same size, with the latency of catching up after one appended event.
struct RebuildBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rebuild", abstract: "Measure `stride rebuild` as a process on a realistic ledger, and in process beside raw LMDB.")

    @OptionGroup var options: BenchOptions

    @Option(help: "Events in the synthetic ledger (a watch-and-phone mix of health samples over days).")
    var events = 1_000_000

    @Option(help: "Catch-ups timed (one appended event each).")
    var catchUps = 200

    @Option(help: "Days of the generated export ingested into the realistic ledger (150 days hold about 260,000 events).")
    var realisticDays = 150

    @Option(help: "The realistic ledger's time zone (the generated export's days are this zone's).")
    var timeZone = "Europe/Paris"

    @Flag(help: "Leave out the synthetic in-process part (the raw LMDB scan and the catch-up).")
    var skipSynthetic = false

    @Flag(help: "Leave out the realistic whole-process part.")
    var skipRealistic = false

    @Flag(help: "Also profile the whole-process rebuild of the realistic ledger with `perf` (--runs times).")
    var profile = false

    func validate() throws {
        guard realisticDays >= 1 else { throw ValidationError("--realistic-days must be at least 1") }
        guard events >= 1, catchUps >= 1 else { throw ValidationError("--events and --catch-ups must be at least 1") }
    }

    func run() throws {
        if !skipRealistic { try realistic() }
        if !skipSynthetic { try synthetic() }
    }

    /// The whole `stride rebuild` process and the in-process rebuild, in turn, on one
    /// realistic ledger.
    private func realistic() throws {
        let (stride, sample) = try builtTools()
        try FileManager.default.createDirectory(atPath: options.work, withIntermediateDirectories: true)
        let export = options.work + "/realistic-\(realisticDays)d.xml"
        try? FileManager.default.removeItem(atPath: export)
        let made = try runChild(sample, [export, "--days", String(realisticDays), "--start", "2023-01-01"])
        guard made.status == 0 else { throw BenchFailure("stride-sample failed: \(made.errorOutput.prefix(300))") }
        let ledger = options.work + "/realistic-ledger"
        try? FileManager.default.removeItem(atPath: ledger)
        let created = try runChild(stride, ["--ledger", ledger, "init", "--time-zone", timeZone])
        guard created.status == 0 else { throw BenchFailure("stride init failed: \(created.errorOutput.prefix(300))") }
        let ingest = try runChild(stride, ["--ledger", ledger, "ingest", "--quiet", export])
        guard ingest.status == 0 else { throw BenchFailure("stride ingest failed: \(ingest.errorOutput.prefix(300))") }
        try? FileManager.default.removeItem(atPath: export)
        let total = try Ledger.open(at: ledger).store.lastSequence()
        print(
            "A realistic ledger: \(total) events from a \(realisticDays)-day generated watch-and-phone export (\(String(format: "%.0f", Double(FileManager.default.sizeOfFile(ledger + "/data.mdb")) / 1e6)) MB of ledger). The whole process and the in-process rebuild take turns, \(options.runs) runs each, medians.\n"
        )
        var processSeconds: [Double] = []
        var inProcessSeconds: [Double] = []
        var memory: [Int] = []
        var processFaults: [Double] = []
        var inProcessFaults: [Double] = []
        for _ in 1...options.runs {
            let run = try runChild(stride, ["--ledger", ledger, "rebuild", "--quiet"])
            guard run.status == 0 else { throw BenchFailure("stride rebuild failed: \(run.errorOutput.prefix(300))") }
            processSeconds.append(run.seconds)
            memory.append(run.peakKilobytes)
            processFaults.append(Double(run.minorFaults))
            sync()
            let opened = try Ledger.open(at: ledger)
            let faultsBefore = Self.minorFaults()
            let began = monotonicSeconds()
            _ = try opened.rebuild()
            inProcessSeconds.append(monotonicSeconds() - began)
            inProcessFaults.append(Double(Self.minorFaults() - faultsBefore))
        }
        let process = Rate(label: "", perSecond: processSeconds).median
        let inProcess = Rate(label: "", perSecond: inProcessSeconds).median
        let faults = { (values: [Double]) in String(format: "%.0f", Rate(label: "", perSecond: values).median) }
        let rows = [
            [
                "`stride rebuild`, the whole process (start to exit)", String(format: "%.3f s", process), formatRate(Double(total) / process),
                "\(memory.sorted()[memory.count / 2] / 1024) MB", faults(processFaults),
            ],
            [
                "the same rebuild called in this process", String(format: "%.3f s", inProcess), formatRate(Double(total) / inProcess), "",
                faults(inProcessFaults),
            ],
        ]
        printTable(["measure", "time", "events/s", "peak memory", "page faults"], rows)
        print("\nTarget: a full rebuild ≥ 3 M events/s.\n")
        if profile {
            try ProfileReport.run(
                label: "`stride rebuild` of the realistic ledger", steps: ProfileReport.rebuildSteps, runs: options.runs, work: options.work,
                stride: stride,
                prepare: { _ in }, arguments: { _ in ["--ledger", ledger, "rebuild", "--quiet"] })
        }
        try? FileManager.default.removeItem(atPath: ledger)
    }

    /// This process's minor page faults so far.
    private static func minorFaults() -> Int {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return usage.ru_minflt
    }

    /// A million synthetic events rebuilt in process, beside the raw scan; the catch-up.
    private func synthetic() throws {
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
        print(
            "Projections over \(events) events (heart rate, steps, distance, energy, sleep from a watch and a phone); median of \(options.runs) runs.\n"
        )

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
            _ = try ledger.store.append(
                [HealthMix.event(events + 3 * index + 2)], expecting: [], recordedAt: clock.now(), projections: ledger.projections)
            appendsFolded.append(monotonicSeconds() - foldedBegan)
        }
        let added = Rate(label: "", perSecond: appendsFolded).median - Rate(label: "", perSecond: appendsAlone).median
        let rebuild = Rate(label: "", perSecond: rebuilds).median
        let scan = Rate(label: "", perSecond: scans).median
        let latency = Rate(label: "", perSecond: latencies).median
        let p90 = latencies.sorted()[latencies.count * 9 / 10]
        printTable(
            ["measure", "stride", "raw LMDB scan", "stride/raw", "target"],
            [
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
