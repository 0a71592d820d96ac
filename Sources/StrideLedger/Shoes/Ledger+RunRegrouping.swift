import ShoeMileage
import StrideEvents
import StrideProjection
import StrideStore

extension Ledger {
    /// The meta number naming the same-run rule the ledger's runs are grouped by.
    static let sameRunRuleKey = "sameRunRule"
    /// The rule of this Stride: runs grouped as a function of the set of workouts (2); an
    /// earlier Stride paired each arriving workout with one earlier copy (1).
    static let sameRunRule: UInt64 = 2

    /// Groups the runs of a ledger an earlier Stride grouped pair by pair, as arrivals came —
    /// two activities of one archive could be joined, or a two-day workout swallow the runs
    /// inside it — by today's rule, once: a `workout.runsGrouped` event states every run that
    /// changes, so the figures and the audit say when and why. The runs' shoes follow from what
    /// was said of each copy; no run is put on the default shoe by this (history is never swept
    /// onto today's shoe). Running it twice changes nothing.
    /// - Returns: the runs it changed, or nil when the ledger's runs were already grouped so.
    /// - Throws: a storage failure.
    @discardableResult
    func regroupRunsIfNeeded() throws -> Int? {
        guard try (store.metaNumber(Self.sameRunRuleKey) ?? 0) < Self.sameRunRule else { return nil }
        try catchUp()
        let events = try read { () -> [PendingEvent] in
            let state = MileageReader(state: try state(of: mileage))
            let ids = try state.state.workouts().map(\.id)
            guard let first = ids.first else { return [] }
            return try ArrivingWorkouts.regrouping(
                ids, cause: EntityReference(.workout, id: first), at: clock.now(), assigning: false, state: state, mileage: mileage)
        }
        if !events.isEmpty { try append(events) }
        try store.setMetaNumber(Self.sameRunRuleKey, Self.sameRunRule)
        return events.reduce(0) { count, event in
            if case .event(.runsGrouped(let grouped)) = event.body { return count + grouped.groups.count }
            return count
        }
    }
}

/// The mileage projection's stored state, read as a reaction reads the state in an append.
struct MileageReader: ProjectionStateReader {
    let state: ProjectionState<ShoeMileageProjection>

    func row<P: Projection>(_ key: P.Key, of projection: P) throws -> P.Row? {
        guard let key = key as? MileageKey else { return nil }
        return try state.row(key) as? P.Row
    }

    func rows<P: Projection>(from lower: P.Key, before upper: P.Key, of projection: P) throws -> [(key: P.Key, row: P.Row)] {
        guard let lower = lower as? MileageKey, let upper = upper as? MileageKey else { return [] }
        return try state.rows(from: lower, before: upper).compactMap { pair in
            guard let key = pair.key as? P.Key, let row = pair.row as? P.Row else { return nil }
            return (key, row)
        }
    }
}
