import Foundation
import StrideTestSupport
import Testing

@Suite("stride points, checkin and journal")
struct PointsCommandTests {
    let stride = builtExecutable("stride")

    func balance(_ ledger: String) throws -> Int {
        let result = try runProcess(stride, ["--ledger", ledger, "points", "--json"])
        let document = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        return document?["balance"] as? Int ?? -1
    }

    @Test("two processes spending at once against a balance that covers one: exactly one succeeds, nothing overdraws")
    func concurrentSpends() throws {
        for round in 0..<3 {
            try withTemporaryDirectory { (folder: String) throws in
                let ledger = folder + "/ledger"
                _ = try runProcess(stride, ["--ledger", ledger, "init", "--time-zone", "UTC"])
                #expect(try balance(ledger) == 10)
                let processes = try (0..<2).map { index -> (Process, Pipe) in
                    let process = Process()
                    process.executableURL = URL(fileURLWithPath: stride)
                    process.arguments = ["--ledger", ledger, "points", "spend", "8", "--reason", "spender \(index)"]
                    let errors = Pipe()
                    process.standardError = errors
                    process.standardOutput = FileHandle.nullDevice
                    try process.run()
                    return (process, errors)
                }
                processes.forEach { $0.0.waitUntilExit() }
                let statuses = processes.map(\.0.terminationStatus).sorted()
                #expect(statuses == [0, 1], "round \(round)")
                let refusal =
                    processes.first { $0.0.terminationStatus == 1 }.map {
                        String(decoding: $0.1.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                    } ?? ""
                #expect(refusal.contains("overdraw"))
                #expect(try balance(ledger) == 2)
            }
        }
    }

    @Test("check in, write, spend: the contract's fields; a bad number is named")
    func contract() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let ledger = folder + "/ledger"
            _ = try runProcess(stride, ["--ledger", ledger, "init", "--time-zone", "Europe/Paris"])
            #expect(try runProcess(stride, ["--ledger", ledger, "checkin"]).status == 0)
            #expect(try runProcess(stride, ["--ledger", ledger, "journal", "add", "a", "thought"]).status == 0)
            let result = try runProcess(stride, ["--ledger", ledger, "points", "history", "--json"])
            let document = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
            let history = try #require(document["history"] as? [[String: Any]])
            #expect(history.map { $0["rule"] as? String } == ["firstUse", "dailyCheckIn", "firstJournalEntry"])
            for key in ["sequence", "rule", "points", "day", "at"] { #expect(history.first?[key] != nil) }
            #expect(try balance(ledger) == 14)
            let bad = try runProcess(stride, ["--ledger", ledger, "points", "spend", "0", "--reason", "nothing"])
            #expect(bad.status != 0)
            let journal = try runProcess(stride, ["--ledger", ledger, "journal", "list"])
            #expect(journal.standardOutput.contains("a thought"))
        }
    }
}
