import PointsBalance
import StrideEvents
import StrideLedger

/// `points --json` and `points history --json`: the balance, what was earned and spent, and
/// every award and spend with its sequence and rule.
public struct PointsDocument: ContractDocument {
    /// The balance and its history.
    public var statement: PointsStatement
    /// Formats the times.
    public var time: LocalTime

    /// The points as they stand.
    /// - Throws: a storage failure.
    public init(_ ledger: Ledger) throws {
        statement = try ledger.pointsStatement()
        time = LocalTime(ledger)
    }

    /// A page of the history, when the document is one (``init(_:limit:before:)``).
    public var page: (limit: Int, before: UInt64?, earlier: UInt64?)?

    /// The balance and one page of the history: the `limit` latest lines before sequence
    /// `before` (the latest when nil), oldest first. Its JSON adds `page`: the limit, the
    /// `before` asked, and `earlier`, the `before` of the page before it (null at the start).
    /// - Throws: a storage failure.
    public init(_ ledger: Ledger, limit: Int, before: UInt64?) throws {
        let paged = try ledger.pointsStatement(limit: limit, before: before)
        statement = paged.statement
        time = LocalTime(ledger)
        page = (limit, before, paged.earlier)
    }

    /// A document of a statement (a replay's, say).
    public init(statement: PointsStatement, time: LocalTime) {
        self.statement = statement
        self.time = time
    }

    public var json: JSONValue {
        let account = statement.account
        var members: [JSONValue.Member] = [
            .init("balance", .integer(account.balance)), .init("earned", .integer(account.earned)), .init("spent", .integer(account.spent)),
            .init(
                "history",
                .array(
                    statement.history.map { line in
                        var members: [JSONValue.Member] = [
                            .init("sequence", .integer(line.sequence)), .init("rule", .string(line.rule)), .init("points", .integer(line.points)),
                            .init("day", .string(line.day?.description)), .init("at", .string(time.format(line.at))),
                            .init("reason", .string(line.reason)), .init("kind", .string(line.kind.description)),
                        ]
                        // Only where a device sent the spend, or what earned the award: a history of
                        // actions on the machine prints as it always did.
                        if let sentBy = line.sentBy { members.append(.init("via", .string(sentBy))) }
                        return .object(members)
                    })),
        ]
        if let page {
            members.append(
                .init(
                    "page",
                    .object([
                        .init("limit", .integer(Int64(page.limit))), .init("before", page.before.map { .integer(Int64($0)) } ?? .null),
                        .init("earlier", page.earlier.map { .integer(Int64($0)) } ?? .null),
                    ])))
        }
        return .object(members)
    }
}

/// `journal list --json`: the journal entries, oldest first.
public struct JournalDocument: ContractDocument {
    /// The entries.
    public var entries: [JournalLine]
    /// Formats the times.
    public var time: LocalTime

    /// The journal as it stands.
    /// - Throws: a storage failure.
    public init(_ ledger: Ledger) throws {
        entries = try ledger.journal()
        time = LocalTime(ledger)
    }

    public var json: JSONValue {
        .object([
            "entries": .array(
                entries.map { entry in
                    .object([
                        "sequence": .integer(entry.sequence), "at": .string(time.format(entry.at)), "day": .string(entry.day.description),
                        "text": .string(entry.text),
                    ])
                })
        ])
    }
}
