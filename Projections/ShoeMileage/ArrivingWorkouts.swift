import StrideEvents
import StrideProjection

/// Run Mile's "auto registration", as a pure rule: a running workout that arrives not
/// assigned and not excluded goes to the default shoe when one is set and active and the
/// workout started at or after the moment that shoe became the default. History from
/// before is never swept onto today's shoe, and a manual assignment is never overridden.
public enum AutoAssignmentPolicy {
    /// The shoe a workout goes to automatically, or nil.
    public static func shoe(for workout: Workout, rack: Rack?, defaultShoe: Shoe?) -> UInt128? {
        guard workout.isRunning, workout.startLeftOut == nil, workout.shoe == nil, !workout.isExcluded, let rack, let chosen = rack.defaultShoe,
            let since = rack.since, let shoe = defaultShoe, shoe.id == chosen, !shoe.isRetired, workout.start >= since
        else { return nil }
        return chosen
    }
}

/// What happens to workouts as they arrive, and when the runner says two are (or are not) one
/// run, in the appending transaction:
///
/// - The same-run rule groups the workouts the arrival could be a copy of — every workout
///   linked to it by the rule, by the runner's word or by a run they share, and every one
///   linked to those — into runs (``SameRunPolicy/runs(of:)``), and states each run that
///   changed in a `workout.runsGrouped` event. Grouping the whole linked set, not pairing the
///   newcomer with one earlier copy, makes the runs a function of the set of workouts: the
///   same whatever order they arrived in.
/// - A run that changed or arrived, with nothing said of its shoe by anyone, goes to the
///   default shoe (``AutoAssignmentPolicy``). An assignment carries the sender of the run it
///   answers: a run a phone sent through the server was put on its shoe "via" that phone.
public struct ArrivingWorkouts: LedgerReaction {
    let mileage: ShoeMileageProjection

    /// The reaction over the mileage projection's state.
    public init(mileage: ShoeMileageProjection) {
        self.mileage = mileage
    }

    public var answeredTypes: Set<EventType> { [.workoutRecorded, .sameRunDecided] }

    public func react(to appended: [ProjectionEvent], state: any ProjectionStateReader) throws -> [PendingEvent] {
        var seeds: [UInt128] = []
        var senders: [UInt128: String] = [:]
        var cause: EntityReference?
        var isArrival = false
        for event in appended {
            switch event.content {
            case .event(.workoutRecorded(let workout)):
                // Only a workout this event recorded (a repeat of one recorded before is not new).
                guard case .workout(let row)? = try state.row(.workout(event.entity.id), of: mileage), row.recordedSequence == event.sequence
                else { continue }
                seeds.append(event.entity.id)
                if let sender = workout.sentBy { senders[event.entity.id] = sender }
                cause = cause ?? event.entity
                isArrival = true
            case .event(.sameRunDecided(let decision)) where decision.decidedBy == .runner && !decision.isLegacy:
                seeds += [event.entity.id, decision.other]
                cause = cause ?? event.entity
            default:
                continue
            }
        }
        guard let cause, let at = appended.first?.recordedAt, !seeds.isEmpty else { return [] }
        // A run the runner's word parts from another waits for the runner's shoe: only arrivals
        // go to the default shoe.
        return try Self.regrouping(seeds, cause: cause, at: at, senders: senders, assigning: isArrival, state: state, mileage: mileage)
    }

    /// The events that bring the runs of every workout linked to `seeds` in line with the rule,
    /// and put the runs nothing was said of on the default shoe.
    /// - Parameters:
    ///   - cause: the entity the grouping event is about (the first arrival).
    ///   - at: when the events happened (the arrival's recording).
    ///   - senders: the device that sent each arriving workout, for its automatic assignment.
    ///   - assigning: whether runs nothing was said of go to the default shoe (not when an
    ///     earlier ledger's runs are grouped again: history is never swept onto today's shoe).
    public static func regrouping(
        _ seeds: [UInt128], cause: EntityReference, at: Timestamp, senders: [UInt128: String] = [:], assigning: Bool = true,
        state: any ProjectionStateReader,
        mileage: ShoeMileageProjection
    ) throws -> [PendingEvent] {
        let linked = try linkedWorkouts(from: seeds, state: state, mileage: mileage)
        let runs = SameRunPolicy.runs(of: Array(linked.values))
        let changed = runs.filter { run in
            guard let first = linked[run[0]] else { return true }
            let record = first.run
            return Set(run) != Set([record] + (linked[record]?.copies ?? []))
        }
        var answers: [PendingEvent] = []
        if !changed.isEmpty {
            answers.append(PendingEvent(.runsGrouped(RunsGrouped(groups: changed)), occurredAt: at, entity: cause))
        }
        guard assigning else { return answers }
        // Runs that changed or just arrived, with nothing said of their shoe: the default's.
        let arrived = Set(seeds)
        var rack: Rack?
        if case .rack(let found)? = try state.row(.rack, of: mileage) { rack = found }
        let defaultShoe: Shoe? = try rack?.defaultShoe.flatMap { id in
            if case .shoe(let shoe)? = try state.row(.shoe(id), of: mileage) { return shoe }
            return nil
        }
        let changedRuns = Set(changed.joined())
        for run in runs where run.contains(where: { changedRuns.contains($0) || arrived.contains($0) }) {
            let copies = SameRunPolicy.preferenceOrder(run.compactMap { linked[$0] })
            guard var record = copies.first, RunPlacementPolicy.placement(of: copies) == nil else { continue }
            record.shoe = nil
            record.isExcluded = copies.contains(where: \.isExcluded)
            guard let shoe = AutoAssignmentPolicy.shoe(for: record, rack: rack, defaultShoe: defaultShoe) else { continue }
            let sender = run.lazy.compactMap { senders[$0] }.first
            // One automatic assignment per record, ever: its key is the record's.
            answers.append(
                PendingEvent(
                    .workoutAssigned(WorkoutAssigned(shoe: shoe, origin: .auto, sentBy: sender)), occurredAt: at,
                    entity: EntityReference(.workout, id: record.id), idempotencyKey: key("auto-assignment", record.id)))
        }
        return answers
    }

    /// Every workout linked to the seeds — by the rule (a workout it could be a copy of), the
    /// runner's word, or a run they share now — and every one linked to those.
    ///
    /// Each stretch of the ledger's workouts is read once, however many arrivals it is near:
    /// the windows of a round's workouts are merged and read in start order, and each workout
    /// is then compared with the rows of its own window only. Four thousand activities on one
    /// day cost four thousand rows read, not four thousand windows of a hundred each.
    static func linkedWorkouts(
        from seeds: [UInt128], state: any ProjectionStateReader, mileage: ShoeMileageProjection
    ) throws -> [UInt128: Workout] {
        var found: [UInt128: Workout] = [:]
        var read = StretchesRead()
        var waiting = Array(Set(seeds))
        while !waiting.isEmpty {
            var round: [Workout] = []
            for id in waiting where found[id] == nil {
                guard case .workout(let workout)? = try state.row(.workout(id), of: mileage) else { continue }
                found[id] = workout
                round.append(workout)
            }
            waiting = []
            // The rows near this round's workouts, each stretch read once.
            let windows = round.map { SameRunPolicy.copyStarts(of: $0) }
            for stretch in StretchesRead.merged(windows) {
                for missing in read.unread(stretch) {
                    let lower = SampleIdentity.make(start: missing.lowerBound, hash: 0)
                    let upper = SampleIdentity.make(start: missing.upperBound.adding(milliseconds: 1), hash: 0)
                    for (_, row) in try state.rows(from: .workout(lower), before: .workout(upper), of: mileage) {
                        if case .workout(let nearby) = row { read.rows.append(nearby) }
                    }
                    read.note(missing)
                }
            }
            read.sortIfNeeded()
            for workout in round {
                waiting += workout.sameAs + workout.copies
                if let record = workout.runOf { waiting.append(record) }
                for candidate in read.rows(startingIn: SameRunPolicy.copyStarts(of: workout))
                where found[candidate.id] == nil && SameRunPolicy.copyShare(workout, candidate) != nil {
                    waiting.append(candidate.id)
                }
            }
            waiting = waiting.filter { found[$0] == nil }
        }
        return found
    }

    private static func key(_ purpose: String, _ workout: UInt128) -> IdempotencyKey {
        IdempotencyKey(hashing: Array(purpose.utf8) + withUnsafeBytes(of: workout.bigEndian) { Array($0) })
    }
}

/// The stretches of the ledger's workouts read so far (by start), and their rows in start order.
struct StretchesRead {
    /// The rows read, sorted by start once a round's reads are done.
    var rows: [Workout] = []
    private var isSorted = true
    /// The stretches read, disjoint, in order.
    private var stretches: [ClosedRange<Timestamp>] = []

    /// Overlapping or touching windows merged, in order.
    static func merged(_ windows: [ClosedRange<Timestamp>]) -> [ClosedRange<Timestamp>] {
        var merged: [ClosedRange<Timestamp>] = []
        for window in windows.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, window.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, window.upperBound)
            } else {
                merged.append(window)
            }
        }
        return merged
    }

    /// The parts of `stretch` not read yet.
    func unread(_ stretch: ClosedRange<Timestamp>) -> [ClosedRange<Timestamp>] {
        var parts: [ClosedRange<Timestamp>] = []
        var from = stretch.lowerBound
        for done in stretches where done.upperBound >= from && done.lowerBound <= stretch.upperBound {
            if done.lowerBound > from { parts.append(from...done.lowerBound.adding(milliseconds: -1)) }
            from = max(from, done.upperBound.adding(milliseconds: 1))
        }
        if from <= stretch.upperBound { parts.append(from...stretch.upperBound) }
        return parts
    }

    /// Notes a stretch as read.
    mutating func note(_ stretch: ClosedRange<Timestamp>) {
        stretches = Self.merged(stretches + [stretch])
        isSorted = false
    }

    /// Sorts the rows by start, once after a round's reads.
    mutating func sortIfNeeded() {
        guard !isSorted else { return }
        rows.sort { ($0.start, $0.id) < ($1.start, $1.id) }
        isSorted = true
    }

    /// The rows read whose start lies in `window` (a binary search, then a walk).
    func rows(startingIn window: ClosedRange<Timestamp>) -> ArraySlice<Workout> {
        var low = 0
        var high = rows.count
        while low < high {
            let middle = (low + high) / 2
            if rows[middle].start < window.lowerBound { low = middle + 1 } else { high = middle }
        }
        var end = low
        while end < rows.count, rows[end].start <= window.upperBound { end += 1 }
        return rows[low..<end]
    }
}
