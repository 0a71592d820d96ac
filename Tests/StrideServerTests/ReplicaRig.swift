import Foundation
import Glibc
import StrideTestSupport
import Testing

/// What the replication tests run: Debian's PostgreSQL of their own, and `stride serve`
/// processes over folders of runners' ledgers, copied to it or following it.
final class ReplicaRig: @unchecked Sendable {
    let stride = builtExecutable("stride")
    let postgres: TemporaryPostgres
    let folder: String
    /// The metrics token every server of the rig is started with.
    let metricsToken = "metrics-" + UUID().uuidString
    var metricsTokenFile: String { folder + "/metrics-token" }

    /// A rig, made off Swift's cooperative threads (initdb takes seconds).
    static func make() async throws -> ReplicaRig {
        try await offPool { try ReplicaRig() }
    }

    /// Runs blocking work (a process waited for, psql) on a thread of its own: blocking the
    /// cooperative pool's two threads stalls every in-process server of the other tests.
    static func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }

    private init() throws {
        postgres = try TemporaryPostgres.start()
        folder = NSTemporaryDirectory() + "stride-replica-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: metricsTokenFile, contents: Data(metricsToken.utf8), attributes: [.posixPermissions: 0o600])
    }

    deinit {
        postgres.remove()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// A runner added to `ledgers` (a folder of runners' ledgers), with a device token.
    func addRunner(_ name: String, in ledgers: String, zone: String = "Europe/Paris") async throws -> String {
        let added = try await run(["runners", "add", name, "--time-zone", zone, "--ledgers", ledgers])
        #expect(added.status == 0, "\(added.standardError)")
        let token = try await run(["--ledger", ledgers + "/" + name, "tokens", "add", name + "-phone"])
        return token.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs `stride ARGUMENTS` to its end.
    func run(_ arguments: [String]) async throws -> ProcessResult {
        let stride = stride
        return try await Self.offPool { try runProcess(stride, arguments) }
    }

    /// Runs SQL in the rig's PostgreSQL (psql), its output trimmed.
    func sql(_ text: String) async throws -> String {
        let postgres = postgres
        return try await Self.offPool { try postgres.psql(text) }
    }

    /// A `stride serve` process.
    final class Server: @unchecked Sendable {
        let process: Process
        let port: Int
        let log: String

        init(process: Process, port: Int, log: String) {
            self.process = process
            self.port = port
            self.log = log
        }

        /// What it wrote to standard error so far.
        var logText: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

        /// SIGTERM, and waits for the exit.
        func stop() {
            guard process.isRunning else { return }
            process.terminate()
            process.waitUntilExit()
        }

        /// kill -9.
        func kill() {
            guard process.isRunning else { return }
            Glibc.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }

        deinit { kill() }
    }

    /// `stride serve --ledgers LEDGERS --port 0 ARGUMENTS`, once it prints its address.
    func serve(_ ledgers: String, _ arguments: [String]) async throws -> Server {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: stride)
        process.arguments = ["serve", "--ledgers", ledgers, "--port", "0", "--metrics-token-file", metricsTokenFile] + arguments
        let output = Pipe()
        let log = folder + "/serve-\(UUID().uuidString.prefix(8)).log"
        FileManager.default.createFile(atPath: log, contents: nil)
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        try process.run()
        let firstLine = try await ServeProcessTests.firstLine(of: output)
        guard firstLine.hasPrefix("Serving"), let port = firstLine.split(separator: ":").last.flatMap({ Int($0.prefix { $0.isNumber }) }) else {
            process.waitUntilExit()
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw ServeFailure(description: "stride serve did not start: \(firstLine) \(text)")
        }
        return Server(process: process, port: port, log: log)
    }

    /// An HTTP request to a server; the whole answer (status line, headers, body).
    static func request(_ port: Int, _ method: String, _ path: String, token: String, body: String? = nil) async throws -> String {
        try await ServeProcessTests.get(port: port, path: path, token: token, method: method, body: body)
    }

    /// The status code of an answer.
    static func status(_ answer: String) -> Int {
        Int(answer.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    /// A Health Auto Export push of one step count at minute `minute` of 1 March 2024.
    static func push(minute: Int, steps: Int = 100) -> String {
        let hour = 6 + minute / 60
        let time = String(format: "2024-03-01 %02d:%02d:00 +0000", hour % 24, minute % 60)
        return #"{"data":{"metrics":[{"name":"step_count","units":"count","data":[{"date":"\#(time)","qty":\#(steps)}]}],"workouts":[]}}"#
    }

    /// A figure of the server's `/metrics`, by its name and labels as printed.
    func metric(_ server: Server, _ name: String) async throws -> Double? {
        let answer = try await Self.request(server.port, "GET", "/metrics", token: metricsToken)
        for line in answer.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Double(line.split(separator: " ").last ?? "")
        }
        return nil
    }

    /// Waits until `condition` holds, up to `seconds`; returns whether it did.
    static func eventually(within seconds: Double = 30, _ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return try await condition()
    }

    /// The table's sequences of a runner, in order, and its copied rows' count.
    func tableSequences(of runner: String) async throws -> [Int] {
        try await sql("SELECT sequence FROM stride_events WHERE runner = '\(runner)' ORDER BY copied_at, sequence")
            .split(separator: "\n").compactMap { Int($0) }
    }
}

/// A server of the rig that did not start.
struct ServeFailure: Error, CustomStringConvertible {
    let description: String
}
