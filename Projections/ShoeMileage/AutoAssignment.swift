import StrideEvents
import StrideProjection

/// Run Mile's "auto registration", as a pure rule: a running workout that arrives not
/// assigned and not excluded goes to the default shoe when one is set and active and the
/// workout started at or after the moment that shoe became the default. History from
/// before is never swept onto today's shoe, and a manual assignment is never overridden.
public enum AutoAssignmentPolicy {
    /// The shoe a workout goes to automatically, or nil.
    public static func shoe(for workout: Workout, rack: Rack?, defaultShoe: Shoe?) -> UInt128? {
        guard workout.isRunning, workout.shoe == nil, !workout.isExcluded, let rack, let chosen = rack.defaultShoe,
            let since = rack.since, let shoe = defaultShoe, shoe.id == chosen, !shoe.isRetired, workout.start >= since
        else { return nil }
        return chosen
    }
}

/// The auto-assignment policy as a reaction: new runs, appended by an ingest, are assigned
/// to the default shoe in the same transaction. An assignment carries the sender of the run
/// it answers: a run a phone sent through the server was put on its shoe "via" that phone.
public struct AutoAssignment: LedgerReaction {
    let mileage: ShoeMileageProjection

    /// The reaction over the mileage projection's state.
    public init(mileage: ShoeMileageProjection) {
        self.mileage = mileage
    }

    public var answeredTypes: Set<EventType> { [.workoutRecorded] }

    public func react(to appended: [ProjectionEvent], state: any ProjectionStateReader) throws -> [PendingEvent] {
        let recorded: [(event: ProjectionEvent, sentBy: String?)] = appended.compactMap { event in
            if case .event(.workoutRecorded(let workout)) = event.content, workout.isRunning { return (event, workout.sentBy) }
            return nil
        }
        guard !recorded.isEmpty, case .rack(let rack)? = try state.row(.rack, of: mileage) else { return [] }
        let defaultShoe: Shoe? = try rack.defaultShoe.flatMap { id in
            if case .shoe(let shoe)? = try state.row(.shoe(id), of: mileage) { return shoe }
            return nil
        }
        return try recorded.compactMap { event, sentBy in
            guard case .workout(let workout)? = try state.row(.workout(event.entity.id), of: mileage),
                let shoe = AutoAssignmentPolicy.shoe(for: workout, rack: rack, defaultShoe: defaultShoe)
            else { return nil }
            // One automatic assignment per workout, ever: its key is the workout's.
            return PendingEvent(
                .workoutAssigned(WorkoutAssigned(shoe: shoe, origin: .auto, sentBy: sentBy)), occurredAt: event.recordedAt,
                entity: event.entity,
                idempotencyKey: IdempotencyKey(hashing: Array("auto-assignment".utf8) + withUnsafeBytes(of: event.entity.id.bigEndian) { Array($0) }))
        }
    }
}
