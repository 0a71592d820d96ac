import PointsBalance
import StrideContract
import StrideEvents

/// The points history as a readable table.
enum PointsOutput {
    static func table(_ history: [HistoryLine], time: LocalTime) -> String {
        var table = TextTable([
            .init(heading: "seq", isNumeric: true), .init(heading: "at"), .init(heading: "rule"), .init(heading: "day"),
            .init(heading: "points", isNumeric: true), .init(heading: "balance", isNumeric: true), .init(heading: "reason"),
        ])
        var balance = 0
        for line in history {
            balance += line.points
            table.add([
                String(line.sequence), time.format(line.at), line.kind == .reversal ? line.rule + " reversed" : line.rule,
                line.day?.description ?? "", String(format: "%+d", line.points),
                String(balance), Format.via(line.sentBy, after: line.reason ?? ""),
            ])
        }
        return table.text
    }
}
