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
        time = LocalTime(ledger)
    }

    public var json: JSONValue {
        .object(["workouts": .array(workouts.map(json))])
    }

    private func json(_ workout: Workout) -> JSONValue {
        var members: [JSONValue.Member] = [
            .init("id", .string(Ledger.workoutID(workout.id))), .init("activity", .string(workout.activity)),
            .init("start", .string(time.format(workout.start))), .init("end", .string(time.format(workout.end))),
            .init("distanceMeters", .number(workout.distanceMeters)), .init("shoe", .string(workout.shoe.map(ShoeID.text))),
            .init("assignedBy", .string(workout.origin?.description)),
            .init("isExcluded", .bool(workout.runOf == nil ? workout.isRunExcluded : workout.isExcluded)),
            .init("source", .string(workout.sourceName)),
        ]
        // Only for a run recorded more than once: a ledger without copies prints as it always did.
        if let run = workout.runOf { members.append(.init("copyOf", .string(Ledger.workoutID(run)))) }
        // Only for a workout whose start is no time a run was run: kept, in no figure.
        if let why = workout.startLeftOut { members.append(.init("leftOut", .string(why))) }
        return .object(members)
    }
}
