import Foundation
import Glibc

/// `perf record` attached to a running server for one phase: where the server's CPU time
/// goes, by step (each sample charged as ``ProfileReport`` charges it), and how many CPUs it used.
final class ServerProfile {
    /// The steps of serving, tried in this order for each frame from the leaf up.
    static let steps: [ProfileReport.Step] = [
        ("writing answers' JSON text (JSONValue.write)", ["9JSONValueO5write", "JSONValueO11writeString", "JSONAnswer"]),
        (
            "ingesting pushes: reading, appending, folding",
            [
                "StrideIngest", "NDJSONReader", "HealthAutoExport", "LogAppender", "Envelope", "ChainHash", "CRC32C", "SHA256", "sha256", "ingest",
                "awardSteps",
                "Upload",
            ]
        ),
        ("daily records (DailyHealth)", ["DailyHealth", "dailyRecords"]),
        ("other contract documents (StrideContract)", ["StrideContract"]),
        ("LMDB", ["mdb_"]),
        ("token check", ["authenticating", "AccessTokens"]),
        ("request log lines (swift-log to stderr)", ["StreamLogHandler", "RequestLogMiddleware", "Logging"]),
        ("HTTP: Hummingbird and SwiftNIO", ["Hummingbird", "NIO"]),
        ("Swift concurrency: tasks, executors, thread hand-offs", ["swift_task", "swift_job", "swift::", "dispatch", "futex"]),
    ]

    private let pid: pid_t
    private let data: String
    private let began = monotonicSeconds()
    private static let frequency = 1_000

    /// Starts recording `server`; nil (and a note) when `perf` cannot run.
    init?(server: ServerProcess, work: String) {
        data = work + "/serve-perf.data"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let arguments = ["perf", "record", "-e", "cpu-clock", "-F", String(Self.frequency), "-g", "-p", String(server.pid), "-o", data]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        guard posix_spawnp(&child, "perf", &actions, nil, argv, environ) == 0 else {
            print("No profile: `perf` cannot be started (is linux-perf installed?).")
            return nil
        }
        pid = child
        usleep(200_000)
    }

    /// Stops recording; returns the shares of `label` as text to print.
    func finish(label: String) throws -> String {
        let seconds = monotonicSeconds() - began
        kill(pid, SIGINT)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        defer { unlink(data) }
        let script = try runChild("perf", ["script", "-i", data, "-F", "ip,sym"])
        var charged: [String: Int] = [:]
        var total = 0
        for sample in script.output.components(separatedBy: "\n\n") {
            let frames = sample.split(separator: "\n").map { String($0) }
            guard !frames.isEmpty else { continue }
            total += 1
            charged[ProfileReport.classify(frames, Self.steps), default: 0] += 1
        }
        guard total > 0 else { return "\nNo profile of \(label): `perf` recorded nothing (is it allowed here?)." }
        let cpus = Double(total) / Double(Self.frequency) / seconds
        let rows = charged.sorted { $0.value > $1.value }.map { [$0.key, String(format: "%.0f%%", Double($0.value) * 100 / Double(total))] }
        return """

            Where the server's time goes in \(label) (perf at \(Self.frequency) Hz, \(total) samples in \(String(format: "%.0f", seconds)) s: \
            the server used \(String(format: "%.2f", cpus)) of the machine's \(ProcessInfo.processInfo.activeProcessorCount) CPUs):

            """ + tableText(["step", "share of the server's CPU time"], rows)
    }
}
