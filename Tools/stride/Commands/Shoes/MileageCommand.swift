import ArgumentParser
import ShoeMileage
import StrideContract
import StrideEvents
import StrideLedger

struct MileageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mileage", abstract: "Kilometres per shoe, and the audit behind them.",
        subcommands: [Show.self, Explain.self], defaultSubcommand: Show.self)

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Kilometres, runs and distance to goal per shoe.")
        @OptionGroup var ledger: LedgerOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "One shoe (its id or name); all when left out.") var shoe: String?
        @Option(help: "As it stood at this instant (events that happened by then), e.g. 2024-05-01T08:00:00+02:00.") var asOf: String?

        func validate() throws {
            if let asOf, ISO8601.parse(asOf) == nil { throw ValidationError("--as-of \"\(asOf)\" is not an instant like 2024-05-01T08:00:00+02:00") }
        }

        func run() throws {
            let document = try ShoesDocument(ledger.openExisting(), shoe: shoe, asOf: asOf.flatMap(ISO8601.parse))
            if output.json {
                Console.print(document)
            } else {
                Console.print(document.shoes.isEmpty ? "No shoes\(asOf.map { " as of \($0)" } ?? "")." : ShoeOutput.table(document.shoes))
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
            let document = try ShoeAuditDocument(ledger.openExisting(), shoe: shoe)
            if output.json {
                Console.print(document)
                return
            }
            let found = document.shoe.shoe
            let time = document.time
            Console.print("\(found.name): \(ShoeMileageProjection.format(found.kilometers)) km over \(Format.plural(found.runs, "run")).\n")
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
        let document = try NotificationsDocument(ledger.openExisting())
        if output.json {
            Console.print(document)
            return
        }
        let notes = document.notifications
        Console.print(notes.isEmpty ? "No notifications." : notes.map { "\(document.time.format($0.at))  \($0.text)" }.joined(separator: "\n"))
    }
}
