import ArgumentParser
import Foundation
import StrideLedger

/// The options every command shares: which ledger to use.
struct LedgerOptions: ParsableArguments {
    @Option(name: .long, help: "The ledger directory (default: $STRIDE_LEDGER, else ./stride.ledger).")
    var ledger: String?

    /// The ledger's path: the option, else `STRIDE_LEDGER`, else `./stride.ledger`.
    var path: String {
        if let ledger, !ledger.isEmpty { return ledger }
        if let fromEnvironment = ProcessInfo.processInfo.environment["STRIDE_LEDGER"], !fromEnvironment.isEmpty {
            return fromEnvironment
        }
        return Ledger.defaultPath
    }

    /// Opens the ledger; a missing one is an error.
    func openExisting() throws -> Ledger {
        try Ledger.open(at: path)
    }

    /// Opens the ledger, creating it (in the machine's time zone) when missing: for commands
    /// that record something.
    func openCreating() throws -> Ledger {
        try Ledger.open(at: path, creatingWith: "")
    }
}

/// The `--json` flag of read commands.
struct OutputOptions: ParsableArguments {
    @Flag(name: .long, help: "Print one JSON document on standard output instead of a table.")
    var json = false
}
