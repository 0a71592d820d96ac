import ArgumentParser

/// `stride ledger`: looking after the ledger itself — its events, its integrity, copies of it,
/// and its projections recomputed or replayed.
struct LedgerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ledger", abstract: "The ledger itself: its events, checks, copies, rebuilds and replays.",
        discussion: "Each of these also answers at the top level, as `stride verify`, `stride log`… (the spellings before they were grouped).",
        subcommands: [
            LogCommand.self, StatsCommand.self, VerifyCommand.self, ExportCommand.self, ImportCommand.self, BackupCommand.self,
            RestoreCommand.self, RebuildCommand.self, ReplayCommand.self,
        ])
}

/// A command under its earlier spelling at the top level (`stride verify` for `stride ledger
/// verify`, `stride assign` for `stride workouts assign`): the same command, not listed in
/// `stride --help`.
struct HiddenAlias<Command: ParsableCommand>: ParsableCommand {
    static var configuration: CommandConfiguration {
        var configuration = Command.configuration
        configuration.shouldDisplay = false
        return configuration
    }

    @OptionGroup var command: Command

    mutating func run() throws {
        try command.run()
    }
}
