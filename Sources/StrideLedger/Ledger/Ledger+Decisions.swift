import StrideEvents
import StrideStore

/// What a command decided from the state it read: the events to append, the versions of the
/// entities it read (which must not have moved meanwhile), and what to tell the caller.
struct Decision<Value> {
    var events: [PendingEvent]
    var expecting: [VersionExpectation]
    var value: Value
}

extension Decision where Value == Void {
    init(events: [PendingEvent], expecting: [VersionExpectation]) {
        self.init(events: events, expecting: expecting, value: ())
    }
}

extension Ledger {
    /// How often a command decides again when another process changed what it read first:
    /// each retry reads the newer state, so only a steady stream of competing writes exhausts it.
    static let decisionAttempts = 8

    /// Runs `decide` against the state as it stands and appends what it decides, expecting the
    /// entities it read unchanged; when another writer moved one of them first, nothing is
    /// appended and `decide` runs again on the newer state. Two processes never both act on
    /// the same old state (two spends of the last points, two shoes of one name).
    /// - Parameter subject: what the command reads, for the error (`the rack`, `the points`).
    /// - Throws: what `decide` throws (a refusal: nothing appended), ``LedgerError/busy(_:)``
    ///   after ``decisionAttempts`` lost races, or a storage error.
    @discardableResult
    func decideAndAppend<Value>(about subject: String, _ decide: () throws -> Decision<Value>) throws -> Value {
        for _ in 0..<Self.decisionAttempts {
            let decision = try decide()
            do {
                try append(decision.events, expecting: decision.expecting)
                return decision.value
            } catch EventStoreError.versionConflict {
                continue
            }
        }
        throw LedgerError.busy(subject)
    }
}
