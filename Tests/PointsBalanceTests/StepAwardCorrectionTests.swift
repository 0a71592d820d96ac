import StrideEvents
import StrideProjection
import Testing

@testable import PointsBalance

/// Awards follow the day's figure: hand-computed cases, edge cases first.
@Suite("Step awards brought in line with a day's steps")
struct StepAwardCorrectionTests {
    @Test(
        "tiers newly reached are awarded, tiers no longer reached are reversed, the others stand",
        arguments: [
            // A day whose steps disappear entirely (every sample withdrawn): all its tiers go.
            (nil as Double?, [PointRule.steps1000, .steps5000], [PointRule](), [PointRule.steps1000, .steps5000]),
            // Exactly on a tier: reached.
            (5000, [], [.steps1000, .steps5000], []),
            // Just below it, after a doubled day is counted once: 9,999.9 of 10,000.
            (9999.9, [.steps1000, .steps5000, .steps10000], [], [.steps10000]),
            // 51,000 → 3,000 (a bogus sample withdrawn).
            (3000, [.steps1000, .steps5000, .steps10000], [], [.steps5000, .steps10000]),
            // 3,000 → 51,000 (restored): the difference is awarded.
            (51_000, [.steps1000], [.steps5000, .steps10000], []),
            // A late sample lifts a day from 4,000 to 6,000.
            (6000, [.steps1000], [.steps5000], []),
            // Nothing standing and nothing reached.
            (999, [], [], []),
        ] as [(Double?, [PointRule], [PointRule], [PointRule])])
    func changes(steps: Double?, standing: [PointRule], award: [PointRule], reverse: [PointRule]) {
        let decided = StepAwardCorrection.changes(steps: steps, standing: Set(standing))
        #expect(decided.award == award)
        #expect(decided.reverse == reverse)
    }

    @Test(
        "a reversal takes back what the balance holds, at most the award; the balance never goes below zero",
        arguments: [(3, 10, 3), (3, 3, 3), (3, 2, 2), (3, 0, 0), (2, 1, 1), (1, -4, 0)])
    func takenBack(points: Int, balance: Int, expected: Int) {
        #expect(StepAwardCorrection.takenBack(points: points, balance: balance) == expected)
        #expect(balance - StepAwardCorrection.takenBack(points: points, balance: balance) >= min(balance, 0))
    }

    @Test("an award stands while given more often than reversed; each generation has keys of its own")
    func generations() {
        var state = StepAwardState()
        #expect(!state.stands)
        state.awards = 1
        #expect(state.stands)
        state.reversals = 1
        #expect(!state.stands)
        let day = CivilDate(year: 2024, month: 5, day: 5)
        #expect(PointsAwarded.key(.steps5000, day: day, generation: 0) == PointsAwarded.key(.steps5000, day: day))
        #expect(PointsAwarded.key(.steps5000, day: day, generation: 1) != PointsAwarded.key(.steps5000, day: day))
        #expect(PointsReversed.key(.steps5000, day: day, generation: 0) != PointsReversed.key(.steps5000, day: day, generation: 1))
    }

    @Test("the projection folds a reversal: the balance and what was earned drop by what was taken back, the history shows why")
    func fold() throws {
        let projection = PointsBalanceProjection()
        var rows = ProjectionRows<PointsKey, PointsRow>()
        let day = CivilDate(year: 2024, month: 5, day: 5)
        func event(_ sequence: UInt64, _ content: LedgerEvent) -> ProjectionEvent {
            ProjectionEvent(
                sequence: sequence, recordedAt: Timestamp(secondsSince1970: 0), occurredAt: Timestamp(secondsSince1970: 0), entity: .points,
                content: .event(content))
        }
        projection.apply(event(1, .pointsAwarded(PointsAwarded(rule: .steps5000, points: 2, day: day))), to: &rows)
        projection.apply(event(2, .pointsSpent(PointsSpent(points: 1, reason: "socks"))), to: &rows)
        projection.apply(
            event(3, .pointsReversed(PointsReversed(rule: .steps5000, day: day, points: 2, takenBack: 1, reason: "its steps are now 3,000"))),
            to: &rows)
        guard case .account(let account)? = rows.row(.account) else { Issue.record("no account"); return }
        #expect(account.balance == 0)
        #expect(account.earned == 1)
        #expect(account.spent == 1)
        guard case .history(let line)? = rows.row(.history(sequence: 3)) else { Issue.record("no history line"); return }
        #expect(line.kind == .reversal)
        #expect(line.points == -1)
        #expect(line.reason == "its steps are now 3,000")
        guard case .stepAward(let state)? = rows.row(.stepAward(day, .steps5000)) else { Issue.record("no step award state"); return }
        #expect(state == StepAwardState(awards: 1, reversals: 1))
    }
}
