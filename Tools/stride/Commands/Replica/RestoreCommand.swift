import ArgumentParser
import Foundation
import StrideEvents
import StrideReplica

/// `stride ledger restore --from postgresql://… --runner NAME --ledger PATH`: a runner's ledger
/// made again from its copy in PostgreSQL.
struct RestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore", abstract: "Make a runner's ledger again from its copy in PostgreSQL (stride serve --replica).",
        discussion: """
            Writes a new ledger at --ledger with the same events, sequences and hashes as the copy, checking every \
            event's checksum and chain link as it goes, then folds the figures. The ledger is written beside PATH \
            and moved there only once whole; a restore cut short leaves nothing at PATH. Check it afterwards with \
            `stride ledger verify --against ADDRESS --runner NAME`.
            """)

    @OptionGroup var ledger: LedgerOptions

    @Option(
        name: .customLong("from"), help: "The PostgreSQL address, e.g. postgresql://stride@/stride?host=/run/postgresql (default: $STRIDE_REPLICA).")
    var address: String?

    @Option(help: "The runner whose log to restore, as the copy names them.")
    var runner: String

    func run() throws {
        guard let address = try ReplicaOptions.address(address) else {
            throw ValidationError("name the copy with --from postgresql://… (or set STRIDE_REPLICA)")
        }
        let (path, runner) = (ledger.path, runner)
        let interactive = Console.isInteractive
        let restored = try Waiting.on {
            try await ReplicaCopy.restore(runner, from: address, into: path, logger: ReplicaOptions.quietLogger) { done, all in
                if interactive { Console.note("restored \(done) of \(all) events…") }
            }
        }
        let seconds = restored.copySeconds + restored.rebuildSeconds
        Console.print(
            "Restored \(runner)'s ledger at \(path) from \(address): \(restored.events) events, chain checked, last hash \(restored.lastHash); "
                + String(
                    format: "%.1f s (%.0f events/s), figures folded in %.1f s.", seconds, Double(restored.events) / max(restored.copySeconds, 1e-9),
                    restored.rebuildSeconds))
    }
}
