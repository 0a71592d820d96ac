import ShoeMileage
import StrideEvents
import StrideLedger

/// `workouts --json`: workouts by start, with their shoes.
public struct WorkoutsDocument: ContractDocument {
    /// The workouts, by start.
    public var workouts: [Workout]
    /// Formats the times.
    public var time: LocalTime

    /// The workouts of the local days from `first` through `last` (open ends when nil),
    /// only those on no shoe when `unassignedOnly`.
    /// - Throws: a storage failure.
    public init(_ ledger: Ledger, from first: CivilDate? = nil, through last: CivilDate? = nil, unassignedOnly: Bool = false) throws {
        workouts = try ledger.workouts(from: first, through: last, unassignedOnly: unassignedOnly)
        time = LocalTime(timeZone: ledger.timeZone)
    }

    public var json: JSONValue {
        .object(["workouts": .array(workouts.map(json))])
    }

    private func json(_ workout: Workout) -> JSONValue {
        .object([
            "id": .string(Ledger.workoutID(workout.id)), "activity": .string(workout.activity),
            "start": .string(time.format(workout.start)), "end": .string(time.format(workout.end)),
            "distanceMeters": .number(workout.distanceMeters), "shoe": .string(workout.shoe.map(ShoeID.text)),
            "assignedBy": .string(workout.origin?.description), "isExcluded": .bool(workout.isExcluded),
            "source": .string(workout.sourceName),
        ])
    }
}
