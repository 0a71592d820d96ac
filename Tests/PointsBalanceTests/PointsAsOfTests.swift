import StrideEvents
import Testing

@testable import PointsBalance

/// The points statement as of a moment of the runner's life, worked out by hand: awards by
/// the day they are for, spends by when they were made.
@Suite("Points as of a moment of the runner's life")
struct PointsAsOfTests {
    static func day(_ text: String) -> CivilDate { CivilDate(text) ?? CivilDate(daysSince1970: 0) }
    static func at(_ text: String) -> Timestamp { ISO8601.parse(text) ?? Timestamp(secondsSince1970: 0) }

    static let statement = PointsStatement(
        account: Account(),
        history: [
            HistoryLine(sequence: 1, rule: "firstUse", points: 10, day: day("2024-05-01"), at: at("2024-05-01T08:00:00Z"), reason: nil),
            // Recorded late (an ingest of the 3rd on the 10th), but for the 3rd.
            HistoryLine(sequence: 2, rule: "steps5000", points: 2, day: day("2024-05-03"), at: at("2024-05-10T08:00:00Z"), reason: nil),
            HistoryLine(
                sequence: 3, rule: "spend", points: -4, day: day("2024-05-02"), at: at("2024-05-04T08:00:00Z"), reason: "missed it",
                kind: .spend),
            HistoryLine(
                sequence: 4, rule: "steps5000", points: -2, day: day("2024-05-03"), at: at("2024-05-11T08:00:00Z"), reason: "a repeat",
                kind: .reversal),
            HistoryLine(sequence: 5, rule: "checkIn", points: 1, day: day("2024-05-05"), at: at("2024-05-05T08:00:00Z"), reason: nil),
        ])

    @Test(
        "which lines count, and the account summed again",
        arguments: [
            ("before anything", "2024-04-30", "2024-04-30T23:59:59Z", [UInt64](), 0, 0, 0),
            ("the first day", "2024-05-01", "2024-05-01T23:59:59Z", [1], 10, 10, 0),
            ("a late award counts for its day", "2024-05-03", "2024-05-03T12:00:00Z", [1, 2, 4], 10, 10, 0),
            ("a spend counts from when it was made", "2024-05-04", "2024-05-04T08:00:00Z", [1, 2, 3, 4], 6, 10, 4),
            ("everything", "2024-05-05", "2024-05-05T23:00:00Z", [1, 2, 3, 4, 5], 7, 11, 4),
        ] as [(String, String, String, [UInt64], Int, Int, Int)])
    func asOf(_ name: String, _ day: String, _ instant: String, _ lines: [UInt64], _ balance: Int, _ earned: Int, _ spent: Int) {
        let then = Self.statement.asOf(day: Self.day(day), instant: Self.at(instant))
        #expect(then.history.map(\.sequence) == lines, "\(name)")
        #expect(then.account.balance == balance, "\(name)")
        #expect(then.account.earned == earned, "\(name)")
        #expect(then.account.spent == spent, "\(name)")
    }
}
