import Foundation
import Glibc

/// A server run as a process of its own (`stride serve --port 0`, or the benchmark's
/// "hello" server): started, its port read from the first line it prints, stopped or killed.
final class ServerProcess {
    let pid: pid_t
    /// The loopback port it listens on.
    let port: Int
    private let outputPath: String
    /// Where its standard error goes: `stride serve` logs a line per request there.
    let logPath: String
    private var isRunning = true

    /// Starts `program ARGUMENTS` and waits for its first line, `… at http://127.0.0.1:PORT …`.
    /// - Throws: ``BenchFailure`` when it cannot start, exits or prints no address within 60 s.
    init(_ program: String, _ arguments: [String], logPath: String) throws {
        outputPath = logPath + ".out"
        self.logPath = logPath
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, program, &actions, nil, argv, environ)
        guard result == 0 else { throw BenchFailure("cannot start \(program): \(String(cString: strerror(result)))") }
        pid = child
        let began = monotonicSeconds()
        var found: Int?
        while found == nil {
            let printed = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            if let line = printed.split(separator: "\n", omittingEmptySubsequences: false).first, printed.contains("\n") {
                found = line.range(of: "http://127.0.0.1:").flatMap { Int(line[$0.upperBound...].prefix { $0.isNumber }) }
                if found == nil { break }
            }
            var status: Int32 = 0
            if waitpid(child, &status, WNOHANG) == child {
                isRunning = false
                break
            }
            if monotonicSeconds() - began > 60 { break }
            usleep(5_000)
        }
        guard let found else {
            if isRunning {
                Glibc.kill(child, SIGKILL)
                waitpid(child, nil, 0)
            }
            let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            throw BenchFailure("`\(([program] + arguments).joined(separator: " "))` printed no address: \(log.suffix(300))")
        }
        port = found
    }

    deinit {
        if isRunning {
            Glibc.kill(pid, SIGKILL)
            waitpid(pid, nil, 0)
        }
        unlink(outputPath)
    }

    /// Stops it with SIGTERM (it finishes what it appends) and returns its exit status.
    @discardableResult
    func stop() -> Int32 {
        finish(signal: SIGTERM)
    }

    /// Kills it with SIGKILL, as a crash or a power cut would.
    func kill() {
        _ = finish(signal: SIGKILL)
    }

    private func finish(signal: Int32) -> Int32 {
        guard isRunning else { return -1 }
        Glibc.kill(pid, signal)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        isRunning = false
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
}
