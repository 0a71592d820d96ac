import Foundation

/// The serve benchmark's tables: per phase and route, requests a second and latency
/// percentiles, each the median over runs, and the reads' throughput over the hello route's
/// of the same run.
struct ServeReport {
    var phases: [String]
    /// Per run, the records of each phase's clients.
    var runs: [[String: [ClientRecord]]]
    var seconds: Double

    /// A route's figures in one run.
    private struct Figures {
        var rate: Double
        var p50: Double
        var p99: Double
    }

    private static let allReads = "all reads"

    private func figures(_ latencies: [Double]) -> Figures {
        Figures(rate: Double(latencies.count) / seconds, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99))
    }

    /// Latencies by route in one phase of one run, with every read route together as "all reads".
    private func latencies(_ records: [ClientRecord]) -> [String: [Double]] {
        var byRoute: [String: [Double]] = [:]
        for record in records {
            for (route, values) in record.latencies {
                byRoute[route, default: []] += values
                if route.hasPrefix("GET /v1/") { byRoute[Self.allReads, default: []] += values }
            }
        }
        return byRoute
    }

    /// The wrk phases' table: per phase the median over runs of requests a second and wrk's
    /// own percentiles, and each read phase's rate over the hello route's of the same run.
    static func printWrk(phases: [String], runs: [[String: WrkLoad.Result]], clients: Int) {
        let helloRates = runs.map { $0["hello"]?.rate ?? 0 }
        let rows = phases.map { phase -> [String] in
            let results = runs.compactMap { $0[phase] }
            let ratio = phase == "hello" ? "" : formatRatio(median(zip(runs, helloRates).map { ($0[phase]?.rate ?? 0) / max($1, 1) }))
            let failures = results.map(\.failures).reduce(0, +)
            return [
                phase, String(format: "%.0f", median(results.map(\.rate))), milliseconds(median(results.map(\.p50))),
                milliseconds(median(results.map(\.p99))), ratio, failures == 0 ? "" : "\(failures) failed",
            ]
        }
        Swift.print("\nUnder wrk (\(clients) connections, 2 threads; percentiles from wrk's HdrHistogram; medians of \(runs.count) runs):")
        printTable(["phase", "requests/s", "p50", "p99", "÷ hello", ""], rows)
        printTargets(clients: clients)
    }

    static func printTargets(clients: Int) {
        Swift.print("Targets: every read ≥ 0.25× the hello route's requests/s; a read's p99 < 10 ms with \(clients) clients.")
    }

    func print() {
        let helloRates = runs.map { figures(latencies($0["hello"] ?? [])["GET /hello"] ?? []).rate }
        var rows: [[String]] = []
        for phase in phases {
            let perRun = runs.map { latencies($0[phase] ?? []) }
            var routes = Set(perRun.flatMap(\.keys)).sorted { ($0 == Self.allReads ? "~" : $0) < ($1 == Self.allReads ? "~" : $1) }
            // One read route alone needs no total beside it.
            if routes.filter({ $0.hasPrefix("GET /v1/") }).count == 1 { routes.removeAll { $0 == Self.allReads } }
            for route in routes {
                let values = perRun.map { figures($0[route] ?? []) }
                // Beside the hello route when it ran in these phases (not when wrk ran it).
                let ratio =
                    phases.contains("hello") && (route == Self.allReads || (phase.hasSuffix("alone") && route.hasPrefix("GET")))
                    ? formatRatio(median(zip(values, helloRates).map { $0.rate / $1 })) : ""
                rows.append([
                    phase, route, String(format: "%.0f", median(values.map(\.rate))), milliseconds(median(values.map(\.p50))),
                    milliseconds(median(values.map(\.p99))), ratio,
                ])
            }
        }
        Swift.print("")
        printTable(["phase", "route", "requests/s", "p50", "p99", "÷ hello"], rows)
        if let hello = runs.first?["hello"] {
            Swift.print("")
            Self.printTargets(clients: hello.count)
        }
    }

    /// The pushes timed alone beside the CLI's ingests, in turn.
    static func printPushes(_ turns: [PushTiming], format: String) {
        guard !turns.isEmpty else { return }
        Swift.print(
            "\nA push of a day of watch data (\(format)) to the quiet server, beside `stride ingest` of a file of the same day (the whole process), \(turns.count) turns:"
        )
        printTable(
            ["measure", "median", "push ÷ it"],
            [
                [
                    "`stride ingest` into a new ledger", milliseconds(median(turns.map(\.cliFresh))),
                    formatRatio(median(turns.map { $0.push / $0.cliFresh })),
                ],
                [
                    "`stride ingest` of another such day into the served ledger", milliseconds(median(turns.map(\.cliServed))),
                    formatRatio(median(turns.map { $0.push / $0.cliServed })),
                ],
                ["the push, request sent to answer read", milliseconds(median(turns.map(\.push))), ""],
            ])
        Swift.print("Target: a push within 2× the CLI's ingest of the same samples (into a new ledger).")
    }

}

/// The value at `share` of the values, sorted (nearest rank; NaN for none).
func percentile(_ values: [Double], _ share: Double) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    return sorted[min(sorted.count, max(1, Int((Double(sorted.count) * share).rounded(.up)))) - 1]
}

/// Seconds as milliseconds for a table: `3.2 ms`.
func milliseconds(_ seconds: Double) -> String {
    seconds.isFinite ? String(format: seconds < 0.01 ? "%.2f ms" : "%.1f ms", seconds * 1000) : "n/a"
}

/// The median of some values (NaN for none).
func median(_ values: [Double]) -> Double {
    Rate(label: "", perSecond: values.filter(\.isFinite)).median
}
