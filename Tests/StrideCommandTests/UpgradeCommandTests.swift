import Foundation
import StrideTestSupport
import Testing

/// The one-time upgrade of a ledger an earlier Stride wrote, as a runner meets it: the first
/// command on it upgrades it (a note on standard error), and a kill at any moment leaves a
/// ledger that `verify` accepts and the next command completes.
@Suite("Upgrading an earlier ledger from the command line")
struct UpgradeCommandTests {
    let stride = builtExecutable("stride")
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("StrideLedgerTests/Fixtures/previous-release/ledger.tar.gz").path

    func unpack(into folder: String) throws -> String {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        #expect(try runProcess("/bin/tar", ["-xzf", Self.fixture, "-C", folder]).status == 0)
        return folder + "/ledger"
    }

    func stats(_ ledger: String) throws -> [String: Any] {
        let result = try runProcess(stride, ["--ledger", ledger, "stats", "--json"])
        return try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    }

    @Test("the first command upgrades the ledger, says what it found on standard error, and keeps standard output its own")
    func firstCommand() throws {
        try withTemporaryDirectory { folder in
            let ledger = try unpack(into: folder + "/a")
            let first = try runProcess(stride, ["--ledger", ledger, "stats", "--json"])
            #expect(first.status == 0)
            #expect(first.standardError.contains("5,171 samples had been appended twice"))
            #expect(first.standardError.contains("1 step award for doubled days reversed"))
            let document = try #require(try JSONSerialization.jsonObject(with: Data(first.standardOutput.utf8)) as? [String: Any])
            #expect(document["repeatedSamples"] as? Int == 5_171)
            let again = try runProcess(stride, ["--ledger", ledger, "stats"])
            #expect(again.standardError.isEmpty)
            #expect(again.standardOutput.contains("5,171 samples appended twice by an earlier Stride"))
            let verify = try runProcess(stride, ["--ledger", ledger, "verify"])
            #expect(verify.status == 0)
            #expect(verify.standardOutput.contains("Identities agree with the log"))
        }
    }

    @Test(
        "killed at any moment of the upgrade, the ledger verifies, and the next command ends where an uninterrupted upgrade does",
        arguments: [0.1, 0.4, 0.9, 1.6])
    func killed(after delay: Double) throws {
        try withTemporaryDirectory { folder in
            let clean = try unpack(into: folder + "/clean")
            #expect(try runProcess(stride, ["--ledger", clean, "verify"]).status == 0)
            let ledger = try unpack(into: folder + "/killed")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: stride)
            process.arguments = ["--ledger", ledger, "stats"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let verify = try runProcess(stride, ["--ledger", ledger, "verify"])
            #expect(verify.status == 0, "\(verify.standardError)")
            let expected = try stats(clean)
            let after = try stats(ledger)
            for field in ["repeatedSamples", "samplesByHealthType", "byType", "lastSequence"] {
                #expect((after[field] as? NSObject) == (expected[field] as? NSObject), "\(field)")
            }
            let daily = { (path: String) in try runProcess(self.stride, ["--ledger", path, "daily", "--json"]).standardOutput }
            #expect(try daily(ledger) == daily(clean))
            let points = { (path: String) in try runProcess(self.stride, ["--ledger", path, "points", "--json"]).standardOutput }
            #expect(try points(ledger).contains(#""balance":0"#))
            #expect(try points(clean).contains(#""balance":0"#))
        }
    }
}
