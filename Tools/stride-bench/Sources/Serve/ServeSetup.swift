import Foundation

/// The serve benchmark's world: a realistic ledger served by `stride serve`, a token, the
/// hello server, and what the ledger held before the load.
final class ServeSetup {
    static let timeZone = "Europe/Paris"
    /// The history's first day; pushed days come years before it, so they never overlap it.
    static let historyStart = "2024-01-01"
    static let firstPushDate = "2016-01-01"

    let work: String
    let stride: String
    let ledger: String
    let server: ServerProcess
    let helloServer: ServerProcess
    let target: ServeTarget
    let hello: ServeTarget
    /// `stride stats --json` before the load.
    let baseline: [String: Any]
    let baselineShoes: Int
    /// `Health Auto Export JSON` or `NDJSON`: what the pushes carry.
    let pushFormat: String
    let summary: String

    private init(
        work: String, stride: String, ledger: String, server: ServerProcess, helloServer: ServerProcess, target: ServeTarget, hello: ServeTarget,
        baseline: [String: Any], baselineShoes: Int, pushFormat: String, summary: String
    ) {
        (self.work, self.stride, self.ledger, self.server, self.helloServer) = (work, stride, ledger, server, helloServer)
        (self.target, self.hello, self.baseline, self.baselineShoes, self.pushFormat, self.summary) = (
            target, hello, baseline, baselineShoes, pushFormat, summary
        )
    }

    /// Generates and ingests the history, adds two shoes (the first the default before it, so
    /// its runs are assigned), makes a token, finds whether the Health Auto Export reader is
    /// there, and starts both servers.
    /// - Throws: ``BenchFailure`` when a step fails.
    /// With `asRunner`, the ledger is the runner `bench`'s in a folder of runners' ledgers
    /// (`stride serve --ledgers`), as replication needs; `serving` is added to `stride serve`.
    static func make(work: String, days: Int, asRunner: Bool = false, serving: [String] = []) throws -> ServeSetup {
        let (stride, sample) = try builtTools()
        try? FileManager.default.removeItem(atPath: work)
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let export = work + "/history.xml"
        try must(sample, [export, "--days", String(days), "--start", historyStart])
        let ledger = asRunner ? work + "/ledgers/bench" : work + "/ledger"
        if asRunner {
            try must(stride, ["runners", "add", "bench", "--ledgers", work + "/ledgers", "--time-zone", timeZone])
        } else {
            try must(stride, ["--ledger", ledger, "init", "--time-zone", timeZone])
        }
        try must(stride, ["--ledger", ledger, "shoes", "add", "Base A", "--default", "--at", "2023-12-01T00:00:00+01:00"])
        try must(stride, ["--ledger", ledger, "shoes", "add", "Base B", "--at", "2023-12-01T00:00:00+01:00"])
        let ingest = try must(stride, ["--ledger", ledger, "ingest", "--quiet", export])
        try? FileManager.default.removeItem(atPath: export)
        let token = try must(stride, ["--ledger", ledger, "tokens", "add", "bench-phone"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        let workouts = try json(stride, ["--ledger", ledger, "workouts", "--json"])["workouts"] as? [[String: Any]] ?? []
        let baseline = try json(stride, ["--ledger", ledger, "stats", "--json"])

        let zone = TimeZone(identifier: timeZone) ?? .gmt
        guard let first = WatchDay.days(of: historyStart), let firstPush = WatchDay.days(of: firstPushDate) else { throw BenchFailure("bad dates") }
        // Health Auto Export JSON when `stride ingest` reads it, else the same samples as NDJSON.
        let probe = WatchDay(day: firstPush - 1, timeZone: zone)
        try Data(probe.healthAutoExportJSON).write(to: URL(fileURLWithPath: work + "/probe.json"))
        try must(stride, ["--ledger", work + "/probe-ledger", "init", "--time-zone", timeZone])
        let readsPushes =
            try runChild(stride, ["--ledger", work + "/probe-ledger", "ingest", "--quiet", "--grouping", "minutes", work + "/probe.json"]).status == 0
        try? FileManager.default.removeItem(atPath: work + "/probe-ledger")

        let served = asRunner ? ["serve", "--ledgers", work + "/ledgers"] : ["--ledger", ledger, "serve"]
        let server = try ServerProcess(stride, served + ["--port", "0"] + serving, logPath: work + "/serve.log")
        let helloServer = try ServerProcess(productsFolder + "/stride-bench", ["hello-server", "--port", "0"], logPath: work + "/hello.log")
        let lastSequence = baseline["lastSequence"] as? Int ?? 1
        let target = ServeTarget(
            port: server.port, token: token, pushesHealthAutoExport: readsPushes, timeZone: zone, history: first..<(first + days),
            lastSequence: lastSequence, workouts: workouts.compactMap { $0["id"] as? String }, shoes: ["Base A", "Base B"], firstPushDay: firstPush)
        let hello = ServeTarget(
            port: helloServer.port, token: token, pushesHealthAutoExport: false, timeZone: zone, history: target.history, lastSequence: 1,
            workouts: [], shoes: [], firstPushDay: firstPush)
        let format = readsPushes ? "Health Auto Export JSON" : "NDJSON"
        let payload =
            readsPushes
            ? String(format: "%.1f MB of Health Auto Export JSON to POST /v1/health-auto-export", Double(probe.healthAutoExportJSON.count) / 1e6)
            : String(format: "%.1f MB of NDJSON to POST /v1/ingest", Double(probe.ndjson.count) / 1e6)
                + " (the Health Auto Export reader is not in this build: `stride ingest` refused its JSON)"
        let summary = """
            Served ledger: \(lastSequence) events from a \(days)-day generated watch-and-phone export \
            (ingested in \(String(format: "%.2f", ingest.seconds)) s), \(workouts.count) workouts, two shoes; \
            `stride serve` on port \(server.port), the hello server on \(helloServer.port).
            A push is a day of watch data, \(probe.points.count) points: \(payload).
            """
        return ServeSetup(
            work: work, stride: stride, ledger: ledger, server: server, helloServer: helloServer, target: target, hello: hello, baseline: baseline,
            baselineShoes: 2, pushFormat: format, summary: summary)
    }

    /// One turn of the push timing: the CLI's ingest of a new day's payload into a fresh
    /// ledger (the whole process, as the target reads), the CLI's ingest of another new day
    /// into the served ledger itself (the same ledger the push goes to), then the push of the
    /// first day's payload to the quiet server (request sent to answer read), in seconds.
    func timePush() throws -> (timing: PushTiming, writes: [SentWrite]) {
        let (day, other) = (target.nextPushDay(), target.nextPushDay())
        let call = target.push(day: day)
        let suffix = target.pushesHealthAutoExport ? ".json" : ".ndjson"
        let (file, otherFile) = (work + "/pair" + suffix, work + "/pair-other" + suffix)
        try Data(call.body).write(to: URL(fileURLWithPath: file))
        try Data(target.push(day: other).body).write(to: URL(fileURLWithPath: otherFile))
        let fresh = work + "/pair-ledger"
        try? FileManager.default.removeItem(atPath: fresh)
        try Self.must(stride, ["--ledger", fresh, "init", "--time-zone", Self.timeZone])
        let cliFresh = try Self.must(stride, ["--ledger", fresh, "ingest", "--quiet"] + target.ingestOptions + [file]).seconds
        try? FileManager.default.removeItem(atPath: fresh)
        let cliServed = try Self.must(stride, ["--ledger", ledger, "ingest", "--quiet"] + target.ingestOptions + [otherFile]).seconds
        var client = BenchClient(role: .pusher, index: 0, target: target, recordFrom: 0, seed: UInt64(day))
        let key = "bench-pair-\(day)"
        var keyed = call
        keyed.headers += [("Idempotency-Key", key)]
        sync()
        let began = monotonicSeconds()
        let answer = client.send(keyed, route: "push")
        let push = monotonicSeconds() - began
        guard let answer, answer.status == 200 else { throw BenchFailure("a push failed: \(client.record.problems.joined(separator: "; "))") }
        return (
            PushTiming(cliFresh: cliFresh, cliServed: cliServed, push: push),
            [
                SentWrite(kind: .push, key: key, detail: String(day), status: 200),
                SentWrite(kind: .cliIngest, key: "", detail: String(other), status: 200),
            ]
        )
    }

    @discardableResult
    static func must(_ program: String, _ arguments: [String]) throws -> ChildRun {
        let result = try runChild(program, arguments)
        guard result.status == 0 else {
            throw BenchFailure("`\(([program] + arguments).joined(separator: " "))` failed (\(result.status)): \(result.errorOutput.prefix(300))")
        }
        return result
    }

    /// The JSON document a `stride … --json` command prints.
    static func json(_ stride: String, _ arguments: [String]) throws -> [String: Any] {
        let result = try must(stride, arguments)
        guard let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any] else {
            throw BenchFailure("`stride \(arguments.joined(separator: " "))` printed no JSON object")
        }
        return object
    }
}

/// One turn of the push timing, in seconds.
struct PushTiming {
    var cliFresh: Double
    var cliServed: Double
    var push: Double
}
