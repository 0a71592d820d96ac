import ArgumentParser
import Foundation

/// The server under load: `stride serve` on a realistic ledger, with concurrent keep-alive
/// clients reading, pushing a day of watch data and acting at once, beside a Hummingbird
/// "hello" route (the limit) run in turn with it; then checks that the log is whole and every
/// acknowledged write is there exactly once.
struct ServeBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Load `stride serve` with concurrent clients beside a Hummingbird hello route; check the ledger afterwards.")

    @OptionGroup var options: BenchOptions

    @Option(help: "Concurrent clients in every phase (1 to 128).")
    var clients = 32

    @Option(help: "Seconds each phase is measured (1 to 120), after its warm-up.")
    var seconds = 10.0

    @Option(help: "Seconds each phase runs before it is measured.")
    var warmUp = 1.0

    @Option(help: "Days of history in the served ledger (a generated watch-and-phone export).")
    var days = 150

    @Option(help: "Pushes timed alone beside the CLI's ingest of the same payload, per run.")
    var pairs = 3

    @Flag(help: "Also time each read route alone with every client on it.")
    var eachRoute = false

    @Flag(help: "Profile the server with `perf` during the first run's reads and mixed phases.")
    var profile = false

    func validate() throws {
        guard (1...128).contains(clients) else { throw ValidationError("--clients must be from 1 to 128") }
        guard (1...120).contains(seconds) else { throw ValidationError("--seconds must be from 1 to 120") }
        guard (0...30).contains(warmUp) else { throw ValidationError("--warm-up must be from 0 to 30 seconds") }
        guard (31...3_650).contains(days) else { throw ValidationError("--days must be from 31 to 3650 (ten years)") }
        guard (0...20).contains(pairs) else { throw ValidationError("--pairs must be from 0 to 20") }
    }

    /// The clients of the mixed phase: one pusher per 16 clients, an actor per 5, readers.
    var mixedRoles: [ClientRole] { Self.mixedRoles(clients: clients) }

    func run() throws {
        let bench = try ServeSetup.make(work: options.work + "/serve", days: days)
        defer { try? FileManager.default.removeItem(atPath: bench.work) }
        print(bench.summary)
        // The hello route and the reads under wrk, the standard load generator, when it is
        // installed; the benchmark's own clients otherwise, and always for the mixed phase,
        // whose every write is checked afterwards.
        let wrk = WrkLoad.program.map { WrkLoad(program: $0, work: bench.work) }
        var wrkPhases: [(name: String, paths: [String]?)] = []
        var phases: [(name: String, roles: [ClientRole])] = []
        if wrk != nil {
            wrkPhases = [("hello", nil), ("phone reads", readPaths(ReadRoute.phone, bench.target))]
            if eachRoute { wrkPhases += ReadRoute.allCases.map { ("\($0.rawValue) alone", readPaths([$0], bench.target)) } }
        } else {
            print("wrk is not installed (Tools/setup --bench installs it): the hello route and the reads are loaded by the benchmark's own clients.")
            phases = [
                ("hello", [ClientRole](repeating: .hello, count: clients)),
                ("reads", [ClientRole](repeating: .reader(ReadRoute.allCases), count: clients)),
            ]
            if eachRoute { phases += ReadRoute.allCases.map { ("\($0.rawValue) alone", [ClientRole](repeating: .reader([$0]), count: clients)) } }
        }
        phases.append(("mixed", mixedRoles))
        let allPhases = wrkPhases.map { "\($0.name) (wrk)" } + phases.map(\.name)
        print(
            """
            \(options.runs) runs of \(allPhases.count) phases in turn (\(allPhases.joined(separator: ", "))), \(clients) clients each, \
            \(String(format: "%g", seconds)) s measured after \(String(format: "%g", warmUp)) s of warm-up.

            """)
        var wrkResults: [[String: WrkLoad.Result]] = []

        var measured: [[String: [ClientRecord]]] = []
        var writes: [SentWrite] = []
        var problems: [String] = []
        var pushTimes: [PushTiming] = []
        var profiles: [String] = []
        for run in 1...options.runs {
            if let wrk {
                var byPhase: [String: WrkLoad.Result] = [:]
                for phase in wrkPhases {
                    let port = phase.paths == nil ? bench.hello.port : bench.target.port
                    byPhase[phase.name] = try wrk.run(
                        port: port, paths: phase.paths ?? ["/hello"], token: phase.paths == nil ? nil : bench.target.token, clients: clients,
                        seconds: seconds)
                }
                wrkResults.append(byPhase)
            }
            var byPhase: [String: [ClientRecord]] = [:]
            for (index, phase) in phases.enumerated() {
                let target = phase.name == "hello" ? bench.hello : bench.target
                let profiler =
                    profile && run == 1 && ["reads", "mixed"].contains(phase.name) ? ServerProfile(server: bench.server, work: bench.work) : nil
                let records = runClients(phase.roles, target: target, seconds: seconds, warmUp: warmUp, seed: UInt64(run * 100 + index))
                if let profiler { profiles.append(try profiler.finish(label: "the \(phase.name) phase")) }
                byPhase[phase.name] = records
                writes += records.flatMap(\.writes)
                problems += records.flatMap(\.problems).map { "run \(run), \(phase.name): \($0)" }
            }
            measured.append(byPhase)
            for _ in 0..<pairs {
                let turn = try bench.timePush()
                pushTimes.append(turn.timing)
                writes += turn.writes
            }
            print("Run \(run) done.")
        }
        if !wrkResults.isEmpty { ServeReport.printWrk(phases: wrkPhases.map(\.name), runs: wrkResults, clients: clients) }
        ServeReport(phases: phases.map(\.name), runs: measured, seconds: seconds).print()
        ServeReport.printPushes(pushTimes, format: bench.pushFormat)
        profiles.forEach { print($0, terminator: "") }

        let exitStatus = bench.server.stop()
        if exitStatus != 0 { problems.append("stride serve exited \(exitStatus) on SIGTERM, not 0") }
        bench.helloServer.stop()
        problems += try ServeChecks(bench: bench, writes: writes).run()
        print("\nProblems: \(problems.count).")
        for problem in problems.prefix(40) { print("  " + problem) }
        if problems.count > 40 { print("  … and \(problems.count - 40) more") }
        if !problems.isEmpty { throw ExitCode(1) }
    }

    /// Requests for wrk to send in turn: 600, round `routes`, each varied as a client varies it.
    private func readPaths(_ routes: [ReadRoute], _ target: ServeTarget) -> [String] {
        var random = SplitMix(state: 20_261_128)
        return (0..<600).map { index in
            routes[index % routes.count].target(history: target.history, lastSequence: target.lastSequence, random: &random)
        }
    }
}
