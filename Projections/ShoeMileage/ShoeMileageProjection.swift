import Foundation
import StrideEvents
import StrideProjection

/// Shoes and their mileage (Run Mile's job): per shoe, its starting kilometres plus the
/// distance of the runs on it now; the workouts, grouped into runs; the default shoe; an audit
/// line for every event that moved a shoe's figure; and the outbox of notifications.
public struct ShoeMileageProjection: Projection {
    public typealias Key = MileageKey
    public typealias Row = MileageRow

    public let name = "mileage"
    /// Version 2: audit lines name the device that sent their event. Version 3: a run
    /// recorded more than once is counted once (workouts know their copies). Version 4: a
    /// distance outside ``Plausible/workoutKilometres`` counts as none. Version 5: runs are
    /// grouped by the rule as a function of the set (``RunsGrouped``), a run's shoe is decided
    /// from what was said of each copy (``RunPlacementPolicy``), and only news is notified.
    /// Version 6: a workout whose start is no time a run was run is left out.
    public let version: UInt32 = 6
    /// Small rows: snapshots of them are kept (see the store's `snapshotInterval`).
    public var keepsSnapshots: Bool { true }
    /// Sample events do not change it: a replay skips them undecoded.
    public var foldsSamples: Bool { false }

    /// Creates the projection.
    public init() {}

    public func apply(_ event: ProjectionEvent, to rows: inout ProjectionRows<Key, Row>) {
        guard case .event(let content) = event.content else { return }
        switch content {
        case .shoeRegistered(let registered):
            let shoe = Shoe(
                id: registered.shoe, name: registered.name, brand: registered.brand, startKilometers: registered.startKilometers,
                goalKilometers: registered.goalKilometers, kilometers: registered.startKilometers)
            rows.update(.shoe(registered.shoe), creating: { .shoe(shoe) }) { _ in }
            audit(
                AuditEntry(
                    sequence: event.sequence, recordedAt: event.recordedAt, kind: .registered, workout: nil, origin: nil,
                    kilometers: registered.startKilometers,
                    detail: "registered with \(Self.format(registered.startKilometers)) km already run"
                        + (registered.source.map { ", from \($0)" } ?? ""),
                    sentBy: registered.sentBy),
                shoe: registered.shoe, rows: &rows)
            announceGoal(of: registered.shoe, event: event, rows: &rows)
        case .shoeRenamed(let renamed):
            updateShoe(renamed.shoe, rows: &rows) { $0.name = renamed.name }
        case .shoeRetirementChanged(let change):
            updateShoe(change.shoe, rows: &rows) { $0.isRetired = change.isRetired }
        case .defaultShoeSelected(let selected):
            let rack = Rack(defaultShoe: selected.shoe, since: selected.shoe == nil ? nil : event.occurredAt)
            rows.update(.rack, creating: { .rack(rack) }) { $0 = .rack(rack) }
        case .workoutRecorded(let recorded):
            record(recorded, event: event, rows: &rows)
        case .workoutAssigned(let assigned):
            guard rows.row(.shoe(assigned.shoe)) != nil else { return }
            place(
                event.entity.id,
                Placement(shoe: assigned.shoe, origin: assigned.origin, sequence: event.sequence, sentBy: assigned.sentBy, source: assigned.source),
                event: event, rows: &rows)
        case .workoutAssignmentChanged(let change):
            switch change.change {
            case .unassigned:
                // The runner's own `unassign` is a decision like `assign`; an archive's (a run
                // on no shoe there) is the archive's word.
                let origin: AssignmentOrigin = change.source == nil ? .manual : .archive
                place(
                    event.entity.id, Placement(shoe: nil, origin: origin, sequence: event.sequence, sentBy: change.sentBy, source: change.source),
                    event: event, rows: &rows)
            case .excluded:
                guard workout(event.entity.id, &rows) != nil else { return }
                updateWorkout(event.entity.id, rows: &rows) { $0.isExcluded = true }
                settle(runs: [run(of: event.entity.id, &rows)], sentBy: change.sentBy, event: event, rows: &rows)
            }
        case .sameRunDecided(let decision):
            decide(decision, about: event.entity.id, event: event, rows: &rows)
        case .runsGrouped(let grouped):
            regroup(grouped.groups, sentBy: nil, event: event, rows: &rows)
        default:
            break
        }
    }

    private func record(_ recorded: WorkoutRecorded, event: ProjectionEvent, rows: inout ProjectionRows<Key, Row>) {
        let id = event.entity.id
        guard rows.row(.workout(id)) == nil else { return }
        let (metres, asWritten) = Self.plausibleDistance(recorded)
        var workout = Workout(
            id: id, activity: recorded.activityType, start: recorded.start, end: recorded.end,
            distanceMeters: metres, distanceSource: metres == nil && recorded.distanceMeters != nil ? .none : recorded.distanceSource,
            distanceAsWritten: asWritten, sourceName: recorded.sourceName, recordedSequence: event.sequence)
        workout.recording = WorkoutRecording(recorded)
        workout.source = WorkoutSource.of(recorded, recording: workout.recording)
        workout.startLeftOut = Plausible.workoutStartProblem(recorded.start, recordedAt: event.recordedAt)
        rows.update(.workout(id), creating: { .workout(workout) }) { _ in }
        guard workout.startLeftOut == nil else { return }
        // A run just run is news; an archive's or an old file's is history, told nothing.
        guard workout.isRunning, NewRunNotice.isNews(start: workout.start, recordedAt: event.recordedAt, recording: workout.recording)
        else { return }
        let note = Notification(
            sequence: event.sequence, at: event.recordedAt, kind: .newRun, workout: id, shoe: nil,
            text: "\(Self.format(workout.kilometers)) km run — choose a shoe")
        rows.update(.notification(sequence: event.sequence), creating: { .notification(note) }) { _ in }
    }

    /// Records what was said of a workout's shoe, and settles its run's shoe again.
    private func place(_ workoutID: UInt128, _ placement: Placement, event: ProjectionEvent, rows: inout ProjectionRows<Key, Row>) {
        guard workout(workoutID, &rows) != nil else { return }
        updateWorkout(workoutID, rows: &rows) { $0.placement = placement }
        settle(runs: [run(of: workoutID, &rows)], sentBy: placement.sentBy, event: event, rows: &rows)
    }

    /// Says once, in the outbox, that a shoe reached its goal.
    func announceGoal(of shoeID: UInt128, event: ProjectionEvent, rows: inout ProjectionRows<Key, Row>) {
        guard case .shoe(let shoe)? = rows.row(.shoe(shoeID)), let goal = shoe.goalKilometers, shoe.kilometers >= goal,
            !shoe.isGoalAnnounced
        else { return }
        updateShoe(shoeID, rows: &rows) { $0.isGoalAnnounced = true }
        let note = Notification(
            sequence: event.sequence, at: event.recordedAt, kind: .goalReached, workout: nil, shoe: shoeID,
            text: "\(shoe.name) reached its \(Self.format(goal)) km goal (\(Self.format(shoe.kilometers)) km): time for a new pair")
        rows.update(.notification(sequence: event.sequence), creating: { .notification(note) }) { _ in }
    }

    /// Adds a line to a shoe's audit; a second change by the same event (a run leaving as a
    /// copy, then its run's distance replaced) joins the first line, so the lines still add up.
    func audit(_ entry: AuditEntry, shoe: UInt128, rows: inout ProjectionRows<Key, Row>) {
        let key = MileageKey.audit(shoe: shoe, sequence: entry.sequence)
        var line = entry
        if case .audit(let first)? = rows.row(key) {
            line = first
            line.kilometers += entry.kilometers
            line.detail += "; " + entry.detail
        }
        rows.update(key, creating: { .audit(line) }) { $0 = .audit(line) }
    }

    func updateShoe(_ id: UInt128, rows: inout ProjectionRows<Key, Row>, _ change: (inout Shoe) -> Void) {
        guard case .shoe(var shoe)? = rows.row(.shoe(id)) else { return }
        change(&shoe)
        rows.update(.shoe(id), creating: { .shoe(shoe) }) { $0 = .shoe(shoe) }
    }

    func updateWorkout(_ id: UInt128, rows: inout ProjectionRows<Key, Row>, _ change: (inout Workout) -> Void) {
        guard case .workout(var workout)? = rows.row(.workout(id)) else { return }
        change(&workout)
        rows.update(.workout(id), creating: { .workout(workout) }) { $0 = .workout(workout) }
    }

    /// How an audit line describes a workout.
    static func describe(_ workout: Workout) -> String {
        // An archive's distance says where it comes from already.
        let distance =
            workout.distanceAsWritten.map { workout.recording == .accountArchive ? $0 : "\($0), from the \(workout.distanceSource)" } ?? "no distance"
        return
            "\(workout.activity.replacingOccurrences(of: "HKWorkoutActivityType", with: "")) of \(ISO8601.format(workout.start, offsetSeconds: 0)) from \(workout.sourceName) (\(distance))"
    }

    /// How an audit line describes a run: its counted copy, and the copies not counted.
    func describe(run: Workout, _ rows: inout ProjectionRows<Key, Row>) -> String {
        ([Self.describe(run)] + [uncounted(run, &rows)].compactMap { $0 }).joined(separator: "; ")
    }

    /// "also recorded by …, not counted": a run's copies whose distance does not count; nil
    /// for a run recorded once.
    func uncounted(_ run: Workout, _ rows: inout ProjectionRows<Key, Row>) -> String? {
        let others = run.copies.compactMap { workout($0, &rows) }
        guard !others.isEmpty else { return nil }
        return "also recorded by " + others.map { "\($0.sourceName) (\(Self.format($0.kilometers)) km, \($0.recording))" }.joined(separator: ", ")
            + ", not counted"
    }

    /// The workout under an id, if recorded.
    func workout(_ id: UInt128, _ rows: inout ProjectionRows<Key, Row>) -> Workout? {
        if case .workout(let workout)? = rows.row(.workout(id)) { return workout }
        return nil
    }

    /// The id a workout's run is counted under (its own when it is not a copy).
    func run(of id: UInt128, _ rows: inout ProjectionRows<Key, Row>) -> UInt128 {
        workout(id, &rows)?.run ?? id
    }

    /// Kilometres with two decimals.
    public static func format(_ kilometers: Double) -> String { String(format: "%.2f", kilometers) }
}

extension ShoeMileageProjection {
    /// A workout's distance as mileage counts it: as recorded, or none when outside
    /// ``Plausible/workoutKilometres`` (a value no recording of one workout reaches, such as
    /// 1e17 m) — the workout stays, on no distance, and says what it held and why.
    static func plausibleDistance(_ recorded: WorkoutRecorded) -> (metres: Double?, asWritten: String?) {
        guard let metres = recorded.distanceMeters else { return (nil, recorded.distanceAsWritten) }
        guard !Plausible.workoutKilometres.contains(metres / 1000) else { return (metres, recorded.distanceAsWritten) }
        let written = recorded.distanceAsWritten ?? (metres.isFinite ? PlausibleRange.number(metres) + " m" : "\(metres) m")
        return (nil, "\(written), left out: outside \(Plausible.workoutKilometres.text)")
    }
}
