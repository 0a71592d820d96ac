import ArgumentParser
import StrideLedger

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Write every event to a file as NDJSON (the README documents the format).")

    @OptionGroup var ledger: LedgerOptions

    @Argument(help: "The file to write; it must not exist yet.")
    var file: String

    func run() throws {
        let count = try ledger.openExisting().export(to: file)
        Console.print("Exported \(count) events to \(file).")
    }
}

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Restore events from a file written by `stride export`.",
        discussion: """
            The whole file is checked first (every line, checksum and chain link); nothing is imported \
            from a damaged file. The ledger must be new, or hold the file's first events (an interrupted \
            import then completes).
            """)

    @OptionGroup var ledger: LedgerOptions

    @Argument(help: "The NDJSON file to import.")
    var file: String

    func run() throws {
        let summary = try LedgerImport.run(file: file, into: ledger.path)
        try ledger.openExisting().catchUp()
        Console.print(
            "Imported \(summary.imported) events from \(file) (\(summary.alreadyPresent) already in the ledger, \(summary.eventsInFile) in the file)."
        )
    }
}

struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup", abstract: "Write a compact copy of the ledger into a new directory.")

    @OptionGroup var ledger: LedgerOptions

    @Argument(help: "The directory to create; it must not exist yet, or be empty.")
    var directory: String

    func run() throws {
        let opened = try ledger.openExisting()
        try opened.backup(to: directory)
        Console.print("Backed up \(try opened.lastSequence()) events to \(directory); open it with --ledger \(directory).")
    }
}
