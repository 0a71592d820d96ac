import ArgumentParser

/// `stride-bench`: Stride's performance targets, measured beside the raw LMDB limit and the
/// Python peers in one run, reported as medians and ratios.
@main
struct StrideBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stride-bench",
        abstract: "Measure Stride beside raw LMDB and the Python peers, and print medians and ratios.",
        discussion: "The machine may be busy: each figure is the median of several runs; compare ratios, not seconds.",
        subcommands: [
            LogBenchmark.self, IngestBenchmark.self, ReadBenchmark.self, RebuildBenchmark.self, PartsBenchmark.self, FaultBenchmark.self,
            LoadBenchmark.self, ServeBenchmark.self, PagesBenchmark.self, FITBenchmark.self, FuzzBenchmark.self, FuzzWorker.self,
            PushMemoryBenchmark.self, RunnersBenchmark.self, ArchiveBenchmark.self, TrainingBenchmark.self,
            RecordedBenchmark.self, ZonesBenchmark.self, ReplicaBenchmark.self,
            HelloServer.self,
        ],
        defaultSubcommand: LogBenchmark.self
    )
}

/// Options every benchmark shares.
struct BenchOptions: ParsableArguments {
    @Option(help: "Runs per measurement; the median is reported.")
    var runs = 3

    @Option(help: "Working folder for ledgers and the peers' virtual environment.")
    var work = ".build/stride-bench"

    @Flag(help: "Skip the Python peers (no network or no Python).")
    var skipPeers = false

    func validate() throws {
        guard runs >= 1 else { throw ValidationError("--runs must be at least 1") }
    }
}
