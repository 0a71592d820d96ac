import Foundation
import StrideTestSupport
import Testing

/// Every way a command can fail prints the same way: `stride: error: …` on standard error
/// (with the usage after it when the command line could not be read), nothing on standard
/// output, and a non-zero status — 64 for a command line the parser refused, 1 for anything
/// the ledger refused.
@Suite("Errors print one way")
struct ErrorPrintingTests {
    let stride = builtExecutable("stride")

    @Test(
        "a parse error, a validation, each refusal the ledger makes and a missing file print `stride: error:`",
        arguments: [
            (["daily", "explain", "2024-13-40"], 64), (["serve", "--port", "99999"], 64), (["frobnicate"], 64),
            (["shoes", "add", "Pegasus", "--goal-km", "1e-300"], 1), (["workouts", "assign", "00", "Pegasus"], 1),
            (["assign", "00", "Pegasus"], 1), (["points", "spend", "999", "--reason", "too much"], 1),
            (["ingest", "/nonexistent/export.zip"], 1), (["samples", "restore", "ffff"], 1), (["tokens", "revoke", "nobody"], 1),
            (["--ledger", "/nonexistent/ledger", "stats"], 1),
        ] as [([String], Int32)])
    func oneWay(arguments: [String], status: Int32) throws {
        try withTemporaryDirectory { folder in
            let ledger = folder + "/ledger"
            #expect(try runProcess(stride, ["--ledger", ledger, "init", "--time-zone", "Europe/Paris"]).status == 0)
            let run = try runProcess(stride, arguments.first == "--ledger" ? arguments : ["--ledger", ledger] + arguments)
            #expect(run.status == status, "\(arguments): \(run.standardError)")
            #expect(run.standardError.hasPrefix("stride: error: "), "\(arguments): \(run.standardError)")
            #expect(!run.standardError.split(separator: "\n").contains { $0.hasPrefix("Error:") }, "\(arguments)")
            #expect(run.standardOutput.isEmpty, "\(arguments): \(run.standardOutput)")
        }
    }

    @Test("the earlier spellings answer as the grouped commands do, and are not listed")
    func aliases() throws {
        try withTemporaryDirectory { folder in
            let ledger = folder + "/ledger"
            #expect(try runProcess(stride, ["--ledger", ledger, "init", "--time-zone", "Europe/Paris"]).status == 0)
            for (old, grouped) in [(["verify"], ["ledger", "verify"]), (["stats", "--json"], ["ledger", "stats", "--json"])] {
                let before = try runProcess(stride, ["--ledger", ledger] + old)
                let after = try runProcess(stride, ["--ledger", ledger] + grouped)
                #expect(before.status == 0 && after.status == 0)
                #expect(before.standardOutput == after.standardOutput)
            }
            let help = try runProcess(stride, ["--help"]).standardOutput
            #expect(help.contains("  ledger ") && help.contains("  workouts "))
            for hidden in ["  verify ", "  assign ", "  log ", "  replay "] { #expect(!help.contains(hidden), "\(hidden)") }
        }
    }
}

@Suite("Where --ledger goes")
struct LedgerOptionPlacementTests {
    let stride = builtExecutable("stride")

    @Test("--ledger before the command, after it, as --ledger=PATH, or $STRIDE_LEDGER name the same ledger, for grouped and hidden commands alike")
    func placements() throws {
        try withTemporaryDirectory { folder in
            let ledger = folder + "/ledger"
            #expect(try runProcess(stride, ["--ledger", ledger, "init", "--time-zone", "Europe/Paris"]).status == 0)
            #expect(try runProcess(stride, ["shoes", "add", "Pegasus", "--ledger", ledger]).status == 0)
            for arguments in [
                ["--ledger", ledger, "ledger", "stats", "--json"], ["ledger", "stats", "--json", "--ledger", ledger],
                ["--ledger=\(ledger)", "stats", "--json"],
                ["stats", "--json", "--ledger=\(ledger)"],
            ] {
                let run = try runProcess(stride, arguments)
                #expect(run.status == 0, "\(arguments): \(run.standardError)")
                #expect(run.standardOutput.contains("\"lastSequence\" : 3") || run.standardOutput.contains("\"lastSequence\":3"), "\(arguments)")
            }
            let fromEnvironment = try runProcess(stride, ["shoes", "list"], environment: ["STRIDE_LEDGER": ledger])
            #expect(fromEnvironment.standardOutput.contains("Pegasus"))
        }
    }

    static let long = String(repeating: "x", count: 5_000)

    @Test(
        "an error quotes at most 100 characters of what was typed, and says how long it was",
        arguments: [
            ["training", "explain", "effort", long], ["training", "explain", long, "5k"], ["training", "weeks", "--from", long],
            ["training", "zones", "--as-of", long], ["training", "load", "--as-recorded", long], ["daily", "explain", long],
            ["daily", "--from", long], ["workouts", "--to", long], ["log", "--type", long], ["replay", "--until", long],
            ["athlete", "set", "--max-hr", "190", "--from", long], ["checkin", "--at", long], ["ledger", "rebuild", long],
            ["points", "spend", "1", "--reason", "r", "--reopen", long], ["mileage", "explain", long],
            ["samples", "withdraw", long, "--reason", "r"],
            // The argument parser's own messages: a value of the wrong type, an unknown command.
            ["shoes", "add", "Pegasus", "--goal-km", long], ["training", long],
        ])
    func longInputCut(arguments: [String]) throws {
        try withTemporaryDirectory { folder in
            let ledger = folder + "/ledger"
            #expect(try runProcess(stride, ["--ledger", ledger, "init", "--time-zone", "Europe/Paris"]).status == 0)
            let run = try runProcess(stride, ["--ledger", ledger] + arguments)
            #expect(run.status != 0)
            let first = run.standardError.split(separator: "\n").first ?? ""
            #expect(first.contains("… (5,000 characters)"), "\(arguments.prefix(3)): \(first.prefix(300))")
            #expect(!first.contains(String(repeating: "x", count: 101)), "\(arguments.prefix(3)): \(first.utf8.count) bytes")
            #expect(first.utf8.count < 1_000, "\(arguments.prefix(3)): \(first.utf8.count) bytes")
        }
    }

    @Test("a malformed explain subject is a usage error (64) naming what is known; a well-formed one with nothing behind it fails (1)")
    func explainSubjects() throws {
        try withTemporaryDirectory { folder in
            let ledger = folder + "/ledger"
            #expect(try runProcess(stride, ["--ledger", ledger, "init", "--time-zone", "Europe/Paris"]).status == 0)
            for (arguments, status, words) in [
                (["effort", "3k"], 64 as Int32, "\"3k\" is no effort distance; give one of 400m, 1k, 1mi, 5k, 10k, half, marathon"),
                (["week", "2024-W60"], 64, "is not a week like 2024-W03"),
                (["week", "2024-W18", "--year", "2024"], 64, "--year only an effort"),
                (["lap", "1"], 64, "is nothing to explain"),
                (["effort", "5k"], 1, "has a stream covering 5k"),
                (["week", "2024-W18"], 1, "no run in week 2024-W18"),
            ] {
                let run = try runProcess(stride, ["--ledger", ledger, "training", "explain"] + arguments)
                #expect(run.status == status, "\(arguments): \(run.standardError)")
                #expect(run.standardError.contains(words), "\(arguments): \(run.standardError)")
            }
        }
    }
}
