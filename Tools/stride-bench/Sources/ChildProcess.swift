import Foundation
import Glibc

/// A child process run to completion, with its wall time, peak memory and page faults.
struct ChildRun {
    var seconds: Double
    var peakKilobytes: Int
    /// Pages it touched for the first time (mapped file pages and fresh memory alike).
    var minorFaults: Int
    var status: Int32
    var output: String
    /// What it wrote on stderr (an error message, when it failed).
    var errorOutput: String
}

/// Runs a program (looked up in PATH when not a path) with its output captured, and
/// measures it with `wait4`'s resource usage.
///
/// The disk's write-back is drained first (`sync`, untimed): runs take turns, and a run that
/// follows one that wrote a lot (the peer's SQLite database) otherwise waits behind its
/// write-back at every `fdatasync` — the 20 MB ingest took 0.19 s after the peer and 0.14 s
/// after another ingest (2026-11-23).
func runChild(_ program: String, _ arguments: [String]) throws -> ChildRun {
    try runChild(program, arguments, sampling: nil)
}

/// ``runChild(_:_:)``, reading `/proc/PID/status` every 10 ms while it runs: `sampling`
/// receives each reading (the peak of anonymous memory, `RssAnon`, has no counter of its own).
func runChild(_ program: String, _ arguments: [String], sampling: ((String) -> Void)?) throws -> ChildRun {
    let outputPath = NSTemporaryDirectory() + "stride-bench-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).out"
    let errorPath = outputPath + ".err"
    defer {
        unlink(outputPath)
        unlink(errorPath)
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    let argv = ([program] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    sync()
    let began = monotonicSeconds()
    let result = posix_spawnp(&pid, program, &actions, nil, argv, environ)
    guard result == 0 else { throw BenchFailure("cannot start \(program): \(String(cString: strerror(result)))") }
    var status: Int32 = 0
    var usage = rusage()
    if let sampling {
        while true {
            let waited = wait4(pid, &status, WNOHANG, &usage)
            if waited == pid || (waited < 0 && errno != EINTR) { break }
            if let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) { sampling(text) }
            usleep(10_000)
        }
    } else {
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    }
    let seconds = monotonicSeconds() - began
    let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    let errorOutput = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
    let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    return ChildRun(
        seconds: seconds, peakKilobytes: usage.ru_maxrss, minorFaults: usage.ru_minflt, status: exitStatus, output: output, errorOutput: errorOutput)
}

/// A benchmark that could not run, with what to do.
struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The folder holding this benchmark's executable, where `stride` and `stride-sample` are built too.
let productsFolder: String = {
    URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().path
}()

/// The paths of `stride` and `stride-sample` beside this benchmark.
/// - Throws: ``BenchFailure`` saying how to build them when they are missing.
func builtTools() throws -> (stride: String, sample: String) {
    let stride = productsFolder + "/stride"
    let sample = productsFolder + "/stride-sample"
    for tool in [stride, sample] where !FileManager.default.isExecutableFile(atPath: tool) {
        throw BenchFailure("\(tool) is not built; run `Tools/build-release stride stride-sample stride-bench` first")
    }
    return (stride, sample)
}

/// Whether `file` is missing or older than `tool`, which made it: a generated export is made
/// again when `stride-sample` was rebuilt since.
func isStale(_ file: String, comparedWith tool: String) -> Bool {
    let manager = FileManager.default
    guard let made = (try? manager.attributesOfItem(atPath: file))?[.modificationDate] as? Date,
        let built = (try? manager.attributesOfItem(atPath: tool))?[.modificationDate] as? Date
    else { return true }
    return made < built
}
