import ArgumentParser
import Foundation
import Glibc
import StrideTestSupport

/// The copy in PostgreSQL measured: how far behind the table is under `stride-bench serve`'s
/// mixed load, what `--replica-acknowledge` costs a push, what a row costs the table, how fast
/// a ledger is restored from it, and what a follower holds.
struct ReplicaBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replica",
        abstract: "Measure replication to PostgreSQL: lag under load, push latency with and without acknowledge, restore, bytes, a follower.",
        discussion: """
            Starts a PostgreSQL server of its own (Debian's, on a socket in the work folder) unless --postgres names one. \
            With --restore-ledger, that runner's ledger (in a folder of runners' ledgers) is copied to the table and \
            restored from it, --runs times.
            """)

    @OptionGroup var options: BenchOptions

    @Option(help: "A PostgreSQL address to use instead of a temporary server.")
    var postgres: String?

    @Option(help: "Concurrent clients of the mixed phase (as stride-bench serve's).")
    var clients = 16

    @Option(help: "Seconds the mixed phase is measured, per run.")
    var seconds = 10.0

    @Option(help: "Days of history in the served ledger.")
    var days = 60

    @Option(help: "Pushes timed per server, per run, with and without --replica-acknowledge in turn.")
    var pushes = 5

    @Option(help: "A runner's ledger (DIR/NAME of a folder of runners' ledgers) to copy to the table and restore from it.")
    var restoreLedger: String?

    func run() throws {
        let work = options.work + "/replica"
        try? FileManager.default.removeItem(atPath: work)
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let temporary = postgres == nil ? try TemporaryPostgres.start() : nil
        defer { temporary?.remove() }
        let address = postgres ?? temporary?.url ?? ""
        let table = ReplicaTableQueries(address: address)
        print("PostgreSQL: \(postgres == nil ? "a temporary Debian server on a Unix socket" : address).")

        let bench = try ServeSetup.make(work: work + "/serve", days: days, asRunner: true, serving: ["--replica", address])
        print(bench.summary)
        // The history's first copy is not the load's: measured from a table that holds it.
        try table.waitUntilCopied(runner: "bench", ledger: bench.ledger, stride: bench.stride)
        let roles = ServeBenchmark.mixedRoles(clients: clients)
        var lags: [(p50: Double, p99: Double, max: Double, events: Int)] = []
        var rates: [Double] = []
        for run in 1...options.runs {
            let started = Date()
            let records = runClients(roles, target: bench.target, seconds: seconds, warmUp: 1, seed: UInt64(run))
            let problems = records.flatMap(\.problems)
            if !problems.isEmpty { throw BenchFailure("the mixed phase failed: \(problems.prefix(3).joined(separator: "; "))") }
            rates.append(Double(records.reduce(0) { $0 + $1.latencies.values.reduce(0) { $0 + $1.count } }) / seconds)
            try table.waitUntilCopied(runner: "bench", ledger: bench.ledger, stride: bench.stride)
            lags.append(try table.lag(runner: "bench", since: started))
        }
        _ = bench.server.stop()
        bench.helloServer.stop()
        let bytes = try table.bytesPerEvent()
        let ledgerBytes = Double(fileSize(bench.ledger + "/data.mdb")) / Double(max(try table.count(runner: "bench"), 1))

        // A push of a day of watch data, to a quiet server started with and without acknowledge, in turn.
        var plain: [Double] = []
        var acknowledged: [Double] = []
        for run in 1...options.runs {
            for acknowledge in [false, true] {
                let server = try ServerProcess(
                    bench.stride,
                    ["serve", "--ledgers", work + "/serve/ledgers", "--port", "0", "--replica", address]
                        + (acknowledge ? ["--replica-acknowledge"] : []),
                    logPath: work + "/push.log")
                let target = bench.target.moved(to: server.port, pushesFrom: bench.target.firstPushDay + 5_000 + run * 100 + (acknowledge ? 50 : 0))
                var client = BenchClient(role: .pusher, index: 0, target: target, recordFrom: 0, seed: UInt64(run))
                var times: [Double] = []
                for _ in 0..<pushes {
                    let call = target.push(day: target.nextPushDay())
                    let began = monotonicSeconds()
                    guard let answer = client.send(call, route: "push"), answer.status == 200 else {
                        throw BenchFailure("a push failed: \(client.record.problems.joined(separator: "; "))")
                    }
                    times.append(monotonicSeconds() - began)
                }
                _ = server.stop()
                if acknowledge { acknowledged.append(median(times)) } else { plain.append(median(times)) }
            }
        }

        print(
            """

            Replication lag under the mixed load (\(clients) clients: pushes of a day of watch data, actions, reads; \
            \(String(format: "%.0f", median(rates))) requests/s), per run — from each append's recording time to the table's commit:
            """)
        for (index, lag) in lags.enumerated() {
            print(
                String(
                    format: "  run %d: %d events, p50 %.0f ms, p99 %.0f ms, max %.0f ms", index + 1, lag.events, lag.p50 * 1000, lag.p99 * 1000,
                    lag.max * 1000))
        }
        print(
            String(
                format: "  median of runs: p50 %.0f ms, p99 %.0f ms", median(lags.map(\.p50)) * 1000, median(lags.map(\.p99)) * 1000))
        print(
            String(
                format:
                    "\nA push of a day of watch data (%@), median of %d per run, runs in turn:\n  without acknowledge: %@ ms\n  with --replica-acknowledge: %@ ms\n  ratio (medians): %.2f",
                bench.pushFormat, pushes, plain.map { String(format: "%.0f", $0 * 1000) }.joined(separator: ", "),
                acknowledged.map { String(format: "%.0f", $0 * 1000) }.joined(separator: ", "), median(acknowledged) / max(median(plain), 1e-9)))
        print(
            String(
                format:
                    "\nThe table: %.0f bytes per event on disk (rows, index and TOAST), envelopes %.0f bytes on average; the ledger %.0f bytes per event.",
                bytes.total, bytes.envelope, ledgerBytes))

        if let restoreLedger { try measureRestore(restoreLedger, address: address, table: table, stride: bench.stride, work: work) }
        try measureFollower(address: address, table: table, stride: bench.stride, work: work)
    }

    /// Copies a big ledger to the table (a server with --replica until the lag is 0), restores
    /// it --runs times, and compares the last restore with the table.
    private func measureRestore(_ path: String, address: String, table: ReplicaTableQueries, stride: String, work: String) throws {
        let url = URL(fileURLWithPath: path)
        let (folder, runner) = (url.deletingLastPathComponent().path, url.lastPathComponent)
        let events = try table.ledgerEvents(path, stride: stride)
        let began = monotonicSeconds()
        let server = try ServerProcess(stride, ["serve", "--ledgers", folder, "--port", "0", "--replica", address], logPath: work + "/copy.log")
        try table.waitUntilCopied(runner: runner, ledger: path, stride: stride, within: 7_200)
        let copySeconds = monotonicSeconds() - began
        _ = server.stop()
        print(
            String(
                format: "\nFirst copy of %@ (%d events) to the table by a server with --replica: %.1f s, %.0f events/s.", runner, events, copySeconds,
                Double(events) / copySeconds))
        var rates: [Double] = []
        for _ in 1...options.runs {
            let restored = work + "/restored-" + runner
            try? FileManager.default.removeItem(atPath: restored)
            let run = try ServeSetup.must(stride, ["ledger", "restore", "--from", address, "--runner", runner, "--ledger", restored])
            rates.append(Double(events) / run.seconds)
            print("  " + run.output.trimmingCharacters(in: .whitespacesAndNewlines))
            try? FileManager.default.removeItem(atPath: restored)
        }
        print(
            String(format: "Restore, whole command (chain checked, figures folded): median %.0f events/s over %d runs.", median(rates), rates.count))
    }

    /// A follower started on an empty folder: how fast it catches up with every runner in the
    /// table, and what it holds then.
    private func measureFollower(address: String, table: ReplicaTableQueries, stride: String, work: String) throws {
        let folder = work + "/follower"
        let runners = try table.runners()
        let total = try runners.reduce(0) { $0 + (try table.count(runner: $1)) }
        let began = monotonicSeconds()
        let server = try ServerProcess(stride, ["serve", "--ledgers", folder, "--port", "0", "--follow", address], logPath: work + "/follow.log")
        for runner in runners {
            try table.waitUntilFollowed(runner: runner, folder: folder, stride: stride)
        }
        let seconds = monotonicSeconds() - began
        let status = try String(contentsOfFile: "/proc/\(server.pid)/status", encoding: .utf8)
        let rss = PushMemoryBenchmark.kilobytes(status, "VmRSS") ?? 0
        let anonymous = PushMemoryBenchmark.kilobytes(status, "RssAnon") ?? 0
        _ = server.stop()
        let disk = runners.reduce(0) { $0 + fileSize(folder + "/" + $1 + "/data.mdb") }
        print(
            String(
                format:
                    "\nA follower from nothing: %d runners, %d events in %.1f s (%.0f events/s, figures folded); then %.0f MB resident (%.0f MB private, the rest the ledgers' mapped pages), %.0f MB of ledgers on disk.",
                runners.count, total, seconds, Double(total) / seconds, Double(rss) / 1024, Double(anonymous) / 1024, Double(disk) / 1_048_576))
    }
}

extension ServeBenchmark {
    /// The mixed phase's clients for `clients`: one pusher per 16, an actor per 5, readers.
    static func mixedRoles(clients: Int) -> [ClientRole] {
        let pushers = clients >= 3 ? max(1, clients / 16) : 0
        let actors = clients >= 2 ? max(1, clients / 5) : 0
        return [ClientRole](repeating: .pusher, count: pushers) + [ClientRole](repeating: .actor, count: actors)
            + [ClientRole](repeating: .reader(ReadRoute.allCases), count: clients - pushers - actors)
    }
}

extension ServeTarget {
    /// The same ledger served at another port, pushing days from `firstPushDay`.
    func moved(to port: Int, pushesFrom firstPushDay: Int) -> ServeTarget {
        ServeTarget(
            port: port, token: token, pushesHealthAutoExport: pushesHealthAutoExport, timeZone: timeZone, history: history,
            lastSequence: lastSequence, workouts: workouts, shoes: shoes, firstPushDay: firstPushDay)
    }
}

/// The size of a file, 0 when it is missing.
func fileSize(_ path: String) -> Int {
    var status = stat()
    return stat(path, &status) == 0 ? Int(status.st_size) : 0
}

/// What the benchmark asks the table, with psql.
struct ReplicaTableQueries {
    let address: String

    func query(_ sql: String) throws -> String {
        let psql = ["/usr/bin/psql"].first { FileManager.default.isExecutableFile(atPath: $0) } ?? "psql"
        let run = try runChild(psql, ["-X", "-A", "-t", "-q", "-v", "ON_ERROR_STOP=1", "-d", address, "-c", sql])
        guard run.status == 0 else { throw BenchFailure("psql: \(run.errorOutput.prefix(300))") }
        return run.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func count(runner: String) throws -> Int {
        Int(try query("SELECT last_sequence FROM stride_runners WHERE runner = '\(runner)'")) ?? 0
    }

    func runners() throws -> [String] {
        try query("SELECT runner FROM stride_runners ORDER BY runner").split(separator: "\n").map(String.init)
    }

    func ledgerEvents(_ ledger: String, stride: String) throws -> Int {
        let stats = try ServeSetup.json(stride, ["--ledger", ledger, "ledger", "stats", "--json"])
        return stats["lastSequence"] as? Int ?? 0
    }

    /// Waits until the table holds every event of the ledger.
    func waitUntilCopied(runner: String, ledger: String, stride: String, within seconds: Double = 120) throws {
        let target = try ledgerEvents(ledger, stride: stride)
        let deadline = monotonicSeconds() + seconds
        while try count(runner: runner) < target {
            guard monotonicSeconds() < deadline else { throw BenchFailure("the table did not reach \(target) events of \(runner) in \(seconds) s") }
            usleep(50_000)
        }
    }

    /// Waits until the follower's ledger holds every event the table holds of the runner.
    func waitUntilFollowed(runner: String, folder: String, stride: String, within seconds: Double = 7_200) throws {
        let target = try count(runner: runner)
        let deadline = monotonicSeconds() + seconds
        while !FileManager.default.fileExists(atPath: folder + "/" + runner + "/data.mdb")
            || (try? ledgerEvents(folder + "/" + runner, stride: stride)) ?? 0 < target
        {
            guard monotonicSeconds() < deadline else { throw BenchFailure("the follower did not reach \(target) events of \(runner)") }
            usleep(200_000)
        }
    }

    /// The lag of the events recorded since `start`, in seconds: p50, p99, max.
    func lag(runner: String, since start: Date) throws -> (p50: Double, p99: Double, max: Double, events: Int) {
        let row = try query(
            """
            SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY lag), percentile_cont(0.99) WITHIN GROUP (ORDER BY lag), max(lag), count(*)
            FROM (SELECT extract(epoch FROM copied_at - recorded_at) AS lag FROM stride_events
                  WHERE runner = '\(runner)' AND recorded_at >= to_timestamp(\(start.timeIntervalSince1970))) AS lags
            """
        ).split(separator: "|").map { Double($0) ?? 0 }
        guard row.count == 4 else { throw BenchFailure("no lag figures") }
        return (row[0], row[1], row[2], Int(row[3]))
    }

    /// Bytes on disk per event (the table with its index and TOAST), and the envelopes' mean.
    func bytesPerEvent() throws -> (total: Double, envelope: Double) {
        try query("VACUUM ANALYZE stride_events")
        let row = try query(
            "SELECT pg_total_relation_size('stride_events')::float / greatest(count(*), 1), avg(octet_length(envelope)) FROM stride_events"
        ).split(separator: "|").map { Double($0) ?? 0 }
        return (row.first ?? 0, row.last ?? 0)
    }
}
