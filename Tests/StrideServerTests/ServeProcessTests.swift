import Foundation
import StrideTestSupport
import Testing

/// `stride serve` as a user runs it: a process on a free loopback port.
@Suite("stride serve, the process")
struct ServeProcessTests {
    let stride = builtExecutable("stride")

    /// Runs curl-free HTTP through Foundation's URLSession-less path: a raw socket request.
    static func get(port: Int, path: String, token: String, method: String = "GET", body: String? = nil) async throws -> String {
        var headers = ["Authorization: Bearer \(token)", "Connection: close"]
        if let body { headers += ["Content-Type: application/json", "Content-Length: \(body.utf8.count)"] }
        return try await EventStreamTests.read(port: port, path: path, method: method, headers: headers, body: body ?? "", until: "\u{0}")
    }

    @Test("it prints its address, answers a token from `stride tokens add`, records the device on what it appends, and exits 0 on SIGTERM")
    func lifecycle() async throws {
        let folder = NSTemporaryDirectory() + "stride-serve-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let ledger = folder + "/ledger"
        #expect(try runProcess(stride, ["--ledger", ledger, "init", "--time-zone", "Europe/Paris"]).status == 0)
        let added = try runProcess(stride, ["--ledger", ledger, "tokens", "add", "marie-iphone"])
        let token = added.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(token.hasPrefix("stride_"))

        let process = Process()
        process.executableURL = URL(fileURLWithPath: stride)
        process.arguments = ["--ledger", ledger, "serve", "--port", "0"]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        let firstLine = try await Self.firstLine(of: output)
        #expect(firstLine.hasPrefix("Serving \(ledger) at http://127.0.0.1:"))
        let port = try #require(firstLine.split(separator: ":").last.flatMap { Int($0.prefix { $0.isNumber }) })

        let denied = try await Self.get(port: port, path: "/v1/stats", token: "stride_wrong")
        #expect(denied.hasPrefix("HTTP/1.1 401"))
        let stats = try await Self.get(port: port, path: "/v1/stats", token: token)
        #expect(stats.hasPrefix("HTTP/1.1 200"))
        let checkin = try await Self.get(port: port, path: "/v1/checkin", token: token, method: "POST", body: "{}")
        #expect(checkin.hasPrefix("HTTP/1.1 200"))
        let history = try runProcess(stride, ["--ledger", ledger, "points", "history"])
        #expect(history.standardOutput.contains("via marie-iphone"))

        // Revoked: the next request is refused.
        #expect(try runProcess(stride, ["--ledger", ledger, "tokens", "revoke", "marie-iphone"]).status == 0)
        #expect(try await Self.get(port: port, path: "/v1/stats", token: token).hasPrefix("HTTP/1.1 401"))

        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("GET /v1/stats 200"))
        #expect(!log.contains(token))
    }

    @Test(
        "stride serve --ledgers, as a household runs it: runners added with `stride runners`, each token NAME.stride_…, the ledgers plain ones the command line works on and backs up while it serves"
    )
    func household() async throws {
        try await withTemporaryDirectory { (folder: String) async throws in
            let ledgers = folder + "/runners"
            let environment = ["STRIDE_LEDGERS": ledgers]
            for (name, zone) in [("marie", "Europe/Paris"), ("bob", "America/New_York")] {
                let added = try runProcess(stride, ["runners", "add", name, "--time-zone", zone], environment: environment)
                #expect(added.status == 0, "\(added.standardError)")
            }
            let refused = try runProcess(stride, ["runners", "add", "Bob Smith"], environment: environment)
            #expect(refused.status != 0 && refused.standardError.contains("lowercase letters"))
            let marie = try runProcess(stride, ["--ledger", ledgers + "/marie", "tokens", "add", "marie-phone"]).standardOutput
                .trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(marie.hasPrefix("marie.stride_"))
            let bob = try runProcess(stride, ["--ledger", ledgers + "/bob", "tokens", "add", "bob-watch"]).standardOutput
                .trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(bob.hasPrefix("bob.stride_"))
            let list = try runProcess(stride, ["runners", "list", "--json"], environment: environment)
            #expect(list.standardOutput.contains(#""name":"bob","timeZone":"America/New_York""#), "\(list.standardOutput)")
            #expect(list.standardOutput.contains(#""devices":["marie-phone"]"#))

            let process = Process()
            process.executableURL = URL(fileURLWithPath: stride)
            process.arguments = ["serve", "--port", "0"]
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            defer { if process.isRunning { process.terminate() } }
            let firstLine = try await Self.firstLine(of: output)
            #expect(firstLine.hasPrefix("Serving the 2 runners of \(ledgers) at http://127.0.0.1:"), "\(firstLine)")
            let port = try #require(firstLine.split(separator: ":").last.flatMap { Int($0.prefix { $0.isNumber }) })

            // The command line writes to marie's ledger while the server serves it.
            #expect(try runProcess(stride, ["--ledger", ledgers + "/marie", "shoes", "add", "Vaporfly 3"]).status == 0)
            let maries = try await Self.get(port: port, path: "/v1/shoes", token: marie)
            #expect(maries.hasPrefix("HTTP/1.1 200") && maries.contains("Vaporfly 3"))
            let bobs = try await Self.get(port: port, path: "/v1/shoes", token: bob)
            #expect(bobs.hasPrefix("HTTP/1.1 200") && !bobs.contains("Vaporfly 3"))
            #expect(try await Self.get(port: port, path: "/v1/shoes", token: "bob." + marie.dropFirst(6)).hasPrefix("HTTP/1.1 401"))
            #expect(try await Self.get(port: port, path: "/v1/checkin", token: bob, method: "POST", body: "{}").hasPrefix("HTTP/1.1 200"))
            // A live backup of a served ledger is a ledger `verify` accepts.
            let backup = folder + "/bob-backup"
            #expect(try runProcess(stride, ["--ledger", ledgers + "/bob", "ledger", "backup", backup]).status == 0)
            let verified = try runProcess(stride, ["--ledger", backup, "ledger", "verify"])
            #expect(verified.status == 0, "\(verified.standardError)")
            #expect(try runProcess(stride, ["--ledger", backup, "points", "history"]).standardOutput.contains("via bob-watch"))

            process.terminate()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
    }

    /// The first line a process prints, read on a thread of its own.
    static func firstLine(of pipe: Pipe) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                var bytes: [UInt8] = []
                while true {
                    let data = pipe.fileHandleForReading.readData(ofLength: 1)
                    guard let byte = data.first else { break }
                    if byte == UInt8(ascii: "\n") { break }
                    bytes.append(byte)
                }
                continuation.resume(returning: String(decoding: bytes, as: UTF8.self))
            }.start()
        }
    }
}
