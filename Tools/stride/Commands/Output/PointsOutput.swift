import PointsBalance
import StrideEvents

/// The points account as the contract's JSON and as text.
enum PointsOutput {
    static func json(_ account: Account, history: [HistoryLine], time: LocalTime) -> JSONValue {
        .object([
            "balance": .integer(account.balance), "earned": .integer(account.earned), "spent": .integer(account.spent),
            "history": .array(history.map { line in
                .object([
                    "sequence": .integer(line.sequence), "rule": .string(line.rule), "points": .integer(line.points),
                    "day": .string(line.day?.description), "at": .string(time.format(line.at)), "reason": .string(line.reason),
                ])
            }),
        ])
    }

    static func table(_ history: [HistoryLine], time: LocalTime) -> String {
        var table = TextTable([
            .init(heading: "seq", isNumeric: true), .init(heading: "at"), .init(heading: "rule"), .init(heading: "day"),
            .init(heading: "points", isNumeric: true), .init(heading: "balance", isNumeric: true), .init(heading: "reason"),
        ])
        var balance = 0
        for line in history {
            balance += line.points
            table.add([
                String(line.sequence), time.format(line.at), line.rule, line.day?.description ?? "", String(format: "%+d", line.points),
                String(balance), line.reason ?? "",
            ])
        }
        return table.text
    }
}
