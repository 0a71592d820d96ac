import ArgumentParser
import PointsBalance
import StrideContract
import StrideEvents
import StrideLedger

struct CheckInCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "checkin", abstract: "Check in for today: +1 point, once a day.")
    @OptionGroup var ledger: LedgerOptions
    @OptionGroup var time: ActionTime

    func run() throws {
        let (day, isNew) = try ledger.openCreating().checkIn(at: time.instant)
        Console.print(ActionReport.checkedIn(day: day, isNew: isNew).sentence)
    }
}

struct JournalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "journal", abstract: "Write in the journal: the day's first and fifth entries earn 3 points each.",
        subcommands: [Add.self, List.self])

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a journal entry.")
        @OptionGroup var ledger: LedgerOptions
        @OptionGroup var time: ActionTime
        @Argument(parsing: .remaining, help: "The entry's text.") var text: [String]

        func run() throws {
            let awards = try ledger.openCreating().addJournalEntry(text.joined(separator: " "), at: time.instant)
            Console.print(ActionReport.journalEntry(awards: awards).sentence)
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List journal entries.")
        @OptionGroup var ledger: LedgerOptions
        @OptionGroup var output: OutputOptions

        func run() throws {
            let document = try JournalDocument(ledger.openExisting())
            if output.json {
                Console.print(document)
            } else {
                let entries = document.entries
                Console.print(
                    entries.isEmpty ? "The journal is empty." : entries.map { "\(document.time.format($0.at))  \($0.text)" }.joined(separator: "\n"))
            }
        }
    }
}

struct PointsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "points", abstract: "The points balance, its history, and spending.",
        discussion: """
            Points are earned once per rule and local day: +10 on first use, +1 a daily check-in, +3 for \
            the day's first and fifth journal entries, +1/+2/+3 when the day's steps reach 1,000/5,000/10,000.
            """,
        subcommands: [Show.self, History.self, Spend.self], defaultSubcommand: Show.self)

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "The balance, earned and spent.")
        @OptionGroup var ledger: LedgerOptions
        @OptionGroup var output: OutputOptions

        func run() throws {
            let document = try PointsDocument(ledger.openExisting())
            if output.json {
                Console.print(document)
            } else {
                let account = document.statement.account
                Console.print("Balance \(account.balance) points (earned \(account.earned), spent \(account.spent)).")
            }
        }
    }

    struct History: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "history", abstract: "Every award and spend, with its sequence and rule.")
        @OptionGroup var ledger: LedgerOptions
        @OptionGroup var output: OutputOptions

        func run() throws {
            let document = try PointsDocument(ledger.openExisting())
            if output.json {
                Console.print(document)
            } else {
                let history = document.statement.history
                Console.print(history.isEmpty ? "No points yet." : PointsOutput.table(history, time: document.time))
            }
        }
    }

    struct Spend: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "spend",
            abstract: "Spend points (to reopen a missed day, say): only what the balance covers.")
        @OptionGroup var ledger: LedgerOptions
        @OptionGroup var time: ActionTime
        @Argument(help: "How many points.") var points: Int
        @Option(help: "What they are for.") var reason: String

        func validate() throws {
            guard points >= 1 else { throw ValidationError("spend 1 point or more") }
        }

        func run() throws {
            let balance = try ledger.openExisting().spend(points, reason: reason, at: time.instant)
            Console.print(ActionReport.spent(points, reason: reason, balance: balance).sentence)
        }
    }
}
