import ArgumentParser
import StrideContract
import StrideEvents
import StrideLedger

struct WorkoutsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "workouts", abstract: "List workouts with their shoes.")
    @OptionGroup var ledger: LedgerOptions
    @OptionGroup var output: OutputOptions
    @Option(help: "The first day, yyyy-MM-dd.") var from: String?
    @Option(help: "The last day, yyyy-MM-dd.") var to: String?
    @Flag(help: "Only workouts on no shoe.") var unassigned = false

    func validate() throws {
        for (name, value) in [("--from", from), ("--to", to)] {
            if let value, CivilDate(value) == nil { throw ValidationError("\(name) \"\(value)\" is not a date like 2024-05-01") }
        }
    }

    func run() throws {
        let opened = try ledger.openExisting()
        let document = try WorkoutsDocument(
            opened, from: from.flatMap(CivilDate.init), through: to.flatMap(CivilDate.init), unassignedOnly: unassigned)
        if output.json {
            Console.print(document)
        } else {
            Console.print(
                document.workouts.isEmpty ? "No workouts." : ShoeOutput.table(document.workouts, shoes: try opened.shoes(), time: document.time))
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
    static let configuration = CommandConfiguration(commandName: "exclude", abstract: "Keep a workout from ever being assigned automatically.")
    @OptionGroup var ledger: LedgerOptions
    @OptionGroup var time: ActionTime
    @Argument(help: "The workout: its id, or a unique prefix.") var workout: String

    func run() throws {
        try ledger.openExisting().exclude(workout: workout, at: time.instant)
        Console.print(ActionReport.excluded(workout).sentence)
    }
}
