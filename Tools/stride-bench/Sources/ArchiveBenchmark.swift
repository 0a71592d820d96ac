import ArgumentParser
import Foundation

/// Account archives (Strava's, Garmin Connect's) beside the FIT files they hold: `stride
/// ingest` of each archive and of its FIT files alone, into fresh ledgers, a pair at a time, at
/// two sizes — to show the archive's cost over its files and that memory stays flat in its size.
struct ArchiveBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "archive",
        abstract: "Measure ingesting Strava and Garmin Connect archives beside the same FIT files alone.",
        discussion: """
            `stride-sample archive` writes each archive (runs recorded second by second, a rack of five \
            shoes) and, for Strava's, a zip of the same FIT files. Each run ingests the FIT zip, then \
            the Strava archive, then the Garmin one, each into a fresh ledger, as separate processes; \
            the median of --runs is reported. Private memory: the peak of the process's anonymous \
            memory (RssAnon, sampled every 10 ms), which leaves out LMDB's mapped file. Targets: an \
            archive ingests within 2× its FIT files alone; private memory flat in the archive's size.
            """)

    @OptionGroup var options: BenchOptions

    @Option(help: "The archives' sizes, in activities (comma-separated).")
    var activities = "500,2000"

    @Flag(help: "Measure archives of rows alone instead: many activities on one day beside the same spread over years.")
    var rows = false

    @Option(help: "With --rows, also ingest an archive of this many rows (1000000 for the million-row probe).")
    var largest = 0

    func run() throws {
        if rows { return try crowdedDays() }
        let (stride, sample) = try builtTools()
        try FileManager.default.createDirectory(atPath: options.work, withIntermediateDirectories: true)
        let sizes = activities.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !sizes.isEmpty else { throw BenchFailure("--activities must list sizes, such as 500,2000") }
        var rows: [[String]] = []
        var peaks: [String: [Int: Double]] = [:]
        for size in sizes {
            let folder = options.work + "/archives-\(size)"
            let (strava, garmin, fits) = (folder + "/strava.zip", folder + "/garmin.zip", folder + "/fits.zip")
            if [strava, garmin, fits].contains(where: { isStale($0, comparedWith: sample) }) {
                try? FileManager.default.removeItem(atPath: folder)
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                for (output, extra) in [(strava, ["--service", "strava", "--fit-zip", fits]), (garmin, ["--service", "garmin"])] {
                    let written = try runChild(sample, ["archive", output, "--activities", String(size)] + extra)
                    guard written.status == 0 else { throw BenchFailure("stride-sample archive failed: \(written.errorOutput)") }
                }
            }
            var seconds: [String: [Double]] = [:]
            var memory: [String: [Double]] = [:]
            for _ in 0..<options.runs {
                for (label, file) in [("FIT files alone", fits), ("Strava archive", strava), ("Garmin Connect archive", garmin)] {
                    let ledger = options.work + "/archive-ledger"
                    try? FileManager.default.removeItem(atPath: ledger)
                    guard try runChild(stride, ["--ledger", ledger, "init", "--time-zone", "Europe/Paris"]).status == 0 else {
                        throw BenchFailure("`stride init` failed in \(ledger)")
                    }
                    var peak = 0
                    let run = try runChild(stride, ["--ledger", ledger, "ingest", "--quiet", file]) { status in
                        peak = max(peak, PushMemoryBenchmark.kilobytes(status, "RssAnon") ?? 0)
                    }
                    guard run.status == 0 else { throw BenchFailure("`stride ingest \(file)` failed: \(run.errorOutput.prefix(300))") }
                    seconds[label, default: []].append(run.seconds)
                    memory[label, default: []].append(Double(peak) / 1024)
                }
            }
            let megabytes = Double(FileManager.default.attributesOfItem(atPathOrZero: strava)) / 1e6
            let fitSeconds = median(seconds["FIT files alone"] ?? [])
            for label in ["FIT files alone", "Strava archive", "Garmin Connect archive"] {
                let time = median(seconds[label] ?? [])
                let privatePeak = median(memory[label] ?? [])
                peaks[label, default: [:]][size] = privatePeak
                rows.append([
                    "\(size)", label, String(format: "%.2f s", time), label == "FIT files alone" ? "1×" : String(format: "%.2f×", time / fitSeconds),
                    String(format: "%.0f MB", privatePeak), label == "Strava archive" ? String(format: "%.0f MB", megabytes) : "",
                ])
            }
        }
        print("Archives written by stride-sample; median of \(options.runs) runs, each the three ingests in turn.\n")
        printTable(["activities", "input", "time", "vs FIT files", "private peak", "archive size"], rows)
        if sizes.count >= 2, let small = sizes.first, let large = sizes.last {
            print("")
            for (label, bySize) in peaks.sorted(by: { $0.key < $1.key }) {
                guard let low = bySize[small], let high = bySize[large], low > 0 else { continue }
                print(
                    "\(label): private peak \(String(format: "%.0f", low)) MB at \(small) activities, \(String(format: "%.0f", high)) MB at \(large) (\(String(format: "%+.0f", (high / low - 1) * 100)) %)."
                )
            }
        }
        print("\nTargets: an archive within 2× its FIT files alone; private memory flat in the archive's size.")
    }
}

extension ArchiveBenchmark {
    /// Archives of `activities.csv` rows alone (`stride-sample rows`), pairs in turn: 4,000
    /// activities on one day beside 4,000 one a day, 20,000 at 288 a day beside 20,000 at 4 a
    /// day, and with --largest a million-row archive (288 a day) beside a small one's rate. Target: a
    /// crowded day within 2× the same activities spread; a large archive at a small one's rate.
    func crowdedDays() throws {
        let (stride, sample) = try builtTools()
        try FileManager.default.createDirectory(atPath: options.work, withIntermediateDirectories: true)
        var shapes: [(label: String, count: Int, perDay: Int)] = [
            ("4,000 on one day", 4_000, 4_000), ("4,000, one a day", 4_000, 1), ("20,000, 288 a day", 20_000, 288), ("20,000, 4 a day", 20_000, 4),
        ]
        // 288 a day: a million rows span nine and a half years, every start a plausible one.
        if largest > 0 { shapes.append(("\(largest.groupedDigits), 288 a day", largest, 288)) }
        var folders: [String: String] = [:]
        for shape in shapes {
            let folder = options.work + "/rows-\(shape.count)-\(shape.perDay)"
            if isStale(folder + "/activities.csv", comparedWith: sample) {
                try? FileManager.default.removeItem(atPath: folder)
                // From 2012: twenty thousand at four a day end in 2025, before the clock.
                let written = try runChild(
                    sample, ["rows", folder, "--activities", String(shape.count), "--per-day", String(shape.perDay), "--start", "2012-01-02"])
                guard written.status == 0 else { throw BenchFailure("stride-sample rows failed: \(written.errorOutput)") }
            }
            folders[shape.label] = folder
        }
        var seconds: [String: [Double]] = [:]
        for _ in 0..<options.runs {
            // In turn: each shape once a round, so the machine's moods fall on all of them.
            for shape in shapes {
                let ledger = options.work + "/rows-ledger"
                try? FileManager.default.removeItem(atPath: ledger)
                guard try runChild(stride, ["--ledger", ledger, "init", "--time-zone", "Europe/Paris"]).status == 0 else {
                    throw BenchFailure("`stride init` failed in \(ledger)")
                }
                let run = try runChild(stride, ["--ledger", ledger, "ingest", "--quiet", folders[shape.label] ?? ""])
                guard run.status == 0 else { throw BenchFailure("`stride ingest` of \(shape.label) failed: \(run.errorOutput.prefix(300))") }
                seconds[shape.label, default: []].append(run.seconds)
            }
        }
        var table: [[String]] = []
        for shape in shapes {
            let time = median(seconds[shape.label] ?? [])
            table.append([shape.label, String(format: "%.2f s", time), "\(Int(Double(shape.count) / time).groupedDigits)"])
        }
        print("Archives of activities.csv rows alone (stride-sample rows); median of \(options.runs) rounds, the shapes in turn.\n")
        printTable(["archive", "time", "rows/s"], table)
        let ratio = { (crowded: String, spread: String) in median(seconds[crowded] ?? []) / median(seconds[spread] ?? []) }
        print(
            "\nA crowded day beside the same activities spread: \(String(format: "%.2f", ratio("4,000 on one day", "4,000, one a day")))× (4,000), "
                + "\(String(format: "%.2f", ratio("20,000, 288 a day", "20,000, 4 a day")))× (20,000). Target: within 2×.")
    }
}

extension FileManager {
    fileprivate func attributesOfItem(atPathOrZero path: String) -> Int {
        ((try? attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }
}
