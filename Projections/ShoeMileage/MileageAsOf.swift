import StrideEvents

/// Mileage "as of" a moment of the runner's life, as a pure rule: what had happened by then,
/// as the ledger knows it now. A shoe's kilometres are its starting kilometres plus the
/// distance of the runs assigned to it now (automatic assignments included; an excluded run
/// on no shoe counts nowhere) that had started at or before the instant, wherever and
/// whenever they were ingested. Which shoes are listed, their names, whether each is retired
/// and which one is the default come from the shoes' own events whose action time (`--at`)
/// is at or before the instant: the rack as it stood then.
///
/// What the ledger *said* at an instant is another question ("as recorded"), answered by a
/// replay of the events recorded by then.
public enum MileageAsOf {
    /// Whether a workout counts for `shoe` as of `instant`: it is a run's own record (a copy
    /// is counted under its run), it is on that shoe now, and it had started by then (a run
    /// under way at the instant counts).
    public static func counts(_ workout: Workout, on shoe: UInt128, through instant: Timestamp) -> Bool {
        workout.runOf == nil && workout.shoe == shoe && workout.start <= instant
    }

    /// The rack as of `instant`: each shoe of `rackThen` (the shoes as their own events had
    /// left them by then) with its kilometres, runs and last run computed from `workouts`
    /// (every workout as the ledger has it now).
    public static func shoes(rackThen: [ShoeView], workouts: [Workout], through instant: Timestamp) -> [ShoeView] {
        var counted: [UInt128: [Workout]] = [:]
        for workout in workouts {
            guard let shoe = workout.shoe, counts(workout, on: shoe, through: instant) else { continue }
            counted[shoe, default: []].append(workout)
        }
        return rackThen.map { view in
            var result = view
            let runs = counted[view.shoe.id] ?? []
            result.shoe.kilometers = runs.reduce(view.shoe.startKilometers) { $0 + $1.kilometers }
            result.shoe.runs = runs.count
            result.shoe.lastRun = runs.map(\.start).max()
            return result
        }
    }
}
