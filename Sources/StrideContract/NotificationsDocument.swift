import ShoeMileage
import StrideEvents
import StrideLedger

/// `notifications --json`: the outbox, a note per new run and one when a shoe reaches its goal.
public struct NotificationsDocument: ContractDocument {
    /// The notes, oldest first.
    public var notifications: [ShoeMileage.Notification]
    /// Formats the times.
    public var time: LocalTime

    /// The outbox as it stands.
    /// - Throws: a storage failure.
    public init(_ ledger: Ledger) throws {
        notifications = try ledger.notifications()
        time = LocalTime(ledger)
    }

    public var json: JSONValue {
        .object([
            "notifications": .array(
                notifications.map { note in
                    .object([
                        "sequence": .integer(note.sequence), "at": .string(time.format(note.at)),
                        "kind": .string(note.kind == .newRun ? "newRun" : "goalReached"), "text": .string(note.text),
                        "workout": .string(note.workout.map(Ledger.workoutID)), "shoe": .string(note.shoe.map(ShoeID.text)),
                    ])
                })
        ])
    }
}
