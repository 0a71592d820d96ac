import Foundation
import StrideTestSupport
import Testing

/// `stride travel` as a runner who moves uses it.
@Suite("stride travel: where the runner lived")
struct TravelCommandTests {
    let stride = builtExecutable("stride")

    func run(_ ledger: String, _ arguments: String...) throws -> ProcessResult {
        try runProcess(stride, ["--ledger", ledger] + arguments)
    }

    func json(_ ledger: String, _ arguments: String...) throws -> [String: Any] {
        let result = try runProcess(stride, ["--ledger", ledger] + arguments + ["--json"])
        return (try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]) ?? [:]
    }

    @Test("add a stay in Tokyo, see it, explain a day of it, see the day in daily, take it back; bad zones and dates are refused")
    func story() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let ledger = folder + "/ledger"
            _ = try run(ledger, "init", "--time-zone", "Europe/London")
            let steps = (0..<48).map { index in
                let hour = index % 24
                let day = 3 + index / 24
                return
                    #"{"type":"HKQuantityTypeIdentifierStepCount","start":"2024-04-0\#(day)T\#(hour < 10 ? "0" : "")\#(hour):05:00Z","end":"2024-04-0\#(day)T\#(hour < 10 ? "0" : "")\#(hour):15:00Z","value":100,"unit":"count","device":"phone","id":"s\#(index)"}"#
            }
            let file = folder + "/steps.ndjson"
            try steps.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
            #expect(try run(ledger, "ingest", file).status == 0)

            let added = try run(ledger, "travel", "add", "Asia/Tokyo", "--from", "2024-04-04", "--to", "2024-04-06")
            #expect(added.status == 0)
            #expect(added.standardOutput.contains("lived in Asia/Tokyo from 2024-04-04 until 2024-04-06"))
            let plan = try json(ledger, "travel")
            #expect(plan["home"] as? String == "Europe/London")
            let timeline = plan["timeline"] as? [[String: Any]] ?? []
            #expect(timeline.map { "\($0["zone"] ?? "") \($0["from"] ?? "") \($0["to"] ?? "")" } == ["Asia/Tokyo 2024-04-04 2024-04-06"])
            let sequence = (plan["set"] as? [[String: Any]])?.first?["sequence"] as? Int ?? 0

            let explained = try json(ledger, "travel", "explain", "2024-04-04")
            #expect(explained["zone"] as? String == "Asia/Tokyo")
            #expect((explained["reason"] as? [String: Any])?["sequence"] as? Int == sequence)
            // 3 April: London's midnight (23:00 UTC on the 2nd, summer time) to Tokyo's of the 4th
            // (15:00 UTC on the 3rd): 16 hours, the 15 samples from 00:05 to 14:05 UTC.
            let daily = try json(ledger, "daily", "--from", "2024-04-03", "--to", "2024-04-03")
            let third = (daily["days"] as? [[String: Any]])?.first ?? [:]
            #expect(third["steps"] as? Double == 1_500)
            #expect((third["lived"] as? [String: Any])?["hours"] as? Double == 16)
            #expect(try run(ledger, "daily", "--from", "2024-04-04", "--to", "2024-04-04").standardOutput.contains("2024-04-04 (Tokyo, UTC+9)"))

            #expect(try run(ledger, "travel", "remove", String(sequence)).status == 0)
            #expect((try json(ledger, "travel")["timeline"] as? [Any])?.isEmpty == true)
            let home = try json(ledger, "daily", "--from", "2024-04-03", "--to", "2024-04-03")
            // At home again: London's 3 April, 00:05 to 22:05 UTC, 23 samples.
            #expect(((home["days"] as? [[String: Any]])?.first?["steps"] as? Double) == 2_300)
            #expect(((home["days"] as? [[String: Any]])?.first?["lived"]) == nil)

            let unknown = try run(ledger, "travel", "add", "Mars/Olympus", "--from", "2024-04-04")
            #expect(unknown.status != 0 && unknown.standardError.contains("is not an IANA time zone"))
            let badDate = try run(ledger, "travel", "add", "Asia/Tokyo", "--from", "2024-13-01")
            #expect(badDate.status == 64 && badDate.standardError.contains("--from"))
            let noSuch = try run(ledger, "travel", "remove", "99999")
            #expect(noSuch.status != 0 && noSuch.standardError.contains("no travel period was set by event 99999"))
        }
    }
}
