import Foundation
import ShoeMileage
import StrideEvents
import StrideProjection
import StrideStore

extension Ledger {
    /// Decides against the rack and appends (see ``decideAndAppend(about:_:)``).
    private func decideOnRack<Value>(_ decide: () throws -> Decision<Value>) throws -> Value {
        try decideAndAppend(about: "the rack", decide)
    }

    /// The expectation that the rack is as it was read.
    func rackExpectation() throws -> VersionExpectation {
        VersionExpectation(.rack, version: try store.version(of: .rack))
    }

    /// Registers a shoe; returns it. `sentBy` names the device that sent the command through
    /// the server (nil on the machine), as every action below takes it.
    /// - Throws: ``ShoeError/nameTaken(_:)`` or ``ShoeError/emptyName``; ``ValueRefusal`` for a
    ///   name or brand past ``Plausible/nameCharacters``, kilometres or a goal outside
    ///   ``Plausible/shoeStartKilometres`` and ``Plausible/shoeGoalKilometres``;
    ///   ``LedgerError/aheadOfClock(at:clock:timeZone:)`` when `at` is ahead of the clock.
    @discardableResult
    public func registerShoe(
        name: String, brand: String?, startKilometers: Double, goalKilometers: Double?, makeDefault: Bool, at: Timestamp?,
        sentBy: String? = nil
    ) throws -> UInt128 {
        let trimmed = try Self.shoeName(name)
        let brand = try brand.map { try ValueRefusal.check($0, longest: Plausible.nameCharacters, as: "the brand") }
        _ = try ValueRefusal.check(startKilometers, in: Plausible.shoeStartKilometres, as: "the starting distance")
        _ = try goalKilometers.map { try ValueRefusal.check($0, in: Plausible.shoeGoalKilometres, as: "the goal") }
        let when = try actionInstant(at)
        return try decideOnRack {
            let expectation = try rackExpectation()
            // Derived, not drawn: the same commands on the same ledger give the same ids, so
            // runs can be compared hash for hash; the rack's version keeps ids apart.
            let id = ShoeID.derived(name: trimmed, at: when, rackVersion: expectation.version)
            if try shoes().contains(where: { $0.shoe.name.caseInsensitiveCompare(trimmed) == .orderedSame }) {
                throw ShoeError.nameTaken(trimmed)
            }
            var events = [
                PendingEvent(
                    .shoeRegistered(
                        ShoeRegistered(
                            shoe: id, name: trimmed, brand: brand, startKilometers: startKilometers, goalKilometers: goalKilometers,
                            sentBy: sentBy)),
                    occurredAt: when, entity: .rack)
            ]
            if makeDefault {
                events.append(PendingEvent(.defaultShoeSelected(DefaultShoeSelected(shoe: id, sentBy: sentBy)), occurredAt: when, entity: .rack))
            }
            return Decision(events: events, expecting: [expectation], value: id)
        }
    }

    /// Renames a shoe.
    /// - Throws: ``ShoeError``; ``LedgerError/aheadOfClock(at:clock:timeZone:)`` when `at` is ahead of the clock.
    public func renameShoe(_ text: String, to newName: String, at: Timestamp?, sentBy: String? = nil) throws {
        let when = try actionInstant(at)
        let trimmed = try Self.shoeName(newName)
        try decideOnRack {
            let expectation = try rackExpectation()
            let shoe = try shoe(named: text)
            if let other = try shoes().first(where: { $0.shoe.id != shoe.id && $0.shoe.name.caseInsensitiveCompare(trimmed) == .orderedSame }) {
                throw ShoeError.nameTaken(other.shoe.name)
            }
            guard shoe.name != trimmed else { throw ShoeError.alreadyThat("the shoe is already named \(trimmed)") }
            return Decision(
                events: [PendingEvent(.shoeRenamed(ShoeRenamed(shoe: shoe.id, name: trimmed, sentBy: sentBy)), occurredAt: when, entity: .rack)],
                expecting: [expectation])
        }
    }

    /// Retires a shoe, or brings it back.
    /// - Throws: ``ShoeError``; ``LedgerError/aheadOfClock(at:clock:timeZone:)`` when `at` is ahead of the clock.
    public func setRetired(_ text: String, _ isRetired: Bool, at: Timestamp?, sentBy: String? = nil) throws {
        let when = try actionInstant(at)
        try decideOnRack {
            let expectation = try rackExpectation()
            let shoe = try shoe(named: text)
            guard shoe.isRetired != isRetired else {
                throw ShoeError.alreadyThat("\(shoe.name) is \(isRetired ? "already retired" : "not retired")")
            }
            return Decision(
                events: [
                    PendingEvent(
                        .shoeRetirementChanged(ShoeRetirement(shoe: shoe.id, isRetired: isRetired, sentBy: sentBy)), occurredAt: when, entity: .rack)
                ], expecting: [expectation])
        }
    }

    /// Makes a shoe the default (new runs from now go to it), or clears the default.
    /// - Throws: ``ShoeError``; ``LedgerError/aheadOfClock(at:clock:timeZone:)`` when `at` is ahead of the clock.
    public func setDefaultShoe(_ text: String?, at: Timestamp?, sentBy: String? = nil) throws {
        let when = try actionInstant(at)
        try decideOnRack {
            let expectation = try rackExpectation()
            var chosen: UInt128?
            if let text {
                let shoe = try shoe(named: text)
                guard !shoe.isRetired else { throw ShoeError.retired(shoe.name) }
                chosen = shoe.id
            }
            return Decision(
                events: [PendingEvent(.defaultShoeSelected(DefaultShoeSelected(shoe: chosen, sentBy: sentBy)), occurredAt: when, entity: .rack)],
                expecting: [expectation])
        }
    }

    /// Assigns a run to a shoe by hand (moving it from another shoe, if on one).
    /// - Throws: ``ShoeError``; ``LedgerError/aheadOfClock(at:clock:timeZone:)`` when `at` is ahead of the clock.
    public func assign(workout workoutText: String, to shoeText: String, at: Timestamp?, sentBy: String? = nil) throws {
        let when = try actionInstant(at)
        try decideOnRack {
            let expectations = [try rackExpectation()]
            let workout = try run(withID: workoutText)
            let shoe = try shoe(named: shoeText)
            guard workout.isRunning else { throw ShoeError.notARun(Self.workoutID(workout.id), activity: workout.activity) }
            guard !shoe.isRetired else { throw ShoeError.retired(shoe.name) }
            guard workout.shoe != shoe.id else { throw ShoeError.alreadyThat("workout \(Self.workoutID(workout.id)) is already on \(shoe.name)") }
            let entity = EntityReference(.workout, id: workout.id)
            return Decision(
                events: [
                    PendingEvent(.workoutAssigned(WorkoutAssigned(shoe: shoe.id, origin: .manual, sentBy: sentBy)), occurredAt: when, entity: entity)
                ],
                expecting: expectations + [VersionExpectation(entity, version: try store.version(of: entity))])
        }
    }

    /// Takes a workout off its shoe.
    /// - Throws: ``ShoeError``; ``LedgerError/aheadOfClock(at:clock:timeZone:)`` when `at` is ahead of the clock.
    public func unassign(workout workoutText: String, at: Timestamp?, sentBy: String? = nil) throws {
        try workoutChange(workoutText, .unassigned, at: at, sentBy: sentBy)
    }

    /// Excludes a workout from auto-assignment.
    /// - Throws: ``ShoeError``; ``LedgerError/aheadOfClock(at:clock:timeZone:)`` when `at` is ahead of the clock.
    public func exclude(workout workoutText: String, at: Timestamp?, sentBy: String? = nil) throws {
        try workoutChange(workoutText, .excluded, at: at, sentBy: sentBy)
    }

    private func workoutChange(_ text: String, _ change: WorkoutAssignmentChange.Change, at: Timestamp?, sentBy: String?) throws {
        let when = try actionInstant(at)
        try decideOnRack {
            let workout = try run(withID: text)
            let id = Self.workoutID(workout.id)
            switch change {
            case .unassigned: guard workout.shoe != nil else { throw ShoeError.notAssigned(id) }
            case .excluded: guard !workout.isRunExcluded else { throw ShoeError.alreadyThat("workout \(id) is already excluded") }
            }
            let entity = EntityReference(.workout, id: workout.id)
            return Decision(
                events: [PendingEvent(.workoutAssignmentChanged(WorkoutAssignmentChange(change, sentBy: sentBy)), occurredAt: when, entity: entity)],
                expecting: [VersionExpectation(entity, version: try store.version(of: entity))])
        }
    }

    /// A workout's run: the workout itself, or, for a copy of a run recorded more than once,
    /// the record its run is counted under (where shoes and exclusions apply).
    /// - Throws: what ``workout(withID:)`` throws.
    func run(withID text: String) throws -> Workout {
        let workout = try workout(withID: text)
        guard let run = workout.runOf else { return workout }
        return try state(of: mileage).workout(run) ?? workout
    }

    /// Records that two workouts are one run (or, with `isSameRun` false, two different
    /// runs): the runner's decision, which wins over the same-run rule from then on. One run
    /// is counted once, with its preferred copy's distance; two that were one are split.
    /// - Throws: ``ShoeError/unknownWorkout(_:)``, ``ShoeError/ambiguousWorkout(_:matches:)``,
    ///   ``ShoeError/alreadyThat(_:)`` (a workout with itself, or a decision that changes
    ///   nothing); ``LedgerError/aheadOfClock(at:clock:timeZone:)``. Nothing is appended then.
    public func decideSameRun(_ firstText: String, _ secondText: String, isSameRun: Bool, at: Timestamp?, sentBy: String? = nil) throws {
        let when = try actionInstant(at)
        try decideOnRack {
            let all = try state(of: mileage).workouts()
            let first = try Self.workout(withID: firstText, among: all)
            let second = try Self.workout(withID: secondText, among: all)
            let (one, other) = (Self.workoutID(first.id), Self.workoutID(second.id))
            guard first.id != second.id else { throw ShoeError.alreadyThat("\(one) and \(other) are the same workout") }
            if isSameRun, first.run == second.run {
                throw ShoeError.alreadyThat("workouts \(one) and \(other) are already one run")
            }
            if !isSameRun, first.run != second.run, first.differentFrom.contains(second.id) {
                throw ShoeError.alreadyThat("workouts \(one) and \(other) are already different runs")
            }
            let entities = [first.id, first.run, second.id, second.run].map { EntityReference(.workout, id: $0) }
            return Decision(
                events: [
                    PendingEvent(
                        .sameRunDecided(SameRunDecided(other: second.id, isSameRun: isSameRun, decidedBy: .runner, sentBy: sentBy)),
                        occurredAt: when, entity: EntityReference(.workout, id: first.id))
                ],
                expecting: try Set(entities).map { VersionExpectation($0, version: try store.version(of: $0)) })
        }
    }
}

extension Ledger {
    /// A shoe's name as given, trimmed.
    /// - Throws: ``ShoeError/emptyName``, or ``ValueRefusal`` past ``Plausible/nameCharacters``.
    static func shoeName(_ name: String) throws -> String {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw ShoeError.emptyName }
        return try ValueRefusal.check(trimmed, longest: Plausible.nameCharacters, as: "the shoe's name")
    }
}
