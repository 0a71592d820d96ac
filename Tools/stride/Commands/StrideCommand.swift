import ArgumentParser
import StrideLedger

/// `stride`: the command line over a runner's ledger.
public struct StrideCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "stride",
        abstract: "An event-sourced ledger for a runner's health data.",
        discussion: """
            Every change is an event appended to a log in LMDB; everything shown is derived from \
            the log. The ledger is ./stride.ledger unless --ledger PATH or STRIDE_LEDGER names another.
            """,
        version: "stride " + StrideVersion.summary,
        subcommands: [
            // As a runner uses it: set up, feed, look, act, serve.
            InitCommand.self, IngestCommand.self, DailyCommand.self, SamplesCommand.self, ShoesCommand.self, WorkoutsCommand.self,
            MileageCommand.self, TrainingCommand.self, AthleteCommand.self, TravelCommand.self, NotificationsCommand.self, CheckInCommand.self,
            JournalCommand.self,
            PointsCommand.self,
            TokensCommand.self, ServeCommand.self, RunnersCommand.self, ReportCommand.self, LedgerCommand.self,
            // The spellings before the commands were grouped, kept for scripts; not listed.
            HiddenAlias<LogCommand>.self, HiddenAlias<StatsCommand>.self, HiddenAlias<VerifyCommand>.self,
            HiddenAlias<ExportCommand>.self, HiddenAlias<ImportCommand>.self, HiddenAlias<BackupCommand>.self,
            HiddenAlias<RebuildCommand>.self, HiddenAlias<ReplayCommand>.self, HiddenAlias<AssignCommand>.self,
            HiddenAlias<UnassignCommand>.self, HiddenAlias<ExcludeCommand>.self,
        ]
    )

    /// `--ledger PATH` before the command's name (`stride --ledger PATH daily`), the
    /// documented form; each command also takes it after its name.
    @OptionGroup var ledgerFirst: LedgerBeforeCommand

    public init() {}
}

/// `--ledger` as the top-level command takes it, before a command's name.
struct LedgerBeforeCommand: ParsableArguments {
    @Option(name: .customLong("ledger"), help: "The ledger directory (default: $STRIDE_LEDGER, else ./stride.ledger).")
    var path: String?
}
