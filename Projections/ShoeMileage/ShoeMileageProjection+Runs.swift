import StrideEvents
import StrideProjection

/// Runs: which workouts are copies of one run (``SameRunPolicy``, stated by ``RunsGrouped``
/// events and the runner's word), which copy each run counts, and which shoe it is on
/// (``RunPlacementPolicy``). Every change of a run's shoe or distance moves the shoes' figures
/// by the difference and says why in their audits; the outbox follows.
extension ShoeMileageProjection {
    /// A run as it stands: what the shoes' figures count of it.
    struct RunSnapshot {
        var record: UInt128
        var members: Set<UInt128>
        var shoe: UInt128?
        var kilometers: Double
        var start: Timestamp
    }

    /// The runner's word on two workouts (or, in a ledger written before the rule was a
    /// function of the set, the rule's own pair decision): kept as a constraint on the rule;
    /// a decision of that older kind joins or splits the runs itself.
    func decide(_ decision: SameRunDecided, about first: UInt128, event: ProjectionEvent, rows: inout ProjectionRows<Key, Row>) {
        let second = decision.other
        guard first != second, let one = workout(first, &rows), let other = workout(second, &rows) else { return }
        if decision.decidedBy == .runner {
            for (id, peer) in [(first, second), (second, first)] {
                updateWorkout(id, rows: &rows) { workout in
                    workout.sameAs.removeAll { $0 == peer }
                    workout.differentFrom.removeAll { $0 == peer }
                    if decision.isSameRun { workout.sameAs.append(peer) } else { workout.differentFrom.append(peer) }
                }
            }
        }
        guard decision.isLegacy else { return }
        let (firstRun, secondRun) = (members(of: one.run, &rows), members(of: other.run, &rows))
        if decision.isSameRun {
            guard one.run != other.run else { return }
            regroup([firstRun + secondRun], sentBy: decision.sentBy, event: event, rows: &rows)
        } else if one.run == other.run {
            let leaving = one.runOf == nil ? second : first
            regroup([firstRun.filter { $0 != leaving }, [leaving]], sentBy: decision.sentBy, event: event, rows: &rows)
        }
    }

    /// Makes each group one run (a group of one a run of its own): its record is its preferred
    /// copy; the workouts of the runs they came from that no group names stay together.
    func regroup(_ groups: [[UInt128]], sentBy: String?, event: ProjectionEvent, rows: inout ProjectionRows<Key, Row>) {
        let groups = groups.map { $0.filter { workout($0, &rows) != nil } }.filter { !$0.isEmpty }
        let named = Set(groups.joined())
        let formerRecords = Set(named.map { run(of: $0, &rows) }).sorted()
        let before = formerRecords.compactMap { snapshot(of: $0, &rows) }
        var runs = groups
        for former in before where !former.members.isSubset(of: named) {
            runs.append(former.members.subtracting(named).sorted())
        }
        var records: [UInt128] = []
        for run in runs {
            let copies = SameRunPolicy.preferenceOrder(run.compactMap { workout($0, &rows) })
            guard let record = copies.first else { continue }
            records.append(record.id)
            updateWorkout(record.id, rows: &rows) { workout in
                workout.runOf = nil
                workout.copies = copies.dropFirst().map(\.id)
            }
            for copy in copies.dropFirst() {
                updateWorkout(copy.id, rows: &rows) { workout in
                    workout.runOf = record.id
                    workout.copies = []
                    workout.shoe = nil
                    workout.origin = nil
                    workout.isRunExcluded = false
                }
            }
        }
        for record in records { decideShoe(of: record, &rows) }
        account(before: before, after: records.compactMap { snapshot(of: $0, &rows) }, sentBy: sentBy, event: event, rows: &rows)
    }

    /// Decides the shoe of each run again from what was said of its copies, and accounts for
    /// the change.
    func settle(runs records: [UInt128], sentBy: String?, event: ProjectionEvent, rows: inout ProjectionRows<Key, Row>) {
        let before = records.compactMap { snapshot(of: $0, &rows) }
        for record in records { decideShoe(of: record, &rows) }
        account(before: before, after: records.compactMap { snapshot(of: $0, &rows) }, sentBy: sentBy, event: event, rows: &rows)
    }

    /// Sets a record's shoe from its copies' placements (``RunPlacementPolicy``).
    private func decideShoe(of recordID: UInt128, _ rows: inout ProjectionRows<Key, Row>) {
        guard let record = workout(recordID, &rows) else { return }
        let copies = [record] + record.copies.compactMap { workout($0, &rows) }
        let placement = RunPlacementPolicy.placement(of: copies)
        // A shoe taken off the rack's records never holds runs (a placement names a shoe the
        // rack has; an event for an unknown shoe is passed over when it arrives).
        updateWorkout(recordID, rows: &rows) { workout in
            workout.shoe = workout.startLeftOut == nil ? placement?.shoe : nil
            workout.origin = workout.shoe == nil ? nil : placement?.origin
            workout.isRunExcluded = copies.contains(where: \.isExcluded)
        }
    }

    /// Moves the shoes' figures from the runs as they were to the runs as they are, one audit
    /// line per shoe for the event, and brings the runs' notifications in line.
    private func account(before: [RunSnapshot], after: [RunSnapshot], sentBy: String?, event: ProjectionEvent, rows: inout ProjectionRows<Key, Row>) {
        var matched = Set<Int>()
        func line(_ kind: AuditEntry.Kind, _ shoe: UInt128, _ workoutID: UInt128, _ origin: AssignmentOrigin?, _ kilometers: Double, _ detail: String)
        {
            audit(
                AuditEntry(
                    sequence: event.sequence, recordedAt: event.recordedAt, kind: kind, workout: workoutID, origin: origin, kilometers: kilometers,
                    detail: detail, sentBy: sentBy),
                shoe: shoe, rows: &rows)
        }
        for old in before {
            guard let shoe = old.shoe else { continue }
            if let index = after.firstIndex(where: { $0.record == old.record && $0.shoe == shoe }) {
                // Still on its shoe under the same record: only its copies changed.
                matched.insert(index)
                guard after[index].members != old.members, let run = workout(old.record, &rows) else { continue }
                let joined = after[index].members.subtracting(old.members).sorted().compactMap { workout($0, &rows) }
                let left = old.members.subtracting(after[index].members).sorted().compactMap { workout($0, &rows) }
                var notes: [String] = []
                if !joined.isEmpty {
                    notes.append(
                        "also recorded by \(joined.map { "\($0.sourceName) (\(Self.format($0.kilometers)) km, \($0.recording))" }.joined(separator: ", ")), not counted"
                    )
                }
                if !left.isEmpty { notes.append("no longer a copy of it: \(left.map { Self.describe($0) }.joined(separator: ", "))") }
                line(.copyNoted, shoe, run.id, nil, 0, notes.joined(separator: "; "))
                continue
            }
            take(old, off: shoe, &rows)
            guard let formerRecord = workout(old.record, &rows) else { continue }
            if let index = after.firstIndex(where: { $0.record != old.record && $0.members.contains(old.record) }) {
                let counted = after[index]
                if counted.shoe == shoe, !matched.contains(index), let run = workout(counted.record, &rows) {
                    // The same run on the same shoe, now counted from a preferred copy.
                    matched.insert(index)
                    put(counted, on: shoe, &rows)
                    var detail =
                        "now counted from \(run.sourceName) (\(run.recording)): \(Self.format(counted.kilometers)) km instead of \(Self.format(old.kilometers)) km"
                    if let others = uncounted(run, &rows) { detail += "; " + others }
                    line(.distanceReplaced, shoe, run.id, nil, counted.kilometers - old.kilometers, detail)
                    announceGoal(of: shoe, event: event, rows: &rows)
                } else if let run = workout(counted.record, &rows) {
                    line(.countedAsCopy, shoe, formerRecord.id, nil, -old.kilometers, "counted as a copy of \(Self.describe(run))")
                }
                continue
            }
            let now = after.first { $0.record == old.record }
            let kind: AuditEntry.Kind = now?.shoe != nil ? .movedToAnotherShoe : .unassigned
            var detail = describe(run: formerRecord, &rows)
            let placement = runPlacement(formerRecord, &rows)
            if let source = placement?.source {
                detail += "; from \(source)"
            } else if placement == nil, formerRecord.isRunExcluded {
                detail += "; excluded by the runner"
            }
            line(kind, shoe, formerRecord.id, nil, -old.kilometers, detail)
        }
        for (index, new) in after.enumerated() where !matched.contains(index) {
            guard let shoe = new.shoe, let run = workout(new.record, &rows) else { continue }
            put(new, on: shoe, &rows)
            let placement = runPlacement(run, &rows)
            line(
                .assigned, shoe, run.id, run.origin, new.kilometers,
                describe(run: run, &rows) + (placement?.source.map { "; from \($0)" } ?? ""))
            announceGoal(of: shoe, event: event, rows: &rows)
        }
        refreshNotes(of: after, &rows)
    }

    /// Counts a run on a shoe: its figure, its runs, and the shoe's index of runs by start.
    private func put(_ run: RunSnapshot, on shoeID: UInt128, _ rows: inout ProjectionRows<Key, Row>) {
        updateShoe(shoeID, rows: &rows) { $0.count(kilometers: run.kilometers, times: 1) }
        rows.update(.runOnShoe(shoe: shoeID, start: run.start, record: run.record), creating: { .runOnShoe }) { _ in }
    }

    /// Takes a run off a shoe's figure, its runs and its index.
    private func take(_ run: RunSnapshot, off shoeID: UInt128, _ rows: inout ProjectionRows<Key, Row>) {
        updateShoe(shoeID, rows: &rows) { $0.count(kilometers: run.kilometers, times: -1) }
        rows.remove(.runOnShoe(shoe: shoeID, start: run.start, record: run.record))
    }

    /// The placement that decides a record's run.
    private func runPlacement(_ record: Workout, _ rows: inout ProjectionRows<Key, Row>) -> Placement? {
        RunPlacementPolicy.placement(of: [record] + record.copies.compactMap { workout($0, &rows) })
    }

    /// Each run's notification, one for the run, saying where it is now; a run that came as
    /// history has none. A notification never asks for a shoe the run has.
    private func refreshNotes(of runs: [RunSnapshot], _ rows: inout ProjectionRows<Key, Row>) {
        for run in runs {
            guard let record = workout(run.record, &rows), record.isRunning else { continue }
            let noted = run.members.compactMap { workout($0, &rows)?.recordedSequence }.filter { sequence in
                if case .notification(let note)? = rows.row(.notification(sequence: sequence)), note.kind == .newRun { return true }
                return false
            }.sorted()
            guard let kept = noted.first else { continue }
            for repeated in noted.dropFirst() { rows.remove(.notification(sequence: repeated)) }
            var status = record.isRunExcluded ? "kept off shoes" : "choose a shoe"
            if let shoeID = record.shoe, case .shoe(let shoe)? = rows.row(.shoe(shoeID)) {
                status = record.origin == .auto ? "assigned to \(shoe.name)" : "on \(shoe.name)"
            }
            let text = "\(Self.format(run.kilometers)) km run — \(status)"
            guard case .notification(let current)? = rows.row(.notification(sequence: kept)),
                current.workout != record.id || current.shoe != record.shoe || current.text != text
            else { continue }
            rows.update(.notification(sequence: kept), creating: { .notification(current) }) {
                guard case .notification(var note) = $0 else { return }
                note.workout = record.id
                note.shoe = record.shoe
                note.text = text
                $0 = .notification(note)
            }
        }
    }

    /// A record's run as the figures count it; nil for a copy or an unknown workout.
    private func snapshot(of recordID: UInt128, _ rows: inout ProjectionRows<Key, Row>) -> RunSnapshot? {
        guard let record = workout(recordID, &rows), record.runOf == nil else { return nil }
        return RunSnapshot(
            record: record.id, members: Set([record.id] + record.copies), shoe: record.isRunning ? record.shoe : nil,
            kilometers: record.kilometers, start: record.start)
    }

    /// The ids of a record's run: the record and its copies.
    func members(of recordID: UInt128, _ rows: inout ProjectionRows<Key, Row>) -> [UInt128] {
        guard let record = workout(recordID, &rows) else { return [] }
        return [record.id] + record.copies
    }
}
