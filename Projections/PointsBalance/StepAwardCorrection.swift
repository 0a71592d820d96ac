import StrideEvents

/// Step awards follow the day's figure: when a day's steps change after its awards were
/// decided, the tiers it now reaches and no longer reaches are brought in line — a tier newly
/// reached is awarded, a tier no longer reached is reversed. Pure.
public enum StepAwardCorrection {
    /// What to award and what to reverse for a day whose merged steps are now `steps`, given
    /// the step tiers whose awards stand for it.
    public static func changes(steps: Double?, standing: Set<PointRule>) -> (award: [PointRule], reverse: [PointRule]) {
        let reached = Set(PointAwardPolicy.stepRules(steps: steps))
        let tiers = PointRule.stepTiers.map(\.rule)
        return (tiers.filter { reached.contains($0) && !standing.contains($0) }, tiers.filter { standing.contains($0) && !reached.contains($0) })
    }

    /// The points a reversal of `points` takes back from a balance of `balance`: all of them
    /// when the balance holds them, else what it holds — the balance never goes below zero,
    /// and points already spent are not taken back (the reversal says how many were not).
    public static func takenBack(points: Int, balance: Int) -> Int {
        max(0, min(points, balance))
    }
}

/// How many times a rule's award for a day was given and reversed: it stands while it was
/// given more often than reversed. The counts also number the next award's and reversal's
/// idempotency keys.
public struct StepAwardState: Hashable, Sendable {
    /// Awards appended.
    public var awards = 0
    /// Reversals appended.
    public var reversals = 0

    /// A state with these counts (none by default: no award yet).
    public init(awards: Int = 0, reversals: Int = 0) {
        self.awards = awards
        self.reversals = reversals
    }

    /// Whether the award stands.
    public var stands: Bool { awards > reversals }
}
