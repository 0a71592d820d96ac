import ArgumentParser
import Foundation
import StrideEvents
import StrideLedger

/// The options every command shares: which ledger to use.
struct LedgerOptions: ParsableArguments {
    @Option(name: .long, help: "The ledger directory (default: $STRIDE_LEDGER, else ./stride.ledger).")
    var ledger: String?

    /// The top-level command, for a `--ledger` given before the command's name.
    @ParentCommand var root: StrideCommand

    /// The ledger's path: the option (after the command's name, else before it), else
    /// `STRIDE_LEDGER`, else `./stride.ledger`.
    var path: String {
        if let ledger, !ledger.isEmpty { return ledger }
        if let first = root.ledgerFirst.path, !first.isEmpty { return first }
        if let fromEnvironment = ProcessInfo.processInfo.environment["STRIDE_LEDGER"], !fromEnvironment.isEmpty {
            return fromEnvironment
        }
        return Ledger.defaultPath
    }

    /// Whether a ledger was named with `--ledger`, before or after the command's name (not
    /// by `STRIDE_LEDGER`).
    var isNamed: Bool { ledger != nil || root.ledgerFirst.path != nil }

    /// Opens the ledger; a missing one is an error, for reads and actions alike: only `stride
    /// init` creates a ledger, so that a mistyped `--ledger` (or an unset `STRIDE_LEDGER` in a
    /// cron job) never starts a second ledger with its own first-day points.
    func openExisting() throws -> Ledger {
        try Ledger.open(at: path, clock: Self.clock, upgrade: Self.upgradeObserver)
    }

    /// Opens the ledger and runs `body` reading it through one view (``Ledger/read(_:)``): what
    /// a command prints comes from one state of the ledger, however many reads it takes.
    func read<T>(_ body: (Ledger) throws -> T) throws -> T {
        let opened = try openExisting()
        return try opened.read { try body(opened) }
    }

    /// Shows the one-time upgrade of a ledger written by an earlier Stride: a progress bar on a
    /// terminal, then what it found, on standard error (standard output stays the command's).
    static var upgradeObserver: UpgradeObserver {
        let bar = ProgressBar(label: "Upgrading the ledger's identities", quiet: false)
        return UpgradeObserver(
            progress: { read, total in bar.update(done: read, of: total, unit: "events") },
            finished: { report in
                bar.finish()
                Console.note(UpgradeSummary.text(report))
            })
    }

    /// The system clock, or the instant in `STRIDE_FIXED_TIME` — a testing aid: the fault
    /// harness pins the clock so that a killed-and-resumed run and an uninterrupted one
    /// can be compared hash for hash.
    static var clock: any LedgerClock {
        if let text = ProcessInfo.processInfo.environment["STRIDE_FIXED_TIME"], let instant = ISO8601.parse(text) {
            return FixedClock(instant)
        }
        return SystemClock()
    }
}

/// The `--json` flag of read commands.
struct OutputOptions: ParsableArguments {
    @Flag(name: .long, help: "Print one JSON document on standard output instead of a table.")
    var json = false
}
