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
        time = LocalTime(timeZone: ledger.timeZone)
    }

    /// A document of a statement (a replay's, say).
    public init(statement: PointsStatement, time: LocalTime) {
        self.statement = statement
        self.time = time
    }

    public var json: JSONValue {
        let account = statement.account
        return .object([
            "balance": .integer(account.balance), "earned": .integer(account.earned), "spent": .integer(account.spent),
            "history": .array(
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
                }),
        ])
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
        time = LocalTime(timeZone: ledger.timeZone)
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
