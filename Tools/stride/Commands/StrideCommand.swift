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
            InitCommand.self, LogCommand.self, StatsCommand.self, VerifyCommand.self, ExportCommand.self,
            ImportCommand.self, BackupCommand.self, IngestCommand.self, SamplesCommand.self, DailyCommand.self, RebuildCommand.self,
            ReplayCommand.self, ShoesCommand.self, WorkoutsCommand.self, AssignCommand.self, UnassignCommand.self,
            ExcludeCommand.self, MileageCommand.self, NotificationsCommand.self, CheckInCommand.self, JournalCommand.self,
            PointsCommand.self, TokensCommand.self, ServeCommand.self, ReportCommand.self,
        ]
    )

    public init() {}
}
