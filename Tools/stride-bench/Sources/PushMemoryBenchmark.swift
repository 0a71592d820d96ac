import ArgumentParser
import Foundation
import Glibc
import Synchronization

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
            ledger, reads its memory after a first request, sends the push, and reads its peak: private \
            (anonymous) memory sampled every 10 ms, and all resident memory (VmHWM). Target: private memory at \
            most 3× the push.
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
            var runs: [PushMemory] = []
            for _ in 0..<options.runs { runs.append(try Self.memory(of: body, stride: stride, work: work)) }
            let median = { (value: (PushMemory) -> Int) in Double(runs.map(value).sorted()[runs.count / 2]) }
            let (size, heap, total) = (Double(body.count), median(\.heap), median(\.total))
            rows.append([
                shape.rawValue, String(format: "%.1f MB", size / 1e6), String(format: "%.0f MB", heap / 1e6), String(format: "%.2f×", heap / size),
                String(format: "%.0f MB", total / 1e6), String(format: "%.2f×", total / size),
            ])
        }
        print(
            """
            Health Auto Export pushes to `stride serve`, median of \(options.runs) runs. Private: the peak of the server's \
            anonymous memory (RssAnon) during the push, less before it. All: the peak of everything resident (VmHWM), \
            less before — it adds the ledger's file pages LMDB maps, which the kernel reclaims as cache.
            """)
        printTable(["push", "size", "private", "× size", "all resident", "× size"], rows)
    }

    /// What a push cost the server, in bytes above what it held before.
    struct PushMemory {
        var heap: Int
        var total: Int
    }

    /// The server's peak memory during the push of `body`, less what it held before.
    static func memory(of body: [UInt8], stride: String, work: String) throws -> PushMemory {
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
        let (heapBefore, totalBefore) = (try status(of: server.pid, "RssAnon"), try status(of: server.pid, "VmRSS"))
        // The anonymous peak has no counter of its own: it is sampled while the push runs.
        let peakHeap = Mutex(heapBefore)
        let done = Atomic(false)
        let pid = server.pid
        let sampler = Thread {
            while !done.load(ordering: .relaxed) {
                if let heap = try? status(of: pid, "RssAnon") { peakHeap.withLock { $0 = max($0, heap) } }
                usleep(10_000)
            }
        }
        sampler.start()
        let answer = try connection.send(
            HTTPCall(
                method: "POST", target: "/v1/health-auto-export",
                headers: [authorization, ("Content-Type", "application/json"), ("automation-aggregation", "seconds")], body: body))
        done.store(true, ordering: .relaxed)
        usleep(30_000)
        guard answer.status == 200 else { throw BenchFailure("the push answered \(answer.status): \(answer.text.prefix(300))") }
        return PushMemory(heap: peakHeap.withLock { $0 } - heapBefore, total: try status(of: server.pid, "VmHWM") - totalBefore)
    }

    /// A line of `/proc/PID/status` (`VmRSS`, `VmHWM`), in bytes.
    static func status(of pid: pid_t, _ field: String) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let kilobytes = Self.kilobytes(status, field) else { throw BenchFailure("/proc/\(pid)/status has no \(field)") }
        return kilobytes * 1024
    }

    /// A line of a `/proc/PID/status` text, in kilobytes.
    static func kilobytes(_ status: String, _ field: String) -> Int? {
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }) else { return nil }
        return Int(line.dropFirst(field.count + 1).trimmingCharacters(in: .whitespaces).prefix { $0.isNumber })
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
