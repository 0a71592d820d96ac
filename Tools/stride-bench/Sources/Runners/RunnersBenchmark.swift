import ArgumentParser
import Foundation
import Glibc
import Synchronization

/// A shared server under load: `stride serve --ledgers` over many runners' ledgers of the same
/// history, clients spread over them. Measures the server's memory as ledgers open, the time
/// of a runner's first request (the ledger opened for it) against the next, the reads' rate and
/// latency across runners, and whether one runner's heavy work (replays and re-sent exports)
/// slows the others' reads.
struct RunnersBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "runners",
        abstract: "Load `stride serve --ledgers` with clients spread over many runners' ledgers; memory, first requests, reads, fairness.",
        discussion: """
            The runners' ledgers are copies of one generated history (a watch and a phone, --days long): the \
            server cannot tell them apart from different ones, and one history is generated and ingested once. \
            The copies need --runners × the ledger's size on disk; the benchmark refuses to start without it \
            (and 5 GB to spare).
            """)

    @OptionGroup var options: BenchOptions

    @Option(help: "Runners, each with a ledger of its own.")
    var runners = 200

    @Option(help: "Days of history in each runner's ledger.")
    var days = 365

    @Option(help: "Concurrent clients (2 to 128).")
    var clients = 32

    @Option(help: "Seconds each load phase is measured, after 1 s of warm-up.")
    var seconds = 10.0

    func validate() throws {
        guard (2...5_000).contains(runners) else { throw ValidationError("--runners must be from 2 to 5000") }
        guard (31...3_650).contains(days) else { throw ValidationError("--days must be from 31 to 3650") }
        guard (2...128).contains(clients) else { throw ValidationError("--clients must be from 2 to 128") }
        guard (1...120).contains(seconds) else { throw ValidationError("--seconds must be from 1 to 120") }
    }

    func run() throws {
        let club = try RunnersClub.make(work: options.work + "/runners", runners: runners, days: days)
        defer { try? FileManager.default.removeItem(atPath: club.work) }
        print(club.summary)
        let server = try ServerProcess(club.stride, ["serve", "--ledgers", club.folder, "--port", "0"], logPath: club.work + "/serve.log")
        var lines: [[String]] = [["server started, no ledger open", ProcessMemory(pid: server.pid).text]]

        // Each runner's first request opens their ledger; the second finds it open.
        var first: [Double] = []
        var second: [Double] = []
        let connection = HTTPConnection(port: server.port)
        for name in club.names {
            let call = club.read(.stats, runner: name, random: &club.random)
            first.append(try timed(connection, call))
            second.append(try timed(connection, call))
        }
        lines.append(["all \(runners) ledgers open", ProcessMemory(pid: server.pid).text])
        print("\nA runner's first request (GET /v1/stats, their ledger opened for it) and the next, over \(runners) runners:")
        printTable(
            ["request", "median", "p99", "max"],
            [("first", first), ("second", second)].map { label, times in
                [label, milliseconds(percentile(times, 0.5)), milliseconds(percentile(times, 0.99)), milliseconds(times.max() ?? .nan)]
            })

        var phases: [(String, LoadOutcome)] = []
        for run in 1...options.runs {
            let spread = RunnersLoad(club: club, port: server.port, clients: clients, seconds: seconds, heavy: false, seed: UInt64(run))
            phases.append(("reads over \(runners) runners, run \(run)", try spread.run()))
            lines.append(["after reads, run \(run)", ProcessMemory(pid: server.pid).text])
            let busy = RunnersLoad(club: club, port: server.port, clients: clients, seconds: seconds, heavy: true, seed: UInt64(run))
            phases.append(("the same, runner \(club.names[0]) replaying and re-sending exports, run \(run)", try busy.run()))
        }
        print("\n\(clients) clients, each request to a runner drawn at random (daily, shoes, workouts, points, log, stats):")
        printTable(
            ["phase", "reads/s", "p50", "p99", "heavy done", "errors"],
            phases.map { name, outcome in
                [
                    name, String(format: "%.0f", outcome.readsPerSecond), milliseconds(percentile(outcome.latencies, 0.5)),
                    milliseconds(percentile(outcome.latencies, 0.99)), outcome.heavyDone.map(String.init) ?? "-", String(outcome.errors.count),
                ]
            })
        for (name, outcome) in phases where !outcome.errors.isEmpty { print("  \(name): \(outcome.errors.prefix(3).joined(separator: "; "))") }
        print("\nThe server's memory (resident: private, and file pages of the ledgers mapped):")
        printTable(["when", "memory"], lines)
        if server.stop() != 0 { throw BenchFailure("stride serve did not exit 0 on SIGTERM") }
    }

    private func timed(_ connection: HTTPConnection, _ call: HTTPCall) throws -> Double {
        let began = monotonicSeconds()
        let answer = try connection.send(call)
        guard answer.status == 200 else { throw BenchFailure("\(call.target) answered \(answer.status): \(answer.text.prefix(200))") }
        return monotonicSeconds() - began
    }
}

/// A process's resident memory, from `/proc/PID/status` (0 for what it does not say).
struct ProcessMemory {
    var anonymousBytes: Int
    var fileBytes: Int

    init(pid: pid_t) {
        func field(_ name: String) -> Int { (try? PushMemoryBenchmark.status(of: pid, name)) ?? 0 }
        anonymousBytes = field("RssAnon")
        fileBytes = field("RssFile") + field("RssShmem")
    }

    var text: String {
        String(format: "%.0f MB private, %.0f MB of mapped files", Double(anonymousBytes) / 1_048_576, Double(fileBytes) / 1_048_576)
    }
}
