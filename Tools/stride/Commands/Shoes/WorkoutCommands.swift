import ArgumentParser
import StrideContract
import StrideEvents
import StrideLedger

struct WorkoutsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "workouts", abstract: "List workouts, put runs on shoes, and say which are the same run.",
        subcommands: [
            WorkoutsListCommand.self, AssignCommand.self, UnassignCommand.self, ExcludeCommand.self, SameRunCommand.self,
            DifferentRunsCommand.self,
        ], defaultSubcommand: WorkoutsListCommand.self)
}

struct WorkoutsListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List workouts with their shoes.")
    @OptionGroup var ledger: LedgerOptions
    @OptionGroup var output: OutputOptions
    @Option(help: "The first day, yyyy-MM-dd.") var from: String?
    @Option(help: "The last day, yyyy-MM-dd.") var to: String?
    @Flag(help: "Only workouts on no shoe.") var unassigned = false

    func validate() throws {
        for (name, value) in [("--from", from), ("--to", to)] {
            if let value, CivilDate(value) == nil { throw ValidationError("\(name) \"\(value.shownInMessage)\" is not a date like 2024-05-01") }
        }
    }

    func run() throws {
        let (document, shoes) = try ledger.read { opened in
            (
                try WorkoutsDocument(
                    opened, from: from.flatMap(CivilDate.init), through: to.flatMap(CivilDate.init), unassignedOnly: unassigned),
                try opened.shoes()
            )
        }
        if output.json {
            Console.print(document)
        } else {
            Console.print(document.workouts.isEmpty ? "No workouts." : ShoeOutput.table(document.workouts, shoes: shoes, time: document.time))
        }
    }
}

struct AssignCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "assign", abstract: "Put a run on a shoe (moving it from another).")
    @OptionGroup var ledger: LedgerOptions
    @OptionGroup var time: ActionTime
    @Argument(help: "The workout: its id from `stride workouts`, or a unique prefix.") var workout: String
    @Argument(help: "The shoe: its id or its name.") var shoe: String

    func run() throws {
        try ledger.openExisting().assign(workout: workout, to: shoe, at: time.instant)
        Console.print(ActionReport.assigned(workout, to: shoe).sentence)
    }
}

struct UnassignCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unassign", abstract: "Take a workout off its shoe.")
    @OptionGroup var ledger: LedgerOptions
    @OptionGroup var time: ActionTime
    @Argument(help: "The workout: its id, or a unique prefix.") var workout: String

    func run() throws {
        try ledger.openExisting().unassign(workout: workout, at: time.instant)
        Console.print(ActionReport.unassigned(workout).sentence)
    }
}

struct ExcludeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "exclude", abstract: "Keep a run off every shoe but one you put it on: off the default shoe and an archive's.")
    @OptionGroup var ledger: LedgerOptions
    @OptionGroup var time: ActionTime
    @Argument(help: "The workout: its id, or a unique prefix.") var workout: String

    func run() throws {
        try ledger.openExisting().exclude(workout: workout, at: time.instant)
        Console.print(ActionReport.excluded(workout).sentence)
    }
}

struct SameRunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "same", abstract: "Say two workouts are one run, recorded twice: it is counted once.",
        discussion: """
            The run counts the distance of its preferred copy (a watch's FIT file, then Apple Health, then Health \
            Auto Export, then an app, then a GPX track). Stride finds most copies itself (same kind, overlapping \
            for 60 % of the shorter); this is for the ones it missed. It wins over the rule from then on.
            """)
    @OptionGroup var ledger: LedgerOptions
    @OptionGroup var time: ActionTime
    @Argument(help: "One workout: its id from `stride workouts`, or a unique prefix.") var workout: String
    @Argument(help: "The other workout.") var other: String

    func run() throws {
        try ledger.openExisting().decideSameRun(workout, other, isSameRun: true, at: time.instant)
        Console.print(ActionReport.sameRun(workout, other, isSameRun: true).sentence)
    }
}

struct DifferentRunsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "different", abstract: "Say two workouts are different runs: each is counted on its own.",
        discussion:
            "When Stride had taken them for one run, the later record becomes a run of its own, on no shoe. It wins over the rule from then on.")
    @OptionGroup var ledger: LedgerOptions
    @OptionGroup var time: ActionTime
    @Argument(help: "One workout: its id from `stride workouts`, or a unique prefix.") var workout: String
    @Argument(help: "The other workout.") var other: String

    func run() throws {
        try ledger.openExisting().decideSameRun(workout, other, isSameRun: false, at: time.instant)
        Console.print(ActionReport.sameRun(workout, other, isSameRun: false).sentence)
    }
}
