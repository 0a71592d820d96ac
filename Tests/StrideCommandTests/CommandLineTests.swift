import Foundation
import StrideTestSupport
import Testing

/// The `stride` command as a user runs it: exit statuses, what goes to stdout and stderr.
@Suite("The stride command line")
struct CommandLineTests {
    let stride = builtExecutable("stride")

    func run(_ arguments: String..., environment: [String: String] = [:]) throws -> ProcessResult {
        try runProcess(stride, arguments, environment: environment)
    }

    @Test("init creates a ledger; a second init fails with a sentence on stderr and changes nothing")
    func initTwice() throws {
        try withTemporaryDirectory { folder in
            let ledger = folder + "/ledger"
            let created = try run("--ledger", ledger, "init", "--time-zone", "Europe/Paris")
            #expect(created.status == 0)
            #expect(created.standardOutput.contains("Europe/Paris"))
            let again = try run("--ledger", ledger, "init", "--time-zone", "Asia/Seoul")
            #expect(again.status != 0)
            #expect(again.standardOutput.isEmpty)
            #expect(again.standardError.contains("already exists"))
        }
    }

    @Test("STRIDE_LEDGER names the ledger when --ledger is absent; stats --json is one document")
    func statsJSON() throws {
        try withTemporaryDirectory { folder in
            let ledger = folder + "/env-ledger"
            #expect(try run("init", "--time-zone", "UTC", environment: ["STRIDE_LEDGER": ledger]).status == 0)
            let stats = try run("stats", "--json", environment: ["STRIDE_LEDGER": ledger])
            #expect(stats.status == 0)
            let document = try #require(try JSONSerialization.jsonObject(with: Data(stats.standardOutput.utf8)) as? [String: Any])
            for key in ["events", "lastSequence", "byType", "samplesByHealthType", "bytes"] {
                #expect(document[key] != nil, "stats --json has \(key)")
            }
            // The ledger's creation and its first-use award.
            #expect(document["events"] as? Int == 2)
        }
    }

    @Test("a read command on a missing ledger fails and says how to create one, creating nothing")
    func missingLedger() throws {
        try withTemporaryDirectory { folder in
            let result = try run("--ledger", folder + "/nothing", "log")
            #expect(result.status == 1)
            #expect(result.standardError.contains("stride init"))
            #expect(!FileManager.default.fileExists(atPath: folder + "/nothing"))
        }
    }

    @Test("log --json lists events with the contract's fields; bad arguments are named")
    func log() throws {
        try withTemporaryDirectory { folder in
            let ledger = folder + "/ledger"
            _ = try run("--ledger", ledger, "init", "--time-zone", "Asia/Seoul")
            let log = try run("--ledger", ledger, "log", "--from", "1", "--limit", "3", "--json")
            let document = try #require(try JSONSerialization.jsonObject(with: Data(log.standardOutput.utf8)) as? [String: Any])
            let events = try #require(document["events"] as? [[String: Any]])
            #expect(events.count == 2)
            for key in ["sequence", "recordedAt", "occurredAt", "type", "entity", "payload"] {
                #expect(events.first?[key] != nil, "log event has \(key)")
            }
            #expect((events.first?["occurredAt"] as? String)?.hasSuffix("+09:00") == true)
            let badType = try run("--ledger", ledger, "log", "--type", "nonsense")
            #expect(badType.status != 0)
            #expect(badType.standardError.contains("nonsense"))
        }
    }

    @Test("verify passes an intact ledger and names the damaged event of another, exiting 1")
    func verify() throws {
        try withTemporaryDirectory { folder in
            let ledger = folder + "/ledger"
            _ = try run("--ledger", ledger, "init", "--time-zone", "UTC")
            #expect(try run("--ledger", ledger, "verify").status == 0)
            let path = ledger + "/data.mdb"
            var data = try Data(contentsOf: URL(fileURLWithPath: path))
            let zone = Data("UTC".utf8)
            var searchFrom = data.startIndex
            while let range = data.range(of: zone, in: searchFrom..<data.endIndex) {
                data[range.lowerBound] = UInt8(ascii: "X")
                searchFrom = range.upperBound
            }
            try data.write(to: URL(fileURLWithPath: path))
            let damaged = try run("--ledger", ledger, "verify")
            #expect(damaged.status == 1)
            #expect(damaged.standardError.contains("sequence 1"))
        }
    }

    @Test("export, import and backup round-trip through the command line")
    func transfer() throws {
        try withTemporaryDirectory { folder in
            let ledger = folder + "/ledger"
            _ = try run("--ledger", ledger, "init", "--time-zone", "UTC")
            #expect(try run("--ledger", ledger, "export", folder + "/out.ndjson").status == 0)
            let again = try run("--ledger", ledger, "export", folder + "/out.ndjson")
            #expect(again.status == 1)
            #expect(again.standardError.contains("already exists"))
            #expect(try run("--ledger", folder + "/restored", "import", folder + "/out.ndjson").status == 0)
            #expect(try run("--ledger", folder + "/restored", "verify").status == 0)
            #expect(try run("--ledger", ledger, "backup", folder + "/backup").status == 0)
            #expect(try run("--ledger", folder + "/backup", "verify").status == 0)
            let missing = try run("--ledger", folder + "/other", "import", folder + "/missing.ndjson")
            #expect(missing.status == 1)
            #expect(missing.standardError.contains("missing.ndjson"))
        }
    }

    @Test("init, import and backup make the folders a ledger's path lacks, each mode 0700; a folder there already keeps its mode")
    func missingFolders() throws {
        try withTemporaryDirectory { folder in
            func mode(_ path: String) throws -> Int? {
                try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            }
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder)
            let ledger = folder + "/new/deeper/stride.ledger"
            let created = try run("--ledger", ledger, "init", "--time-zone", "UTC")
            #expect(created.status == 0, "\(created.standardError)")
            #expect(try run("--ledger", ledger, "export", folder + "/out.ndjson").status == 0)
            #expect(try run("--ledger", folder + "/copies/restored", "import", folder + "/out.ndjson").status == 0)
            #expect(try run("--ledger", ledger, "backup", folder + "/usb/stride-copy").status == 0)
            for made in ["new", "new/deeper", "new/deeper/stride.ledger", "copies", "copies/restored", "usb", "usb/stride-copy"] {
                #expect(try mode(folder + "/" + made) == 0o700, "\(made)")
            }
            #expect(try mode(folder) == 0o755)
            for copy in [ledger, folder + "/copies/restored", folder + "/usb/stride-copy"] {
                #expect(try run("--ledger", copy, "verify").status == 0, "\(copy)")
            }
        }
    }
}
