import ArgumentParser
import ShoeMileage
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
            let opened = try ledger.openExisting()
            try opened.catchUp()
            var shoes = try asOf.flatMap(ISO8601.parse).map { try opened.shoes(asOf: $0) } ?? opened.shoes()
            if let shoe {
                let wanted = try opened.shoe(named: shoe)
                shoes = shoes.filter { $0.shoe.id == wanted.id }
            }
            if output.json {
                Console.print(json: .object(["shoes": .array(shoes.map(ShoeOutput.json))]))
            } else {
                Console.print(shoes.isEmpty ? "No shoes\(asOf.map { " as of \($0)" } ?? "")." : ShoeOutput.table(shoes))
            }
        }
    }

    struct Explain: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "explain", 
            abstract: "Every event that moved a shoe's kilometres, in order, with the running total.",
            discussion: "The last running total always equals the shoe's kilometres.")
        @OptionGroup var ledger: LedgerOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "The shoe: its id or its name.") var shoe: String

        func run() throws {
            let opened = try ledger.openExisting()
            try opened.catchUp()
            let found = try opened.shoe(named: shoe)
            let entries = try opened.audit(of: found)
            let time = LocalTime(timeZone: opened.timeZone)
            var total = 0.0
            let lines = entries.map { entry -> (AuditEntry, Double) in
                total += entry.kilometers
                return (entry, total)
            }
            let view = ShoeView(shoe: found, isDefault: try opened.shoes().first { $0.shoe.id == found.id }?.isDefault ?? false)
            if output.json {
                Console.print(json: .object([
                    "shoe": ShoeOutput.json(view),
                    "entries": .array(lines.map { entry, running in
                        .object([
                            "sequence": .integer(entry.sequence), "recordedAt": .string(time.format(entry.recordedAt)),
                            "kind": .string(ShoeOutput.kind(entry)), "workout": .string(entry.workout.map(Ledger.workoutID)),
                            "kilometers": .number(entry.kilometers), "runningTotal": .number(running), "detail": .string(entry.detail),
                        ])
                    }),
                    "kilometers": .number(found.kilometers),
                ]))
                return
            }
            Console.print("\(found.name): \(ShoeMileageProjection.format(found.kilometers)) km over \(Format.plural(found.runs, "run")).\n")
            var table = TextTable([
                .init(heading: "seq", isNumeric: true), .init(heading: "recorded"), .init(heading: "what"), .init(heading: "workout"),
                .init(heading: "km", isNumeric: true), .init(heading: "total", isNumeric: true), .init(heading: "detail"),
            ])
            for (entry, running) in lines {
                table.add([
                    String(entry.sequence), time.format(entry.recordedAt), ShoeOutput.kind(entry), entry.workout.map(Ledger.workoutID) ?? "",
                    String(format: "%+.2f", entry.kilometers), ShoeMileageProjection.format(running), entry.detail,
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
        let opened = try ledger.openExisting()
        try opened.catchUp()
        let notes = try opened.notifications()
        let time = LocalTime(timeZone: opened.timeZone)
        if output.json {
            Console.print(json: .object(["notifications": .array(notes.map { note in
                .object([
                    "sequence": .integer(note.sequence), "at": .string(time.format(note.at)),
                    "kind": .string(note.kind == .newRun ? "newRun" : "goalReached"), "text": .string(note.text),
                    "workout": .string(note.workout.map(Ledger.workoutID)), "shoe": .string(note.shoe.map(ShoeID.text)),
                ])
            })]))
            return
        }
        Console.print(notes.isEmpty ? "No notifications." : notes.map { "\(time.format($0.at))  \($0.text)" }.joined(separator: "\n"))
    }
}
