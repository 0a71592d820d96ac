import ArgumentParser
import ShoeMileage
import StrideContract
import StrideDashboard
import StrideEvents
import StrideLedger

struct MileageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mileage", abstract: "Kilometres per shoe, and the audit behind them.",
        subcommands: [Show.self, Explain.self], defaultSubcommand: Show.self)

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Kilometres, runs and distance to goal per shoe.",
            discussion: """
                A ledger has two times. --as-of TIME is a moment of the runner's life: what had happened \
                by then, as the ledger knows it now — each shoe's starting kilometres plus the runs on it \
                now that had started by then, however late they were ingested; shoes added (by their --at) \
                after it are left out, and retired or default is as it was then. --as-recorded SEQ|TIME is \
                what the ledger said then: the events recorded by that sequence or instant, replayed in \
                memory (the audit's view, as `stride replay --until`). A bare sequence number is always \
                "as recorded", so --as-of refuses one.
                """)
        @OptionGroup var ledger: LedgerOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "One shoe (its id or name); all when left out.") var shoe: String?
        @OptionGroup var travel: TimeTravelOptions

        func run() throws {
            let document = try ledger.read { opened in
                let recorded = try travel.asRecorded.flatMap(TimeTravel.init(parsing:))?.recordedSequence(in: opened)
                return try ShoesDocument(opened, shoe: shoe, asOf: travel.asOf.flatMap(ISO8601.parse), asRecordedThrough: recorded)
            }
            if output.json {
                Console.print(document)
            } else {
                let when = travel.asOf.map { " as of \($0)" } ?? travel.asRecorded.map { " as recorded by \($0)" } ?? ""
                Console.print(document.shoes.isEmpty ? "No shoes\(when)." : ShoeOutput.table(document.shoes))
            }
        }
    }

    struct Explain: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "explain",
            abstract: "Every event that moved a shoe's kilometres, in order, with the running total.",
            discussion: "The last running total always equals the shoe's kilometres.")
        @OptionGroup var ledger: LedgerOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "The shoe: its id or its name.") var shoe: String

        func run() throws {
            let document = try ledger.read { try ShoeAuditDocument($0, shoe: shoe) }
            if output.json {
                Console.print(document)
                return
            }
            let found = document.shoe.shoe
            let time = document.time
            Console.print("\(found.name): \(ShoeMileageProjection.format(found.kilometers)) km over \(found.runs.counted("run")).\n")
            var table = TextTable([
                .init(heading: "seq", isNumeric: true), .init(heading: "recorded"), .init(heading: "what"), .init(heading: "workout"),
                .init(heading: "km", isNumeric: true), .init(heading: "total", isNumeric: true), .init(heading: "detail"),
            ])
            for step in document.steps {
                let entry = step.entry
                table.add([
                    String(entry.sequence), time.format(entry.recordedAt), entry.kindName, entry.workout.map(Ledger.workoutID) ?? "",
                    String(format: "%+.2f", entry.kilometers), ShoeMileageProjection.format(step.runningTotal),
                    Format.via(entry.sentBy, after: entry.detail),
                ])
            }
            Console.print(table.text)
        }
    }
}

struct NotificationsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notifications", abstract: "The outbox: a note per new run and one when a shoe reaches its goal.")
    @OptionGroup var ledger: LedgerOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let document = try ledger.read { try NotificationsDocument($0) }
        if output.json {
            Console.print(document)
            return
        }
        let notes = document.notifications
        Console.print(notes.isEmpty ? "No notifications." : notes.map { "\(document.time.format($0.at))  \($0.text)" }.joined(separator: "\n"))
    }
}
