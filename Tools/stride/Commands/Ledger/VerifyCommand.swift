import ArgumentParser
import StrideContract
import StrideEvents
import StrideLedger
import StrideReplica

struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify", abstract: "Check every event's checksum, the hash chain and the indexes.",
        discussion: """
            Exits with status 1 and names the first event at fault when anything is wrong. With --against             postgresql://… it compares the ledger's log with the runner's copy there instead, event by event, and             says from which sequence they differ.
            """)

    @OptionGroup var ledger: LedgerOptions
    @OptionGroup var output: OutputOptions

    @Option(name: .customLong("against"), help: "Compare the log with the runner's copy in PostgreSQL at this address.")
    var replica: String?

    @Option(help: "The runner whose copy to compare with (default: the ledger's folder name, in a folder of runners).")
    var runner: String?

    func run() throws {
        if let replica { return try compare(with: try ReplicaAddress(replica)) }
        let path = ledger.path
        let result = try Ledger.verify(at: path) { checked in
            if Console.isInteractive && !output.json { Console.note("verified \(checked) events…") }
        }
        // Projections and identities are compared only on an intact log: a damaged one cannot
        // be replayed.
        let opened = result.isIntact ? try ledger.openExisting() : nil
        let checks = try opened?.verifyProjections() ?? []
        let identities = try opened?.verifyIdentities()
        let damagedProjections = checks.filter { !$0.matches }
        if output.json {
            Console.print(VerificationDocument(log: result, projections: checks, identities: identities))
        } else if result.isIntact {
            Console.print(
                "Ledger \(path) is intact: \(result.checkedEvents) events, checksums and hash chain hold, indexes agree. Last hash \(result.lastHash)."
            )
            for check in checks where check.matches {
                let snapshots = check.snapshotsChecked == 0 ? "" : ", and so do its \(check.snapshotsChecked.counted("snapshot"))"
                Console.print(
                    "Projection \(check.name) matches a rebuild at event \(check.checkpoint) (digest \(check.storedDigest.description.prefix(16))…)\(snapshots)."
                )
            }
            if let identities, identities.isIntact {
                Console.print(
                    "Identities agree with the log: \(identities.aliases.counted("sample or workout", plural: "samples and workouts")) known by "
                        + "the identity an export gives them today, \(identities.sampleRepeats.counted("repeat")) counted once.")
            }
        }
        if let identities, !identities.isIntact {
            throw CommandFailure(
                "the identity index differs from the log — " + identities.problems.joined(separator: "; ")
                    + ". The log itself is intact. Run `stride rebuild identities` to make the index again.")
        }
        guard damagedProjections.isEmpty else {
            throw CommandFailure(
                "the projections "
                    + damagedProjections.map { check in
                        check.snapshotsMismatched.isEmpty
                            ? "\(check.name) (stored \(check.storedDigest.description.prefix(16))…, rebuilt \(check.rebuiltDigest.description.prefix(16))…)"
                            : "\(check.name) (its snapshots at events \(check.snapshotsMismatched.map(String.init).joined(separator: ", ")))"
                    }.joined(separator: ", ")
                    + " differ from a rebuild; the log itself is intact. Run `stride rebuild " + damagedProjections.map(\.name).joined(separator: " ")
                    + "` to repair them.")
        }
        guard result.isIntact else {
            var problems: [String] = []
            if let fault = result.logFault { problems.append("the first bad event is sequence \(fault.sequence): \(fault.problem)") }
            problems += result.indexFaults
            throw CommandFailure(
                "the ledger at \(path) is damaged — " + problems.joined(separator: "; ")
                    + ". Restore it from a backup (`stride import` of an export, or a `stride backup` copy); do not append to it meanwhile.")
        }
    }

    /// `--against`: the ledger's log and the runner's copy, event by event.
    private func compare(with address: ReplicaAddress) throws {
        let opened = try ledger.openExisting()
        guard let runner = runner ?? RunnersFolder.runner(ofLedgerAt: opened.path)?.name else {
            throw ValidationError("name the runner whose copy to compare with: --runner NAME")
        }
        let comparison = try Waiting.on { try await ReplicaCopy.compare(opened, runner: runner, with: address, logger: ReplicaOptions.quietLogger) }
        if output.json {
            var members: [JSONValue.Member] = [
                .init("runner", .string(runner)), .init("agree", .bool(comparison.agree)),
                .init("ledgerEvents", .integer(Int64(comparison.ledgerLast))), .init("copyEvents", .integer(Int64(comparison.tableLast))),
            ]
            if let first = comparison.firstDifference { members.append(.init("firstDifference", .integer(Int64(first)))) }
            Console.print(JSONValue.object(members).text)
        }
        guard let first = comparison.firstDifference else {
            if !output.json {
                Console.print(
                    "Ledger \(opened.path) and \(runner)'s copy at \(address) agree: \(comparison.ledgerLast) events, the same bytes and hashes.")
            }
            return
        }
        throw CommandFailure(
            "ledger \(opened.path) (\(comparison.ledgerLast) events) and \(runner)'s copy at \(address) (\(comparison.tableLast) events) differ from sequence \(first)"
                + (first > min(comparison.ledgerLast, comparison.tableLast)
                    ? ": one holds events the other does not yet (a copy still catching up, or a server cut off)"
                    : ": the same sequence holds other events — restore from the side you trust (`stride ledger restore`)"))
    }
}
