import Foundation
import StrideTestSupport
import Testing

/// What a new user tries first: the version, their own time zone, a mistyped date.
@Suite("stride --version, init's time zones and --at in the future")
struct NewUserCommandTests {
    let stride = builtExecutable("stride")

    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessResult {
        try runProcess(stride, arguments, environment: environment)
    }

    @Test("--version prints the release and the ledger's formats on stdout")
    func version() throws {
        let result = try run(["--version"])
        #expect(result.status == 0)
        #expect(result.standardOutput.wholeMatch(of: /stride \d+\.\d+\.\d+ \(ledger storage format \d+, event envelope format \d+\)\n/) != nil)
    }

    @Test("init takes every zone of the tz database and refuses others", arguments: ["Asia/Kolkata", "Etc/UTC"])
    func timeZones(zone: String) throws {
        try withTemporaryDirectory { folder in
            let created = try run(["--ledger", folder + "/ledger", "init", "--time-zone", zone])
            #expect(created.status == 0)
            #expect(created.standardOutput.contains("(time zone \(zone))"))
            let refused = try run(["--ledger", folder + "/other", "init", "--time-zone", "Mars/Olympus"])
            #expect(refused.status != 0)
            #expect(refused.standardError.contains("\"Mars/Olympus\" is not an IANA time zone"))
        }
    }

    @Test("checkin and shoes add dated next year are refused, naming both times, and append nothing; a minute ahead is fine")
    func future() throws {
        try withTemporaryDirectory { folder in
            let ledger = folder + "/ledger"
            let clock = ["STRIDE_FIXED_TIME": "2024-05-01T12:00:00Z"]
            #expect(try run(["--ledger", ledger, "init", "--time-zone", "UTC"], environment: clock).status == 0)
            for command in [["checkin"], ["shoes", "add", "Pegasus"], ["journal", "add", "soon"]] {
                let refused = try run(["--ledger", ledger] + command + ["--at", "2030-01-01T00:00:00Z"], environment: clock)
                #expect(refused.status == 1, "\(command)")
                #expect(refused.standardError.contains("2030-01-01T00:00:00Z"), "\(command)")
                #expect(refused.standardError.contains("2024-05-01T12:00:00Z"), "\(command)")
            }
            let stats = try run(["--ledger", ledger, "stats", "--json"])
            let document = try #require(try JSONSerialization.jsonObject(with: Data(stats.standardOutput.utf8)) as? [String: Any])
            #expect(document["events"] as? Int == 2)
            #expect(try run(["--ledger", ledger, "checkin", "--at", "2024-05-01T12:01:00Z"], environment: clock).status == 0)
        }
    }

    @Test(
        "an action on a path with no ledger refuses as a read does and creates nothing: a mistyped --ledger, an unset STRIDE_LEDGER in a cron job",
        arguments: [
            ["checkin"], ["journal", "add", "ran"], ["shoes", "add", "Pegasus"], ["tokens", "add", "phone"], ["ingest", "/dev/null"],
            ["serve", "--port", "0"], ["daily"],
        ])
    func missingLedger(command: [String]) throws {
        try withTemporaryDirectory { folder in
            let mistyped = folder + "/ledgr"
            let refused = try run(["--ledger", mistyped] + command)
            #expect(refused.status != 0, "\(command)")
            #expect(
                refused.standardError.contains("there is no ledger at \(mistyped); create one with `stride init"),
                "\(command): \(refused.standardError)")
            #expect(!FileManager.default.fileExists(atPath: mistyped), "\(command)")
            // Without --ledger, in a folder with no ledger: the default path is not created either.
            let unset = try runProcess(stride, command, environment: ["STRIDE_LEDGER": ""], in: folder)
            #expect(unset.status != 0, "\(command)")
            #expect(!FileManager.default.fileExists(atPath: folder + "/stride.ledger"), "\(command)")
        }
    }
}
