import ArgumentParser
import Foundation
import Glibc

/// `stride-bench push`: what one Health Auto Export push costs `stride serve` in memory, as
/// a multiple of its size — the server's peak resident memory during the push, less what it
/// held before, over the push's bytes.
struct PushMemoryBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Peak memory of `stride serve` per Health Auto Export push, as a multiple of the push's size.",
        discussion: """
            Two pushes of --points each: heart-rate points a second apart (what a watch sends), and as many \
            ECG readings, a member the reader counts and does not read. Each run starts a server on a fresh \
            ledger, reads its resident memory (VmRSS) after a first request, sends the push, and reads its peak \
            (VmHWM). Target: at most 3× the push.
            """)

    @OptionGroup var options: BenchOptions

    @Option(help: "Points (or readings) in each push.")
    var points = 1_000_000

    func run() throws {
        let (stride, _) = try builtTools()
        let work = try freshFolder(options.work, "push")
        var rows: [[String]] = []
        for shape in PushShape.allCases {
            let body = shape.document(points: points)
            var ratios: [Double] = []
            var extras: [Double] = []
            for _ in 0..<options.runs {
                let extra = try Self.extraMemory(of: body, stride: stride, work: work)
                extras.append(Double(extra))
                ratios.append(Double(extra) / Double(body.count))
            }
            let (megabytes, extra, ratio) = (Double(body.count) / 1e6, extras.sorted()[extras.count / 2] / 1e6, ratios.sorted()[ratios.count / 2])
            rows.append([shape.rawValue, String(format: "%.1f MB", megabytes), String(format: "%.0f MB", extra), String(format: "%.2f×", ratio)])
        }
        print("Health Auto Export pushes to `stride serve` (median of \(options.runs) runs; memory is the peak less what the server held before):")
        printTable(["push", "size", "memory for it", "× its size"], rows)
    }

    /// The server's peak resident bytes during the push of `body`, less what it held before.
    static func extraMemory(of body: [UInt8], stride: String, work: String) throws -> Int {
        let ledger = work + "/ledger"
        try? FileManager.default.removeItem(atPath: ledger)
        guard try runChild(stride, ["--ledger", ledger, "init", "--time-zone", "Europe/Paris"]).status == 0 else {
            throw BenchFailure("`stride init` failed in \(ledger)")
        }
        let token = try runChild(stride, ["--ledger", ledger, "tokens", "add", "bench-phone"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        let server = try ServerProcess(stride, ["--ledger", ledger, "serve", "--port", "0"], logPath: work + "/serve.log")
        defer { _ = server.stop() }
        let connection = HTTPConnection(port: server.port)
        let authorization = ("Authorization", "Bearer \(token)")
        _ = try connection.send(HTTPCall(method: "GET", target: "/v1/stats", headers: [authorization]))
        let before = try memory(of: server.pid, "VmRSS")
        let answer = try connection.send(
            HTTPCall(
                method: "POST", target: "/v1/health-auto-export",
                headers: [authorization, ("Content-Type", "application/json"), ("automation-aggregation", "seconds")], body: body))
        guard answer.status == 200 else { throw BenchFailure("the push answered \(answer.status): \(answer.text.prefix(300))") }
        return try memory(of: server.pid, "VmHWM") - before
    }

    /// A line of `/proc/PID/status` (`VmRSS`, `VmHWM`), in bytes.
    static func memory(of pid: pid_t, _ field: String) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
            let kilobytes = Int(line.dropFirst(field.count + 1).trimmingCharacters(in: .whitespaces).prefix { $0.isNumber })
        else { throw BenchFailure("/proc/\(pid)/status has no \(field)") }
        return kilobytes * 1024
    }
}

/// What a benchmark push holds.
enum PushShape: String, CaseIterable {
    case heartRate = "heart-rate points"
    case unread = "unread ECG readings"

    /// The push with `points` points or readings, a second apart from 2024-05-01 in Paris.
    func document(points: Int) -> [UInt8] {
        var text: [UInt8] = []
        text.reserveCapacity(points * 64)
        let first = Date(timeIntervalSince1970: 1_714_514_400)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "Europe/Paris")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        switch self {
        case .heartRate: text += Array(#"{"data": {"metrics": [{"name": "heart_rate", "units": "count/min", "data": ["#.utf8)
        case .unread: text += Array(#"{"data": {"metrics": [], "ecg": ["#.utf8)
        }
        var minute = ""
        for index in 0..<points {
            if index % 60 == 0 { minute = String(formatter.string(from: first.addingTimeInterval(Double(index))).dropLast(8)) }
            let date = minute + String(format: "%02d", index % 60) + " +0200"
            if index > 0 { text.append(UInt8(ascii: ",")) }
            text.append(UInt8(ascii: "\n"))
            switch self {
            case .heartRate: text += Array(#"{"date":"\#(date)","qty":\#(60 + index % 40)}"#.utf8)
            case .unread: text += Array(#"{"start":"\#(date)","voltage":\#(index % 900)}"#.utf8)
            }
        }
        text += Array((self == .heartRate ? "\n]}]}}\n" : "\n]}}\n").utf8)
        return text
    }
}
