import Foundation

/// Debian's `wrk`, the standard HTTP load generator, run against a server: its throughput and
/// the percentiles of its own latency histogram (HdrHistogram). Written in C with an event
/// loop per thread, it takes less of the two shared CPUs than the benchmark's own clients, so
/// the server and the hello route are measured closer to their limits.
struct WrkLoad {
    /// What one wrk run measured.
    struct Result {
        var rate: Double
        /// Seconds.
        var p50: Double
        var p99: Double
        /// Answers that were not 2xx or 3xx, and socket errors.
        var failures: Int
    }

    /// The wrk found on the PATH, or nil (`Tools/setup --bench` installs it).
    static let program: String? = {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            let path = String(folder) + "/wrk"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }()

    let program: String
    /// Where its Lua scripts are written.
    let work: String

    /// Runs `clients` connections on two threads against `port` for `seconds` (after a
    /// second's warm-up run, not measured), each request the next of `paths` in turn, with
    /// `token` as a bearer token when given.
    /// - Throws: ``BenchFailure`` when wrk fails or prints no figures.
    func run(port: Int, paths: [String], token: String?, clients: Int, seconds: Double) throws -> Result {
        let script = work + "/wrk-\(UUID().uuidString).lua"
        try Self.script(paths: paths, token: token).write(toFile: script, atomically: true, encoding: .utf8)
        defer { unlink(script) }
        let url = "http://127.0.0.1:\(port)/"
        let base = ["-t", "2", "-c", String(clients), "--latency", "-s", script, url]
        _ = try runChild(program, ["-d", "1s"] + base)
        let measured = try runChild(program, ["-d", "\(max(1, Int(seconds.rounded())))s"] + base)
        guard measured.status == 0, let result = Self.parse(measured.output) else {
            throw BenchFailure(
                "wrk against port \(port) failed (\(measured.status)): \(measured.errorOutput.prefix(300))\(measured.output.prefix(300))")
        }
        return result
    }

    /// A Lua script sending `paths` in turn.
    static func script(paths: [String], token: String?) -> String {
        let list = paths.map { "  \"\($0)\"," }.joined(separator: "\n")
        let header = token.map { "wrk.headers[\"Authorization\"] = \"Bearer \($0)\"\n" } ?? ""
        return """
            \(header)local paths = {
            \(list)
            }
            local next = 0
            request = function()
              next = next % #paths + 1
              return wrk.format("GET", paths[next])
            end

            """
    }

    /// The figures of wrk's report: `Requests/sec:`, the 50 % and 99 % lines of `--latency`,
    /// and the non-2xx/3xx and socket-error counts.
    static func parse(_ output: String) -> Result? {
        var rate: Double?
        var (p50, p99): (Double?, Double?) = (nil, nil)
        var failures = 0
        for line in output.split(separator: "\n") {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," }).map(String.init)
            guard let first = fields.first else { continue }
            switch first {
            case "Requests/sec:": rate = fields.count > 1 ? Double(fields[1]) : nil
            case "50%": p50 = fields.count > 1 ? duration(fields[1]) : nil
            case "99%": p99 = fields.count > 1 ? duration(fields[1]) : nil
            case "Non-2xx": failures += Int(fields.last ?? "") ?? 0
            case "Socket":
                // Socket errors: connect 0, read 0, write 0, timeout 0
                failures += stride(from: 3, to: fields.count, by: 2).compactMap { Int(fields[$0]) }.reduce(0, +)
            default: continue
            }
        }
        guard let rate, let p50, let p99 else { return nil }
        return Result(rate: rate, p50: p50, p99: p99, failures: failures)
    }

    /// A wrk duration (`812.00us`, `11.30ms`, `1.02s`, `2.00m`) in seconds.
    static func duration(_ text: String) -> Double? {
        for (unit, scale) in [("us", 1e-6), ("ms", 1e-3), ("s", 1.0), ("m", 60.0)] where text.hasSuffix(unit) {
            guard let value = Double(text.dropLast(unit.count)) else { return nil }
            return value * scale
        }
        return nil
    }
}
