import ShoeMileage
import StrideEvents
import StrideLedger

/// `mileage explain SHOE --json`: every event that moved a shoe's kilometres, with the running
/// total; the last total equals the shoe's kilometres.
public struct ShoeAuditDocument: ContractDocument {
    /// One step of the audit and the total after it.
    public struct Step: Sendable {
        /// The event that moved the figure.
        public var entry: AuditEntry
        /// The kilometres after it.
        public var runningTotal: Double

        /// A step.
        public init(entry: AuditEntry, runningTotal: Double) {
            self.entry = entry
            self.runningTotal = runningTotal
        }
    }

    /// The shoe.
    public var shoe: ShoeView
    /// The steps, in order.
    public var steps: [Step]
    /// Formats the times.
    public var time: LocalTime

    /// The audit of a shoe (its id or name).
    /// - Throws: ``ShoeError/unknownShoe(_:known:)``, or a storage failure.
    public init(_ ledger: Ledger, shoe text: String) throws {
        let found = try ledger.shoe(named: text)
        shoe = try ledger.shoes().first { $0.shoe.id == found.id } ?? ShoeView(shoe: found, isDefault: false)
        var total = 0.0
        steps = try ledger.audit(of: found).map { entry in
            total += entry.kilometers
            return Step(entry: entry, runningTotal: total)
        }
        time = LocalTime(ledger)
    }

    public var json: JSONValue {
        .object([
            "shoe": ShoesDocument.json(shoe),
            "entries": .array(
                steps.map { step in
                    let entry = step.entry
                    var members: [JSONValue.Member] = [
                        .init("sequence", .integer(entry.sequence)), .init("recordedAt", .string(time.format(entry.recordedAt))),
                        .init("kind", .string(entry.kindName)), .init("workout", .string(entry.workout.map(Ledger.workoutID))),
                        .init("kilometers", .number(entry.kilometers)), .init("runningTotal", .number(step.runningTotal)),
                        .init("detail", .string(entry.detail)),
                    ]
                    // Only where a device sent the event: an audit of actions on the machine
                    // prints as it always did.
                    if let sentBy = entry.sentBy { members.append(.init("via", .string(sentBy))) }
                    return .object(members)
                }),
            "kilometers": .number(shoe.shoe.kilometers),
        ])
    }
}

extension AuditEntry {
    /// What the step was, as the audit names it: `registered`, `assigned (auto)`, …
    public var kindName: String {
        switch kind {
        case .registered: "registered"
        case .assigned: "assigned (\(origin?.description ?? "manual"))"
        case .unassigned: "unassigned"
        case .movedToAnotherShoe: "moved to another shoe"
        case .distanceReplaced: "distance replaced"
        case .copyNoted: "copy noted"
        case .countedAsCopy: "counted as a copy"
        }
    }
}
