import ArgumentParser
import StrideContract
import StrideEvents
import StrideLedger

struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay", abstract: "Compute every projection as of an earlier point, in memory, changing nothing.",
        discussion: """
            --until takes a sequence number, or an ISO 8601 instant: the events the ledger had recorded by then, \
            what the ledger said then ("as recorded", as --as-recorded elsewhere). For what had happened by a \
            moment of the runner's life, as the ledger knows it now, use --as-of (`stride mileage --as-of`, \
            `stride report --as-of`).
            """)

    @OptionGroup var ledger: LedgerOptions
    @OptionGroup var output: OutputOptions

    @Option(help: "A sequence number, or an instant such as 2024-05-01T08:00:00+02:00.")
    var until: String

    func validate() throws {
        guard UInt64(until) != nil || ISO8601.parse(until) != nil else {
            throw ValidationError("--until \"\(until.shownInMessage)\" is neither a sequence number nor an instant like 2024-05-01T08:00:00+02:00")
        }
    }

    func run() throws {
        let document = try ledger.read { opened in
            try UInt64(until).map { try ReplayDocument(opened, through: $0) }
                ?? ReplayDocument(opened, recordedBy: ISO8601.parse(until) ?? Timestamp(millisecondsSince1970: 0))
        }
        if output.json {
            Console.print(document)
            return
        }
        let replay = document.replay
        let account = replay.points.account
        Console.print("As of sequence \(replay.sequence) (nothing stored was changed):\n")
        Console.print(replay.days.isEmpty ? "No daily records yet." : DailyOutput.table(replay.days))
        if !replay.shoes.isEmpty { Console.print("\n" + ShoeOutput.table(replay.shoes)) }
        Console.print("\nBalance \(account.balance) points (earned \(account.earned), spent \(account.spent)).")
    }
}
