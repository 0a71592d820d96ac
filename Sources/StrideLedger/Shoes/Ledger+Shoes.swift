import Foundation
import ShoeMileage
import StrideEvents
import StrideProjection
import StrideStore

extension Ledger {
    // MARK: Reading

    /// The rack: the default shoe and since when.
    func rack() throws -> Rack {
        try state(of: mileage).rack()
    }

    /// Every shoe, sorted by name.
    public func shoes() throws -> [ShoeView] {
        try state(of: mileage).shoes()
    }

    /// Workouts by start, optionally within local days and only runs' records on no shoe.
    public func workouts(from: CivilDate?, through to: CivilDate?, unassignedOnly: Bool) throws -> [Workout] {
        try workoutsByDay().compactMap { day, workout in
            if let from, day < from { return nil }
            if let to, to < day { return nil }
            // A copy of a run recorded more than once is never "on no shoe": its run is.
            return !unassignedOnly || (workout.shoe == nil && workout.runOf == nil) ? workout : nil
        }
    }

    /// Every workout with its local day, as the mileage projection holds them: kept in memory
    /// while the figures have not moved (``WorkoutListCache``), since a range of days is a
    /// filter over all of them (ten years hold some 2,500).
    private func workoutsByDay() throws -> [(day: CivilDate, workout: Workout)] {
        let state = try state(of: mileage)
        // Keyed by the sequence the figures stand at, read before the workouts (a list kept under
        // it is never older than it names; at worst it is read again), and kept only when that is
        // the log's end: a read on figures behind the log is not kept.
        let point = try figuresPoint()
        if let kept = workoutListCache.workouts(at: point.sequence) { return kept }
        let clocks = try localClocks()
        let workouts = try state.workouts().map { (day: clocks.day(ofStart: $0.start), workout: $0) }
        if point.isCurrent { workoutListCache.keep(workouts, at: point.sequence) }
        return workouts
    }

    /// A shoe by id or by name (in any case).
    /// - Throws: ``ShoeError/unknownShoe(_:known:)``.
    public func shoe(named text: String) throws -> Shoe {
        let all = try shoes().map(\.shoe)
        let wanted = text.trimmingCharacters(in: .whitespaces)
        if let byName = all.first(where: { $0.name.caseInsensitiveCompare(wanted) == .orderedSame }) { return byName }
        if let byID = all.first(where: { ShoeID.text($0.id) == wanted.lowercased() }) { return byID }
        throw ShoeError.unknownShoe(text, known: all.map(\.name))
    }

    /// A workout by its id or a unique prefix of it.
    /// - Throws: ``ShoeError/unknownWorkout(_:)`` or ``ShoeError/ambiguousWorkout(_:matches:)``.
    public func workout(withID text: String) throws -> Workout {
        try Self.workout(withID: text, among: try state(of: mileage).workouts())
    }

    /// The workout among `workouts` with an id or a unique prefix of it.
    /// - Throws: ``ShoeError/unknownWorkout(_:)`` or ``ShoeError/ambiguousWorkout(_:matches:)``.
    static func workout(withID text: String, among workouts: [Workout]) throws -> Workout {
        let wanted = text.lowercased().trimmingCharacters(in: .whitespaces)
        guard !wanted.isEmpty else { throw ShoeError.unknownWorkout(text) }
        let matches = workouts.filter { workoutID($0.id).hasPrefix(wanted) }
        guard let first = matches.first else { throw ShoeError.unknownWorkout(text) }
        guard matches.count == 1 else { throw ShoeError.ambiguousWorkout(text, matches: matches.map { workoutID($0.id) }) }
        return first
    }

    /// How a workout's id is shown: the 16 hexadecimal digits of its identity hash.
    public static func workoutID(_ id: UInt128) -> String { EntityReference(.workout, id: id).shortID }

    /// A shoe's audit: every event that moved its figure, in order.
    public func audit(of shoe: Shoe) throws -> [AuditEntry] {
        try state(of: mileage).audit(of: shoe.id)
    }

    /// The outbox, oldest first.
    public func notifications() throws -> [ShoeMileage.Notification] {
        try state(of: mileage).notifications()
    }

    /// The shoes as of a moment of the runner's life, as the ledger knows it now (see
    /// ``MileageAsOf``): the shoes registered by then (by their action time, `--at`), retired
    /// or the default as they were then, each with its starting kilometres plus the runs on it
    /// now that had started by then, whenever they were ingested.
    /// - Throws: a storage failure, or a projection failure.
    public func shoes(asOf instant: Timestamp) throws -> [ShoeView] {
        try MileageAsOf.shoes(rackThen: rack(asOf: instant), workouts: workoutsByDay().map(\.workout), through: instant)
    }

    /// The shoes as their own events (registration, rename, retirement, default) had left them
    /// by an instant of their action time, folded in memory; their figures are not read.
    func rack(asOf instant: Timestamp) throws -> [ShoeView] {
        // Only the rack's own events, found by the log's type index (a few per shoe), not a
        // walk of the whole log: a page of the past stays as fast on ten years as on one.
        let types: [EventType] = [.shoeRegistered, .shoeRenamed, .shoeRetirementChanged, .defaultShoeSelected]
        let events = try types.flatMap { try store.events(ofType: $0, from: 1, limit: .max) }
            .filter { $0.occurredAt <= instant }
            .sorted { $0.sequence < $1.sequence }
        let runs = [mileage.makeRun { _ in nil }]
        runs.withFoldStep { apply in
            for event in events { apply(0, ProjectionEvent(event)) }
        }
        return try runs.state(of: mileage).shoes()
    }

    /// The shoes as the ledger said they were at a sequence: the events recorded through it,
    /// folded in memory (`--as-recorded`); at or past the log's end, the shoes now.
    /// - Throws: a storage failure, or a projection failure.
    public func shoes(asRecordedThrough sequence: UInt64) throws -> [ShoeView] {
        _ = try state(of: mileage)  // caught up, outside a view
        let point = try figuresPoint()
        if point.isCurrent, sequence >= point.logEnd { return try shoes() }
        return try replayedState(through: sequence, figures: [.mileage]).shoes()
    }
}
