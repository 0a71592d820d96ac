import StrideEvents
import StrideProjection

/// One run recorded more than once: the copies are joined under the run's first record, which
/// alone sits on a shoe and counts the preferred copy's distance (``SameRunPolicy``).
extension ShoeMileageProjection {
    /// Joins the runs of two workouts into one (the rule or the runner decided they are the same).
    ///
    /// The run on a shoe keeps its record (when both or neither are, the one recorded first);
    /// the other run's copies join it. A joined run that was on a shoe too leaves it ("counted
    /// as a copy"). Then the counted copy is chosen again: when its distance changes, the
    /// shoe's figure moves by the difference ("distance replaced"); when it does not, the shoe's
    /// audit notes the copy ("also recorded by …, not counted").
    func join(_ first: UInt128, _ second: UInt128, decision: SameRunDecided, event: ProjectionEvent, rows: inout ProjectionRows<Key, Row>) {
        guard var one = workout(first, &rows), var other = workout(second, &rows) else { return }
        if decision.decidedBy == .runner {
            one.differentFrom.removeAll { $0 == second }
            other.differentFrom.removeAll { $0 == first }
            put(one, &rows)
            put(other, &rows)
        }
        guard one.run != other.run, let firstRun = workout(one.run, &rows), let secondRun = workout(other.run, &rows) else { return }
        let firstKept =
            (firstRun.shoe == nil) == (secondRun.shoe == nil) ? firstRun.recordedSequence <= secondRun.recordedSequence : firstRun.shoe != nil
        let (kept, joined) = firstKept ? (firstRun, secondRun) : (secondRun, firstRun)
        if joined.shoe != nil { unassign(joined.id, kind: .countedAsCopy, sentBy: decision.sentBy, event: event, rows: &rows) }
        let members = [joined.id] + joined.copies
        for member in members {
            updateWorkout(member, rows: &rows) { copy in
                copy.runOf = kept.id
                copy.copies = []
                copy.countedCopy = nil
                copy.countedMeters = nil
                copy.shoe = nil
                copy.origin = nil
            }
        }
        updateWorkout(kept.id, rows: &rows) { $0.copies += members }
        recount(kept.id, noting: members, sentBy: decision.sentBy, event: event, rows: &rows)
    }

    /// Records that the runner said two workouts are different runs; when they were one run,
    /// the one that is not the run's first record leaves it and becomes a run of its own, on no
    /// shoe (a notification asks for one), and the run's counted copy is chosen again.
    func separate(
        _ first: UInt128, _ second: UInt128, decision: SameRunDecided, event: ProjectionEvent, rows: inout ProjectionRows<Key, Row>
    ) {
        guard var one = workout(first, &rows), var other = workout(second, &rows) else { return }
        if !one.differentFrom.contains(second) { one.differentFrom.append(second) }
        if !other.differentFrom.contains(first) { other.differentFrom.append(first) }
        put(one, &rows)
        put(other, &rows)
        guard one.run == other.run else { return }
        let leaving = one.runOf == nil ? other : one
        let run = leaving.run
        updateWorkout(run, rows: &rows) { $0.copies.removeAll { $0 == leaving.id } }
        updateWorkout(leaving.id, rows: &rows) { $0.runOf = nil }
        recount(run, noting: [], sentBy: decision.sentBy, event: event, rows: &rows)
        if leaving.isRunning {
            let note = Notification(
                sequence: event.sequence, at: event.recordedAt, kind: .newRun, workout: leaving.id, shoe: nil,
                text: "\(Self.format(leaving.ownKilometers)) km run, now a run of its own — choose a shoe")
            rows.update(.notification(sequence: event.sequence), creating: { .notification(note) }) { _ in }
        }
    }

    /// Chooses the run's counted copy again; on a shoe, moves the figure by the change of
    /// distance, or notes the copies that joined without changing it.
    private func recount(_ runID: UInt128, noting joined: [UInt128], sentBy: String?, event: ProjectionEvent, rows: inout ProjectionRows<Key, Row>) {
        guard let run = workout(runID, &rows) else { return }
        let copies = [run] + run.copies.compactMap { workout($0, &rows) }
        guard let counted = SameRunPolicy.counted(copies) else { return }
        let before = run.kilometers
        updateWorkout(runID, rows: &rows) { record in
            record.countedCopy = counted.id == runID ? nil : counted.id
            record.countedMeters = counted.id == runID ? nil : counted.distanceMeters
        }
        guard let updated = workout(runID, &rows), let shoeID = updated.shoe else { return }
        let change = updated.kilometers - before
        if change != 0 {
            updateShoe(shoeID, rows: &rows) { $0.kilometers += change }
            var detail =
                "now counted from \(counted.sourceName) (\(counted.recording)): \(Self.format(updated.kilometers)) km instead of \(Self.format(before)) km"
            if let others = uncounted(updated, &rows) { detail += "; " + others }
            audit(
                AuditEntry(
                    sequence: event.sequence, recordedAt: event.recordedAt, kind: .distanceReplaced, workout: runID, origin: nil,
                    kilometers: change, detail: detail, sentBy: sentBy),
                shoe: shoeID, rows: &rows)
            announceGoal(of: shoeID, event: event, rows: &rows)
        } else if !joined.isEmpty {
            let notes = joined.compactMap { workout($0, &rows) }.map { "\($0.sourceName) (\(Self.format($0.ownKilometers)) km, \($0.recording))" }
            audit(
                AuditEntry(
                    sequence: event.sequence, recordedAt: event.recordedAt, kind: .copyNoted, workout: runID, origin: nil,
                    kilometers: 0, detail: "also recorded by \(notes.joined(separator: ", ")), not counted", sentBy: sentBy),
                shoe: shoeID, rows: &rows)
        }
    }

    private func put(_ workout: Workout, _ rows: inout ProjectionRows<Key, Row>) {
        rows.update(.workout(workout.id), creating: { .workout(workout) }) { $0 = .workout(workout) }
    }
}
