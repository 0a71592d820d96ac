import DailyHealth
import Foundation
import PointsBalance
import StrideEvents
import StrideProjection

/// What bringing a set of days' step awards in line with their steps did.
public struct StepAwardChanges: Hashable, Sendable {
    /// Tiers newly reached, awarded.
    public var awarded: [PointsAwarded] = []
    /// Tiers no longer reached, reversed.
    public var reversed: [PointsReversed] = []

    /// No change.
    public init() {}

    /// Whether nothing changed.
    public var isEmpty: Bool { awarded.isEmpty && reversed.isEmpty }

    /// The points the changes moved the balance by.
    public var points: Int { awarded.reduce(0) { $0 + $1.points } - reversed.reduce(0) { $0 + $1.takenBack } }
}

extension Ledger {
    /// Brings the step awards of `days` in line with their merged step counts: a tier a day
    /// now reaches and has no standing award for is awarded; a tier whose award stands and the
    /// day no longer reaches is reversed, saying why (`cause`: what changed the day), taking
    /// back what the balance holds of its points (``StepAwardCorrection``). Decided against the
    /// account as it stands, again when another writer changes it first.
    /// - Parameters:
    ///   - cause: what changed the days, as a runner reads it (`a repeat counted once`); nil
    ///     after an ingest.
    ///   - sentBy: the device that sent what changed them through the server, if one did.
    /// - Throws: a storage failure, or ``LedgerError/busy(_:)``.
    @discardableResult
    func reconcileStepAwards(for days: Set<CivilDate>, cause: String? = nil, sentBy: String? = nil) throws -> StepAwardChanges {
        guard !days.isEmpty else { return StepAwardChanges() }
        let totals = try stepTotals(of: days)
        let now = clock.now()
        return try decideAndAppend(about: "the points") {
            let version = try store.version(of: .points)
            let account = try state(of: points)
            var balance = try account.account().balance
            let standing = try account.stepAwards(on: totals.map(\.day))
            var events: [PendingEvent] = []
            var changes = StepAwardChanges()
            for (day, steps) in totals {
                let states = standing[day] ?? [:]
                let (award, reverse) = StepAwardCorrection.changes(
                    steps: steps, standing: Set(states.filter { $0.value.stands }.keys))
                for rule in award {
                    events.append(PointAwardPolicy.award(rule, day: day, at: now, sentBy: sentBy, generation: states[rule]?.awards ?? 0))
                    changes.awarded.append(PointsAwarded(rule: rule, points: rule.points, day: day, sentBy: sentBy))
                    balance += rule.points
                }
                for rule in reverse {
                    let takenBack = StepAwardCorrection.takenBack(points: rule.points, balance: balance)
                    balance -= takenBack
                    let reversal = PointsReversed(
                        rule: rule, day: day, points: rule.points, takenBack: takenBack,
                        reason: Self.reversalReason(steps: steps, cause: cause, notTakenBack: rule.points - takenBack), sentBy: sentBy)
                    events.append(
                        PendingEvent(
                            .pointsReversed(reversal), occurredAt: now, entity: .points,
                            idempotencyKey: PointsReversed.key(rule, day: day, generation: states[rule]?.reversals ?? 0)))
                    changes.reversed.append(reversal)
                }
            }
            return Decision(events: events, expecting: [VersionExpectation(.points, version: version)], value: changes)
        }
    }

    /// Why a step award is reversed, as the history shows it.
    static func reversalReason(steps: Double?, cause: String?, notTakenBack: Int) -> String {
        var reason = steps.map { "its steps are now \(Int($0.rounded()).groupedDigits)" } ?? "it has no steps now"
        if let cause { reason += " (\(cause))" }
        if notTakenBack > 0 { reason += "; \(notTakenBack) already spent, not taken back" }
        return reason
    }

    /// Each day's merged step count (nil for a day without steps), in date order.
    ///
    /// Two months of records at a time, their halves totalled at once (an ingest waits for
    /// these last), letting go of the pages read in between: years of history do not pile up
    /// in memory; a window starts at the next day asked for, so days centuries apart cost no
    /// windows in between.
    func stepTotals(of days: Set<CivilDate>) throws -> [(day: CivilDate, steps: Double?)] {
        let ordered = days.sorted()
        guard var first = ordered.first, let last = ordered.last else { return [] }
        var next = 0
        let daily = try dailyState()
        var totals: [(day: CivilDate, steps: Double?)] = []
        while first <= last {
            let windowEnd = min(first.adding(days: 61), last)
            let half = first.adding(days: Int(windowEnd.daysSince1970 - first.daysSince1970) / 2)
            var halves = [(first: first, last: half)]
            if half < windowEnd { halves.append((half.adding(days: 1), windowEnd)) }
            let parts = try halves.concurrentMap { part in try daily.stepTotals(from: part.first, through: part.last) }
            totals += parts.joined().filter { days.contains($0.day) }
            store.releaseMappedPages()
            while next < ordered.count, ordered[next] <= windowEnd { next += 1 }
            guard next < ordered.count else { break }
            first = ordered[next]
        }
        // A day asked for with no step rows at all has no steps: an award for it is reversed.
        let found = Set(totals.map(\.day))
        totals += days.subtracting(found).map { ($0, nil) }
        return totals.sorted { $0.day < $1.day }
    }
}
