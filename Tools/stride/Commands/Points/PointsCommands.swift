import ArgumentParser
import PointsBalance
import StrideContract
import StrideEvents
import StrideLedger

struct CheckInCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "checkin", abstract: "Check in for today: +1 point, once a day.",
        discussion: """
            A check-in earns for today. Dated in the past with --at, it earns only for a day reopened by \
            spending points for it (`stride points spend N --reason TEXT --reopen DATE`), and never for a day \
            before the ledger's first.
            """)
    @OptionGroup var ledger: LedgerOptions
    @OptionGroup var time: ActionTime

    func run() throws {
        Console.print(ActionReport.checkedIn(try ledger.openExisting().checkIn(at: time.instant)).sentence)
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
            let outcome = try ledger.openExisting().addJournalEntry(text.joined(separator: " "), at: time.instant)
            Console.print(ActionReport.journalEntry(outcome).sentence)
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List journal entries.")
        @OptionGroup var ledger: LedgerOptions
        @OptionGroup var output: OutputOptions

        func run() throws {
            let document = try ledger.read { try JournalDocument($0) }
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

            Days that are open earn: a check-in or a journal entry earns for today; a past day only once \
            points were spent to reopen it (`stride points spend N --reason TEXT --reopen DATE`, the spend \
            names the day); a day before the ledger's first never. Step awards follow each day's steps.
            """,
        subcommands: [Show.self, History.self, Spend.self], defaultSubcommand: Show.self)

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "The balance, earned and spent.")
        @OptionGroup var ledger: LedgerOptions
        @OptionGroup var output: OutputOptions

        func run() throws {
            let document = try ledger.read { try PointsDocument($0) }
            if output.json {
                Console.print(document)
            } else {
                let account = document.statement.account
                Console.print("Balance \(account.balance) points (earned \(account.earned), spent \(account.spent)).")
            }
        }
    }

    struct History: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "history", abstract: "Every award and spend, with its sequence and rule; or a page of them.",
            discussion: "With --limit, the latest lines (before --before SEQ); the page ends by naming the --before of the page before it.")
        @OptionGroup var ledger: LedgerOptions
        @OptionGroup var output: OutputOptions
        @Option(help: "Show a page of at most this many lines, the latest (1 to 1000).") var limit: Int?
        @Option(help: "With --limit: the lines before this sequence.") var before: UInt64?

        func validate() throws {
            if let limit, !(1...1_000).contains(limit) { throw ValidationError("--limit must be from 1 to 1000") }
            if before != nil, limit == nil { throw ValidationError("--before goes with --limit: say how many lines a page holds") }
            if let before, before < 1 { throw ValidationError("--before must be 1 or more") }
        }

        func run() throws {
            let document = try ledger.read { opened in
                try limit.map { try PointsDocument(opened, limit: $0, before: before) } ?? PointsDocument(opened)
            }
            if output.json {
                Console.print(document)
            } else {
                let history = document.statement.history
                Console.print(history.isEmpty ? "No points yet." : PointsOutput.table(history, time: document.time))
                if let earlier = document.page?.earlier {
                    Console.print("Earlier lines: `stride points history --limit \(limit ?? 0) --before \(earlier)`.")
                }
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
        @Option(help: "A past day (yyyy-MM-dd) to reopen: a check-in or journal entry for it earns from then on.")
        var reopen: String?

        func validate() throws {
            guard points >= 1 else { throw ValidationError("spend 1 point or more") }
            if let reopen, CivilDate(reopen) == nil { throw ValidationError("--reopen \"\(reopen.shownInMessage)\" is not a date like 2024-05-01") }
        }

        func run() throws {
            let day = reopen.flatMap { CivilDate($0) }
            let balance = try ledger.openExisting().spend(points, reason: reason, reopening: day, at: time.instant)
            Console.print(ActionReport.spent(points, reason: reason, reopening: day, balance: balance).sentence)
        }
    }
}
