import ArgumentParser
import Foundation
import StrideContract
import StrideDashboard
import StrideEvents
import StrideLedger

/// The past as recorded on the training benchmark's ten-year ledger (an export and a Strava
/// archive of thousands of runs with their streams): the reads the server answers with
/// `?asRecorded=` at the log's end, past it, and at the points that fold the most from their
/// snapshot (issue 42).
struct RecordedBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recorded",
        abstract: "Time the reads as recorded (training, mileage, a page) at the log's end, past it, and at the worst points.",
        discussion: """
            The ledger is `stride-bench training`'s ten-year one (made once, kept in the working folder): \
            --days of a watch and a phone's export and a Strava archive of --activities runs and rides, \
            each with its stream. With --rebuild its projections and snapshots are made again first \
            (`stride rebuild`, whole process, timed), so that a ledger an earlier build wrote gets this \
            build's snapshots. Each read runs in one view, as the server runs it; medians of --runs. \
            Target: every read as recorded under 1 s.
            """)

    @OptionGroup var options: BenchOptions

    @Option(help: "Activities in the ledger's Strava archive.")
    var activities = 2_400

    @Option(help: "Days of the ledger's export.")
    var days = 3_650

    @Flag(help: "Rebuild the projections and their snapshots first.")
    var rebuild = false

    func run() throws {
        let (stride, sample) = try builtTools()
        try FileManager.default.createDirectory(atPath: options.work, withIntermediateDirectories: true)
        let path = try trainingLedger(work: options.work, days: days, activities: activities, stride: stride, sample: sample)
        if rebuild {
            let run = try runChild(stride, ["--ledger", path, "rebuild"])
            guard run.status == 0 else { throw BenchFailure("rebuild failed: \(run.errorOutput.prefix(300))") }
            print(String(format: "Rebuilt in %.1f s (whole process).", run.seconds))
        }
        let ledger = try Ledger.open(at: path)
        let last = try ledger.lastSequence()
        var streams: [UInt64] = []
        var from: UInt64 = 1
        while let page = try Optional(ledger.events(from: from, limit: 5_000, type: .workoutStreamRecorded)), let end = page.last {
            streams += page.map(\.sequence)
            from = end.sequence + 1
        }
        let taken = try ledger.store.snapshotSequences(of: ledger.projections)
        let training = taken["training"] ?? []
        // The point that folds the most streams from its snapshot: the event before a snapshot
        // (or the log's last but one), after the one before it.
        let bounds = [0] + training + [last]
        var worst: (point: UInt64, streams: Int, events: UInt64) = (last - 1, 0, 0)
        for (start, end) in zip(bounds, bounds.dropFirst()) where end > start + 1 {
            let folded = streams.filter { $0 > start && $0 < end }.count
            if folded > worst.streams { worst = (end - 1, folded, end - 1 - start) }
        }
        print(
            "Ledger: \(last) events, \(streams.count) streams; snapshots: "
                + taken.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.count)" }.joined(separator: ", ")
                + "; the worst point \(worst.point) folds \(worst.streams) streams (\(worst.events) events) from its snapshot.\n")
        printPastCacheSize(ledger)
        print("")

        let points: [(String, String)] = [
            ("the log's end (\(last))", String(last)), ("past the end (99999999999)", "99999999999"),
            ("an instant far ahead (2999-01-01)", "2999-01-01T00:00:00Z"), ("½ (\(last / 2))", String(last / 2)),
            ("the worst point (\(worst.point))", String(worst.point)), ("the present (no asRecorded)", ""),
        ]
        var rows: [[String]] = []
        for (label, value) in points {
            let travel = value.isEmpty ? nil : TimeTravel(parsing: value)
            let reads: [(String, () throws -> Void)] = [
                (
                    "training weeks",
                    {
                        _ = try ledger.read {
                            try TrainingVolumeDocument(ledger, per: .week, TrainingQuery(asRecordedThrough: travel?.recordedSequence(in: ledger)))
                                .json.bytes
                        }
                    }
                ),
                (
                    "mileage",
                    { _ = try ledger.read { try ShoesDocument(ledger, asRecordedThrough: travel?.recordedSequence(in: ledger)).json.bytes } }
                ),
                (
                    "the overview page",
                    {
                        let context = PageContext(forms: .shown(csrf: String(repeating: "0", count: 64)), timeTravel: travel)
                        _ = try ledger.read { try Dashboard.render(page: .overview, ledger: ledger, context: context) }
                    }
                ),
            ]
            for (name, read) in reads {
                var times: [Double] = []
                for _ in 0..<options.runs {
                    // A ledger just opened: nothing kept from the run before.
                    let began = monotonicSeconds()
                    try read()
                    times.append(monotonicSeconds() - began)
                }
                let median = Rate(label: "", perSecond: times).median
                rows.append([label, name, String(format: "%.1f ms", median * 1e3), median < 1 ? "yes" : "NO"])
            }
        }
        printTable(["as recorded at", "read", "median", "under 1 s"], rows)
        try sweep(ledger, last: last)
    }

    /// Every read as recorded at a point every 1,000 events over the last 60,000 (where the
    /// archive's runs and streams are) and at 40 points spread over the whole log, once each:
    /// the slowest of each read.
    private func sweep(_ ledger: Ledger, last: UInt64) throws {
        let tail = stride(from: last > 60_000 ? last - 60_000 : 1, through: last, by: 1_000).map { $0 }
        let spread = (1...40).map { last * UInt64($0) / 41 }
        var slowest: [(name: String, seconds: Double, point: UInt64)] = [("training weeks", 0, 0), ("mileage", 0, 0), ("the overview page", 0, 0)]
        for point in tail + spread {
            let reads: [() throws -> Void] = [
                { _ = try ledger.read { try TrainingVolumeDocument(ledger, per: .week, TrainingQuery(asRecordedThrough: point)).json.bytes } },
                { _ = try ledger.read { try ShoesDocument(ledger, asRecordedThrough: point).json.bytes } },
                {
                    let context = PageContext(forms: .shown(csrf: String(repeating: "0", count: 64)), timeTravel: TimeTravel(sequence: point))
                    _ = try ledger.read { try Dashboard.render(page: .overview, ledger: ledger, context: context) }
                },
            ]
            for (index, read) in reads.enumerated() {
                let began = monotonicSeconds()
                try read()
                let seconds = monotonicSeconds() - began
                if seconds > slowest[index].seconds { slowest[index] = (slowest[index].name, seconds, point) }
            }
        }
        print(
            "\nThe slowest of \(tail.count + spread.count) points (every 1,000 events of the last 60,000, and 40 spread over the log), once each:\n")
        printTable(
            ["read", "slowest", "at", "under 1 s"],
            slowest.map { [$0.name, String(format: "%.1f ms", $0.seconds * 1e3), String($0.point), $0.seconds < 1 ? "yes" : "NO"] })
    }
}
