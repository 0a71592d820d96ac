import Foundation
import StrideEvents
import StrideIngest
import StrideLedger
import StrideTestSupport
import Testing

@Suite("stride tokens, and the sender shown by the audits")
struct TokenCommandTests {
    let stride = builtExecutable("stride")
    let environment = ["STRIDE_FIXED_TIME": "2024-06-01T12:00:00Z"]

    func run(_ ledger: String, _ arguments: [String]) throws -> ProcessResult {
        try runProcess(stride, ["--ledger", ledger] + arguments, environment: environment)
    }

    @Test("add prints the token alone on stdout, once; list and log never show it or its hash; revoke shuts it out")
    func lifecycle() throws {
        try withTemporaryDirectory { folder in
            let ledger = folder + "/ledger"
            #expect(try run(ledger, ["init", "--time-zone", "Europe/Paris"]).status == 0)
            let added = try run(ledger, ["tokens", "add", "marie-iphone"])
            #expect(added.status == 0, "\(added.standardError)")
            let token = added.standardOutput.trimmingCharacters(in: .newlines)
            #expect(added.standardOutput == token + "\n")
            #expect(token.hasPrefix("stride_") && token.count == 71)
            #expect(!added.standardError.contains(token) && added.standardError.contains("shown this once"))
            let hash = Hex.string(AccessTokenHash(of: token).bytes)

            let list = try run(ledger, ["tokens", "list", "--json"])
            #expect(
                list.standardOutput
                    == #"{"tokens":[{"name":"marie-iphone","addedAt":"2024-06-01T14:00:00+02:00","isRevoked":false,"revokedAt":null}]}"# + "\n")
            let table = try run(ledger, ["tokens", "list"]).standardOutput
            #expect(table.contains("marie-iphone") && table.contains("active"))
            let log = try run(ledger, ["log", "--json"]).standardOutput + (try run(ledger, ["log"]).standardOutput)
            #expect(log.contains(#""sha256Prefix":"\#(hash.prefix(8))""#))
            for shown in [table, list.standardOutput, log] {
                #expect(!shown.contains(token.dropFirst(7)) && !shown.contains(hash.prefix(9)))
            }
            // In the ledger's files, neither the token nor its digits.
            for file in try FileManager.default.contentsOfDirectory(atPath: ledger) {
                let bytes = try Data(contentsOf: URL(fileURLWithPath: ledger + "/" + file))
                #expect(bytes.range(of: Data(token.dropFirst(7).utf8)) == nil)
                let mode = try FileManager.default.attributesOfItem(atPath: ledger + "/" + file)[.posixPermissions] as? Int
                #expect(mode == 0o600, "\(file)")
            }

            let again = try run(ledger, ["tokens", "add", "Marie-iPhone"])
            #expect(again.status == 1 && again.standardOutput.isEmpty)
            #expect(again.standardError.contains("already has a token; revoke it first"))
            #expect(try run(ledger, ["tokens", "revoke", "marie-iphone"]).status == 0)
            let revokedAgain = try run(ledger, ["tokens", "revoke", "marie-iphone"])
            #expect(revokedAgain.status == 1 && revokedAgain.standardError.contains("has no token to revoke"))
            let second = try run(ledger, ["tokens", "add", "marie-iphone"])
            #expect(second.status == 0)
            #expect(second.standardOutput.trimmingCharacters(in: .newlines) != token)
            let after = try run(ledger, ["tokens", "list", "--json"]).standardOutput
            #expect(
                after
                    == #"{"tokens":[{"name":"marie-iphone","addedAt":"2024-06-01T14:00:00+02:00","isRevoked":true,"revokedAt":"2024-06-01T14:00:00+02:00"},{"name":"marie-iphone","addedAt":"2024-06-01T14:00:00+02:00","isRevoked":false,"revokedAt":null}]}"#
                    + "\n")
            #expect(try run(ledger, ["verify"]).status == 0)
        }
    }

    @Test(
        "a name that is no device name is refused with a sentence, and nothing is printed on stdout",
        arguments: [
            "marie iphone", "", "émile", String(repeating: "a", count: 65),
        ])
    func badNames(name: String) throws {
        try withTemporaryDirectory { folder in
            #expect(try run(folder + "/ledger", ["init", "--time-zone", "UTC"]).status == 0)
            let result = try run(folder + "/ledger", ["tokens", "add", name])
            #expect(result.status == 1)
            #expect(result.standardOutput.isEmpty)
            #expect(result.standardError.contains("name the device with 1 to 64 letters, digits"))
        }
    }

    @Test("mileage explain, points history and log show the device that sent an event, and nothing for the rest")
    func provenance() throws {
        try withTemporaryDirectory { folder in
            let path = folder + "/ledger"
            let now = try #require(ISO8601.parse("2024-06-01T12:00:00Z"))
            let ledger = try Ledger.create(at: path, timeZone: "Europe/Paris", clock: FixedClock(now))
            let run1 =
                #"{"activity":"HKWorkoutActivityTypeRunning","start":"2024-05-09T07:00:00+02:00","end":"2024-05-09T07:30:00+02:00","distance":5,"distanceUnit":"km","id":"run-1"}"#
            try run1.write(toFile: folder + "/run.ndjson", atomically: true, encoding: .utf8)
            try ledger.registerShoe(
                name: "Pegasus", brand: nil, startKilometers: 0, goalKilometers: nil, makeDefault: true,
                at: ISO8601.parse("2024-05-01T08:00:00+02:00"))
            _ = try ledger.ingest(file: folder + "/run.ndjson", options: IngestOptions(sentBy: "marie-iphone"))
            _ = try ledger.checkIn(at: nil, sentBy: "marie-iphone")

            let explain = try run(path, ["mileage", "explain", "Pegasus", "--json"]).standardOutput
            let entries = try #require(
                (try JSONSerialization.jsonObject(with: Data(explain.utf8)) as? [String: Any])?["entries"] as? [[String: Any]])
            #expect(entries.map { $0["via"] as? String } == [nil, "marie-iphone"])
            #expect(explain.contains(#""detail":"registered with 0.00 km already run"}"#))
            #expect(
                try run(path, ["mileage", "explain", "Pegasus"]).standardOutput.contains("(5.0 km, from the reported by the app), via marie-iphone"))

            let history = try run(path, ["points", "history", "--json"]).standardOutput
            #expect(
                history.contains(
                    #""rule":"dailyCheckIn","points":1,"day":"2024-06-01","at":"2024-06-01T14:00:00+02:00","reason":null,"kind":"award","via":"marie-iphone"}"#
                ))
            #expect(
                history.contains(#""rule":"firstUse","points":10,"day":"2024-06-01","at":"2024-06-01T14:00:00+02:00","reason":null,"kind":"award"}"#))
            #expect(try run(path, ["points", "history"]).standardOutput.contains("via marie-iphone"))

            let log = try run(path, ["log", "--type", "workout.assigned", "--json"]).standardOutput
            #expect(log.contains(#""payload":{"shoe":"#) && log.contains(#""assignedBy":"auto","sentBy":"marie-iphone"}"#))
            #expect(
                try run(path, ["log", "--type", "checkin.recorded"]).standardOutput.contains(
                    #"{"day":"2024-06-01","sentBy":"marie-iphone"}, via marie-iphone"#))
        }
    }
}
