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

/// What happens to workouts as they arrive, in the appending transaction: a workout that is
/// the same run as one recorded before (``SameRunPolicy``, unless the runner said the two are
/// different) is recorded as its copy (a `workout.sameRun` event) and never assigned on its
/// own; a new run goes to the default shoe (``AutoAssignmentPolicy``). An assignment carries
/// the sender of the run it answers: a run a phone sent through the server was put on its shoe
/// "via" that phone.
public struct AutoAssignment: LedgerReaction {
    let mileage: ShoeMileageProjection

    /// The reaction over the mileage projection's state.
    public init(mileage: ShoeMileageProjection) {
        self.mileage = mileage
    }

    public var answeredTypes: Set<EventType> { [.workoutRecorded] }

    /// The longest a workout may last and still be matched: the earliest start looked at.
    static let longestWorkout: Int64 = 48 * 3_600_000

    public func react(to appended: [ProjectionEvent], state: any ProjectionStateReader) throws -> [PendingEvent] {
        let recorded: [(event: ProjectionEvent, sentBy: String?)] = appended.compactMap { event in
            if case .event(.workoutRecorded(let workout)) = event.content { return (event, workout.sentBy) }
            return nil
        }
        guard !recorded.isEmpty else { return [] }
        var rack: Rack?
        if case .rack(let found)? = try state.row(.rack, of: mileage) { rack = found }
        let defaultShoe: Shoe? = try rack?.defaultShoe.flatMap { id in
            if case .shoe(let shoe)? = try state.row(.shoe(id), of: mileage) { return shoe }
            return nil
        }
        var answers: [PendingEvent] = []
        for (event, sentBy) in recorded {
            guard case .workout(let workout)? = try state.row(.workout(event.entity.id), of: mileage),
                workout.recordedSequence == event.sequence
            else { continue }
            if let (run, overlap) = try earlierCopy(of: workout, state: state) {
                answers.append(
                    PendingEvent(
                        .sameRunDecided(SameRunDecided(other: run, isSameRun: true, decidedBy: .rule, overlap: overlap)),
                        occurredAt: event.recordedAt, entity: event.entity,
                        idempotencyKey: Self.key("same-run", event.entity.id)))
                continue
            }
            guard let shoe = AutoAssignmentPolicy.shoe(for: workout, rack: rack, defaultShoe: defaultShoe) else { continue }
            // One automatic assignment per workout, ever: its key is the workout's.
            answers.append(
                PendingEvent(
                    .workoutAssigned(WorkoutAssigned(shoe: shoe, origin: .auto, sentBy: sentBy)), occurredAt: event.recordedAt,
                    entity: event.entity, idempotencyKey: Self.key("auto-assignment", event.entity.id)))
        }
        return answers
    }

    /// The workout recorded before `workout` that is the same run by the rule — the one
    /// sharing most of its time, then the first recorded — and how much they share; nil when
    /// there is none (or the runner said they differ).
    private func earlierCopy(of workout: Workout, state: any ProjectionStateReader) throws -> (UInt128, Double)? {
        // Workout ids begin with their start: every workout that could overlap this one
        // starts between a day or two before it and its end.
        let lower = SampleIdentity.make(start: workout.start.adding(milliseconds: -Self.longestWorkout), hash: 0)
        let upper = SampleIdentity.make(start: max(workout.start, workout.end), hash: .max)
        var best: (workout: Workout, overlap: Double)?
        for (_, row) in try state.rows(from: .workout(lower), before: .workout(upper), of: mileage) {
            guard case .workout(let candidate) = row, candidate.recordedSequence < workout.recordedSequence,
                !candidate.differentFrom.contains(workout.id), let overlap = SameRunPolicy.sameRun(candidate, workout)
            else { continue }
            if best.map({ overlap > $0.overlap || (overlap == $0.overlap && candidate.recordedSequence < $0.workout.recordedSequence) }) ?? true {
                best = (candidate, overlap)
            }
        }
        return best.map { ($0.workout.id, $0.overlap) }
    }

    private static func key(_ purpose: String, _ workout: UInt128) -> IdempotencyKey {
        IdempotencyKey(hashing: Array(purpose.utf8) + withUnsafeBytes(of: workout.bigEndian) { Array($0) })
    }
}
