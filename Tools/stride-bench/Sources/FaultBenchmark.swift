import ArgumentParser
import Foundation
import Glibc
import StrideLedger

/// The fault harness: ingests a generated export and kills `stride` with SIGKILL at random
/// moments, many times; after each kill `stride verify` must pass, and running the command
/// again must end at exactly the state of an uninterrupted run — the same last hash (so the
/// same events, in the same order) and the same projection digests. With `--server-kills`,
/// it also kills `stride serve` while a client pushes the export (``ServerKillTrials``).
struct FaultBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "faults", abstract: "Kill ingests and rebuilds at random moments; check verify and the resumed state each time.")

    @OptionGroup var options: BenchOptions

    @Option(help: "Kills of `stride ingest` and `stride rebuild` to perform.")
    var kills = 40

    @Option(help: "Kills of `stride serve` in the middle of a push to perform.")
    var serverKills = 0

    @Option(help: "Days of history in the generated export.")
    var days = 120

    @Option(help: "The seed of the kill moments.")
    var seed: UInt64 = 7

    /// The clock every run is pinned to, so runs compare hash for hash.
    static let fixedTime = "2024-07-01T12:00:00+02:00"

    func validate() throws {
        guard kills >= 0, serverKills >= 0, kills + serverKills >= 1 else {
            throw ValidationError("give --kills or --server-kills a count of 1 or more")
        }
    }

    func run() throws {
        let (stride, sample) = try builtTools()
        try FileManager.default.createDirectory(atPath: options.work, withIntermediateDirectories: true)
        let export = options.work + "/faults-export-\(days)d.xml"
        if isStale(export, comparedWith: sample) {
            try? FileManager.default.removeItem(atPath: export)
            guard try runChild(sample, [export, "--days", String(days), "--start", "2024-05-01"]).status == 0 else {
                throw BenchFailure("stride-sample failed")
            }
        }
        setenv("STRIDE_FIXED_TIME", Self.fixedTime, 1)
        defer { unsetenv("STRIDE_FIXED_TIME") }
        var random = SplitMix(state: seed)
        var failures = kills > 0 ? try processTrials(stride, export: export, random: &random) : []
        if serverKills > 0 {
            let trials = ServerKillTrials(stride: stride, work: options.work, export: export)
            let (moments, serverFailures) = try trials.run(count: serverKills, random: &random)
            let counts = ServerKillTrials.Moment.allCases.map { "\(moments[$0] ?? 0) \($0.rawValue)" }.joined(separator: ", ")
            print(
                """
                \(serverKills) server trials: stride serve killed with SIGKILL while a client pushed the export with an Idempotency-Key — \(counts). \
                After each kill `stride verify` must accept the ledger; then the client sends the same request with the same key to a restarted \
                server, and the ledger must end with the reference's events, chain hash and projection digests, and one kept answer. \
                Failures: \(serverFailures.count).
                """)
            for failure in serverFailures { print("  " + failure) }
            failures += serverFailures
        }
        if !failures.isEmpty { throw ExitCode(1) }
    }

    /// Kills of `stride ingest` and `stride rebuild`; returns the failures.
    private func processTrials(_ stride: String, export: String, random: inout SplitMix) throws -> [String] {
        let reference = options.work + "/faults-reference"
        try? FileManager.default.removeItem(atPath: reference)
        try setUp(stride, reference)
        let began = monotonicSeconds()
        try expectSuccess(stride, ["--ledger", reference, "ingest", "--quiet", "--batch-size", "2000", export])
        let ingestSeconds = monotonicSeconds() - began
        let rebuildBegan = monotonicSeconds()
        try expectSuccess(stride, ["--ledger", reference, "rebuild", "--quiet"])
        let rebuildSeconds = monotonicSeconds() - rebuildBegan
        let expected = try state(stride, reference)
        print(
            "Reference: an uninterrupted ingest of \(export) (\(String(format: "%.2f", ingestSeconds)) s) ends at hash \(expected.hash.prefix(16))… with \(expected.digests.count) projections."
        )

        var survived = (ingest: 0, rebuild: 0)
        var failures: [String] = []
        for trial in 1...kills {
            let ledger = options.work + "/faults-trial"
            try? FileManager.default.removeItem(atPath: ledger)
            try setUp(stride, ledger)
            let isRebuild = trial % 4 == 0
            if isRebuild { try expectSuccess(stride, ["--ledger", ledger, "ingest", "--quiet", "--batch-size", "2000", export]) }
            let command =
                isRebuild ? ["--ledger", ledger, "rebuild", "--quiet"] : ["--ledger", ledger, "ingest", "--quiet", "--batch-size", "2000", export]
            let delay = Double(random.next() % 1000) / 1000 * (isRebuild ? rebuildSeconds : ingestSeconds) * 1.1
            let killed = try killAfter(delay, stride, command)
            let verify = try runChild(stride, ["--ledger", ledger, "verify"])
            if verify.status != 0 {
                failures.append("trial \(trial): verify failed after a kill at \(String(format: "%.3f", delay)) s: \(verify.output.prefix(200))")
                continue
            }
            // Finish the interrupted work: the same command again.
            try expectSuccess(stride, command)
            let reached = try state(stride, ledger)
            if reached.hash != expected.hash || reached.digests != expected.digests {
                failures.append("trial \(trial): after a kill at \(String(format: "%.3f", delay)) s the re-run ended at another state")
                continue
            }
            if killed { if isRebuild { survived.rebuild += 1 } else { survived.ingest += 1 } }
        }
        try? FileManager.default.removeItem(atPath: options.work + "/faults-trial")
        print(
            "\(kills) trials: \(survived.ingest) ingests and \(survived.rebuild) rebuilds killed with SIGKILL mid-way, \(kills - survived.ingest - survived.rebuild) finished before their moment came; every one left a ledger `stride verify` accepts, and every re-run ended at the reference hash and projection digests. Failures: \(failures.count)."
        )
        for failure in failures { print("  " + failure) }
        return failures
    }

    private func setUp(_ stride: String, _ ledger: String) throws {
        try expectSuccess(stride, ["--ledger", ledger, "init", "--time-zone", "Europe/Paris"])
        try expectSuccess(
            stride, ["--ledger", ledger, "shoes", "add", "Pegasus 40", "--default", "--goal-km", "300", "--at", "2024-05-10T00:00:00+02:00"])
    }

    private func expectSuccess(_ stride: String, _ arguments: [String]) throws {
        let result = try runChild(stride, arguments)
        guard result.status == 0 else {
            throw BenchFailure("`stride \(arguments.joined(separator: " "))` failed (\(result.status)): \(result.output.prefix(300))")
        }
    }

    /// The last hash and the projection digests, from `stride verify --json`.
    private func state(_ stride: String, _ ledger: String) throws -> (hash: String, digests: [String: String]) {
        let result = try runChild(stride, ["--ledger", ledger, "verify", "--json"])
        guard result.status == 0, let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any],
            let projections = object["projections"] as? [[String: Any]]
        else { throw BenchFailure("stride verify failed on \(ledger): \(result.output.prefix(300))") }
        return (
            try chainHashBeforeSettlement(of: try Ledger.open(at: ledger)),
            Dictionary(
                uniqueKeysWithValues: projections.compactMap { entry in
                    (entry["name"] as? String).map { ($0, entry["storedDigest"] as? String ?? "") }
                })
        )
    }

    /// Starts a command and kills it with SIGKILL after `delay` seconds; true when it was
    /// still running then.
    private func killAfter(_ delay: Double, _ program: String, _ arguments: [String]) throws -> Bool {
        var pid: pid_t = 0
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        guard posix_spawn(&pid, program, &actions, nil, argv, environ) == 0 else { throw BenchFailure("cannot start \(program)") }
        usleep(useconds_t(delay * 1_000_000))
        var status: Int32 = 0
        let finished = waitpid(pid, &status, WNOHANG) == pid
        if !finished {
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
        }
        return !finished
    }
}

/// A seedable random generator for the harnesses.
struct SplitMix {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
