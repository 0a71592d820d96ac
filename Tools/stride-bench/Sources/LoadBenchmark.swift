import ArgumentParser
import Foundation
import Glibc

/// The load test: several processes ingest different files while others add shoes, assign
/// runs and spend points, all on one ledger at once. Afterwards the log must be gap-free from
/// 1 and verify must pass; every ingested sample must be there once; every command that
/// reported success must have its one effect, and no refused one any; the balance never
/// goes below zero.
struct LoadBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load", abstract: "Run ingests, shoe commands, assignments and spends at once on one ledger; check the result.")

    @OptionGroup var options: BenchOptions

    @Option(help: "Concurrent ingests, each of its own generated export.")
    var ingesters = 3

    @Option(help: "Commands per command-running process.")
    var commands = 30

    func run() throws {
        let (stride, sample) = try builtTools()
        let work = options.work + "/load"
        try? FileManager.default.removeItem(atPath: work)
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let ledger = work + "/ledger"
        var exports: [String] = []
        for index in 0..<ingesters {
            let file = work + "/export-\(index).xml"
            let start = String(format: "2023-%02d-01", index * 3 + 1)
            guard try runChild(sample, [file, "--days", "60", "--start", start, "--seed", String(100 + index)]).status == 0 else {
                throw BenchFailure("stride-sample failed")
            }
            exports.append(file)
        }
        // What each export holds on its own, to compare with afterwards.
        var expectedSamples = 0
        for file in exports {
            let alone = work + "/alone"
            try? FileManager.default.removeItem(atPath: alone)
            expectedSamples += try samples(stride, alone, ingesting: file)
        }
        try? FileManager.default.removeItem(atPath: work + "/alone")

        // The ledger before the load: two shoes, twenty runs, sixty check-ins (70 points).
        try must(stride, ["--ledger", ledger, "init", "--time-zone", "Europe/Paris"])
        try must(stride, ["--ledger", ledger, "shoes", "add", "Base A"])
        try must(stride, ["--ledger", ledger, "shoes", "add", "Base B"])
        let runs = (1...20).map {
            #"{"activity":"HKWorkoutActivityTypeRunning","start":"2022-06-\#(String(format: "%02d", $0))T07:00:00+02:00","end":"2022-06-\#(String(format: "%02d", $0))T07:40:00+02:00","distance":\#($0),"distanceUnit":"km","id":"load-run-\#($0)"}"#
        }
        try runs.joined(separator: "\n").write(toFile: work + "/runs.ndjson", atomically: true, encoding: .utf8)
        try must(stride, ["--ledger", ledger, "ingest", "--quiet", work + "/runs.ndjson"])
        for day in 0..<60 {
            try must(stride, ["--ledger", ledger, "checkin", "--at", String(format: "2022-%02d-%02dT08:00:00+02:00", day / 28 + 7, day % 28 + 1)])
        }
        let workouts = try runChild(stride, ["--ledger", ledger, "workouts", "--json"])
        let ids = ((try JSONSerialization.jsonObject(with: Data(workouts.output.utf8)) as? [String: Any])?["workouts"] as? [[String: Any]] ?? [])
            .compactMap { $0["id"] as? String }
        let balanceBefore = try balance(stride, ledger)

        // The load: all at once.
        var scripts: [(name: String, script: String)] = exports.enumerated().map { index, file in
            ("ingest \(index)", "\(stride) --ledger \(ledger) ingest --quiet \(file) >/dev/null 2>&1 && echo ok || echo failed")
        }
        for worker in 0..<2 {
            scripts.append(
                (
                    "shoes \(worker)",
                    "for i in $(seq 1 \(commands)); do \(stride) --ledger \(ledger) shoes add \"Load \(worker)-$i\" >/dev/null 2>&1 && echo ok || echo failed; done"
                ))
            // The two assigning processes put the same runs on opposite shoes (worker 1's
            // command j names the run worker 0's command j + 3 does), so they contend;
            // a command naming the shoe the run is already on is refused and appends nothing.
            let assignments = (0..<commands).map {
                "\(stride) --ledger \(ledger) assign \(ids[($0 * 7 + worker) % ids.count]) \"Base \(["A", "B"][$0 % 2])\" >/dev/null 2>&1 && echo ok || echo refused"
            }
            scripts.append(("assign \(worker)", assignments.joined(separator: "; ")))
            scripts.append(
                (
                    "spend \(worker)",
                    "for i in $(seq 1 \(commands + 10)); do \(stride) --ledger \(ledger) points spend 25 --reason \"load \(worker)-$i\" >/dev/null 2>&1 && echo ok || echo refused; done"
                ))
        }
        let began = monotonicSeconds()
        let results = try runConcurrently(scripts)
        let seconds = monotonicSeconds() - began

        // The checks.
        var problems: [String] = []
        let verify = try runChild(stride, ["--ledger", ledger, "verify"])
        if verify.status != 0 { problems.append("verify failed: \(verify.output.prefix(300))") }
        let stats =
            (try JSONSerialization.jsonObject(with: Data(try runChild(stride, ["--ledger", ledger, "stats", "--json"]).output.utf8)) as? [String: Any])
            ?? [:]
        let byType = stats["byType"] as? [String: Int] ?? [:]
        let sampleEvents = byType["sample.recorded"] ?? 0
        if sampleEvents != expectedSamples { problems.append("\(sampleEvents) samples, not the \(expectedSamples) the exports hold") }
        if (stats["events"] as? Int) != (stats["lastSequence"] as? Int) { problems.append("events and last sequence differ") }
        let shoes = try runChild(stride, ["--ledger", ledger, "shoes", "list", "--json"])
        let names = ((try JSONSerialization.jsonObject(with: Data(shoes.output.utf8)) as? [String: Any])?["shoes"] as? [[String: Any]] ?? [])
            .compactMap { $0["name"] as? String }
        let addedOK = results.filter { $0.name.hasPrefix("shoes") }.reduce(0) { $0 + $1.successes }
        if names.count != 2 + addedOK || Set(names).count != names.count {
            problems.append("\(names.count) shoes for \(addedOK + 2) successful adds")
        }
        let spentOK = results.filter { $0.name.hasPrefix("spend") }.reduce(0) { $0 + $1.successes }
        let balanceAfter = try balance(stride, ledger)
        if (byType["points.spent"] ?? 0) != spentOK {
            problems.append("\(byType["points.spent"] ?? 0) spends recorded for \(spentOK) successful ones")
        }
        let account =
            (try JSONSerialization.jsonObject(with: Data(try runChild(stride, ["--ledger", ledger, "points", "--json"]).output.utf8))
                as? [String: Any]) ?? [:]
        let spentPoints = account["spent"] as? Int ?? -1
        if balanceAfter < 0 || balanceAfter != (account["earned"] as? Int ?? 0) - spentPoints || spentPoints != spentOK * 25 {
            problems.append("balance \(balanceAfter) after \(spentOK) spends of 25 from \(balanceBefore) (spent \(spentPoints))")
        }
        let assignedOK = results.filter { $0.name.hasPrefix("assign") }.reduce(0) { $0 + $1.successes }
        let manualAssignments = (byType["workout.assigned"] ?? 0)
        if manualAssignments != assignedOK { problems.append("\(manualAssignments) assignments recorded for \(assignedOK) successful commands") }
        for name in ["Base A", "Base B"] {
            let explain = try runChild(stride, ["--ledger", ledger, "mileage", "explain", name, "--json"])
            let document = (try JSONSerialization.jsonObject(with: Data(explain.output.utf8)) as? [String: Any]) ?? [:]
            let entries = document["entries"] as? [[String: Any]] ?? []
            if (entries.last?["runningTotal"] as? Double ?? -1) != (document["kilometers"] as? Double ?? -2) {
                problems.append("\(name)'s audit does not add up")
            }
        }
        print(
            "Load: \(scripts.count) processes at once on one ledger for \(String(format: "%.1f", seconds)) s — \(ingesters) ingests (\(expectedSamples) samples), \(addedOK) shoes added, \(assignedOK) assignments (\(results.filter { $0.name.hasPrefix("assign") }.reduce(0) { $0 + $1.refusals }) refused: the run was on that shoe already), \(spentOK) spends of 25 points (\(results.filter { $0.name.hasPrefix("spend") }.reduce(0) { $0 + $1.refusals }) refused for want of points)."
        )
        print(
            "Afterwards: \(stats["lastSequence"] as? Int ?? 0) events, gap-free from 1; verify \(verify.status == 0 ? "passes" : "FAILS"); balance \(balanceAfter). Problems: \(problems.count)."
        )
        for problem in problems { print("  " + problem) }
        if !problems.isEmpty { throw ExitCode(1) }
    }

    private func samples(_ stride: String, _ ledger: String, ingesting file: String) throws -> Int {
        try must(stride, ["--ledger", ledger, "init", "--time-zone", "Europe/Paris"])
        try must(stride, ["--ledger", ledger, "ingest", "--quiet", file])
        let stats =
            (try JSONSerialization.jsonObject(with: Data(try runChild(stride, ["--ledger", ledger, "stats", "--json"]).output.utf8)) as? [String: Any])
            ?? [:]
        return (stats["byType"] as? [String: Int])?["sample.recorded"] ?? 0
    }

    private func balance(_ stride: String, _ ledger: String) throws -> Int {
        let result = try runChild(stride, ["--ledger", ledger, "points", "--json"])
        return ((try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])?["balance"] as? Int) ?? -1
    }

    private func must(_ stride: String, _ arguments: [String]) throws {
        let result = try runChild(stride, arguments)
        guard result.status == 0 else { throw BenchFailure("`stride \(arguments.joined(separator: " "))` failed: \(result.output.prefix(200))") }
    }

    /// Runs shell scripts at once; counts the `ok` lines each printed.
    private func runConcurrently(_ scripts: [(name: String, script: String)]) throws -> [(name: String, successes: Int, refusals: Int)] {
        let processes = try scripts.map { entry -> (String, Process, Pipe) in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", entry.script]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            return (entry.name, process, output)
        }
        return processes.map { name, process, output in
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            let lines = text.split(separator: "\n")
            return (name, lines.filter { $0 == "ok" }.count, lines.filter { $0 == "refused" }.count)
        }
    }
}
