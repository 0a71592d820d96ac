import Foundation
import Synchronization

/// A fresh directory under the system's temporary folder, removed when the closure returns:
/// each test gets its own ledger.
public func withTemporaryDirectory<R>(_ body: (String) throws -> R) throws -> R {
    let path = NSTemporaryDirectory() + "stride-test-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try body(path)
}

/// ``withTemporaryDirectory(_:)`` for an async body.
public func withTemporaryDirectory<R>(_ body: (String) async throws -> R) async throws -> R {
    let path = NSTemporaryDirectory() + "stride-test-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try await body(path)
}

/// The path of an executable built beside the test binary (`stride`, `ledger-writer`).
public func builtExecutable(_ name: String) -> String {
    let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    var folder = testBinary.deletingLastPathComponent()
    // On Linux the test binary is `<products>/StridePackageTests.xctest`; elsewhere a bundle.
    while !FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent(name).path), folder.path != "/" {
        folder = folder.deletingLastPathComponent()
    }
    return folder.appendingPathComponent(name).path
}

/// What a finished process printed and how it exited.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var standardOutput: String
    public var standardError: String
}

/// Runs an executable to completion with arguments and extra environment variables, in the
/// folder `directory` when one is given.
public func runProcess(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:], in directory: String? = nil
) throws -> ProcessResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    // Both pipes are read while the process runs, standard error on a thread of its own, so a
    // process that fills either pipe (64 KB) cannot stall waiting for the other to be read.
    let errorData = Mutex(Data())
    let errorRead = DispatchSemaphore(value: 0)
    let errorHandle = error.fileHandleForReading
    Thread {
        let data = errorHandle.readDataToEndOfFile()
        errorData.withLock { $0 = data }
        errorRead.signal()
    }.start()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    errorRead.wait()
    process.waitUntilExit()
    return ProcessResult(
        status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
        standardError: String(decoding: errorData.withLock { $0 }, as: UTF8.self))
}

/// The folder of real Apple Health exports (`../shared/fixtures`), or nil when it is absent
/// (a user's machine): tests that need it carry `.enabled(if: fixturesFolder() != nil)`, so
/// they are reported as skipped there.
public func fixturesFolder(file: String = #filePath) -> String? {
    var folder = URL(fileURLWithPath: file).deletingLastPathComponent()
    while folder.path != "/" {
        let candidate = folder.deletingLastPathComponent().appendingPathComponent("shared/fixtures")
        if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("SOURCES.md").path) { return candidate.path }
        folder = folder.deletingLastPathComponent()
    }
    return nil
}
