import Foundation
import ShoeMileage
import StrideEvents
import StrideIngest
import StrideStore

/// What settling an account archive did to the rack and the runs on it, and where it
/// disagreed with what the runner decided in Stride.
public struct ArchiveSettlement: Sendable, Equatable {
    /// Shoes added to the rack, by the names they were given.
    public var shoesAdded: [String] = []
    /// Archive shoes found on the rack: archive name → rack name.
    public var shoesMatched: [String: String] = [:]
    /// Shoes the archive retired that were not retired on the rack.
    public var shoesRetired: [String] = []
    /// The shoe made the default for new runs, as the archive's default for runs.
    public var defaultShoe: String?
    /// Runs put on a shoe (or moved to another) by this archive.
    public var runsPutOnShoes = 0
    /// Runs already on the shoe the archive says.
    public var runsAlreadyOnTheirShoe = 0
    /// Runs an earlier archive put on a shoe that this one puts on none: taken off it.
    public var runsTakenOffShoes = 0
    /// Of the archive's runs, those the ledger held already from another source (the Health
    /// app, a watch's file, a push): counted once, as one run.
    public var runsAlreadyFromElsewhere = 0
    /// Whether an archive of the same service, newer than this one, was read before: then it
    /// changes no shoe and no run.
    public var isOlderThanOneRead = false
    /// What was not done and why: a runner's decision kept, a shoe that cannot be told apart,
    /// runs on gear the archive names by id only. Each line names what to do.
    public var notes: [String] = []
    /// Each of the archive's shoes beside its rack shoe, every difference explained.
    public var reconciliation: [ArchiveReconciliation.ReconciledShoe] = []
}

extension Ledger {
    /// Puts an archive's shoes on the rack and its runs on their shoes, in one decision on the
    /// rack, after its workouts were appended; records the archive once.
    ///
    /// - A shoe on the rack under the same name (any case) is the same shoe, or the one
    ///   `shoeNames` (`--shoe NAME=RACK_NAME`, NAME an archive name or gear id) says; others
    ///   join the rack, with the archive's goal and retirement. Two shoes that cannot be told
    ///   apart, or gear the archive names only by an id, are reported, never guessed.
    /// - A run goes on the archive's shoe unless the runner put it on another by hand or
    ///   excluded it (reported); a run already there is left alone.
    /// - The archive's default for runs becomes the default shoe unless the runner chose one.
    /// - An archive older than one of the same service read before changes nothing.
    func settleArchive(_ archive: AccountArchive, shoeNames: [String: String], sentBy: String?) throws -> ArchiveSettlement {
        let newest = try store.events(ofType: .archiveIngested, from: 1, limit: .max).compactMap { event -> Timestamp? in
            guard case .archiveIngested(let ingested) = event.event, ingested.service == archive.service.rawValue else { return nil }
            return ingested.asOf
        }.max()
        // The rack first, in one decision: shoes added, retired, the default. Then the runs, a
        // thousand a decision (a write transaction holds every page it changes in memory until it
        // commits); the archive is recorded last. A crash between them leaves what a re-run
        // completes: the shoes are found on the rack by name, the runs already on theirs skipped.
        var (settlement, targets) = try decideAndAppend(about: "the rack") { () -> Decision<(ArchiveSettlement, [Int: Shoe]?)> in
            try read { try decideRack(for: archive, newest: newest, shoeNames: shoeNames, sentBy: sentBy) }
        }
        guard let targets else { return settlement }
        var unplaced: [Int: Int] = [:]
        for run in archive.runsOnShoes where targets[run.shoe] == nil { unplaced[run.shoe, default: 0] += 1 }
        // Every run of the archive: on its shoe, or (put on none there) off the shoe an earlier
        // archive put it on.
        let onShoes = Set(archive.runsOnShoes.map(\.workout))
        let placed: [(workout: UInt128, run: AccountArchive.RunOnShoe?)] =
            archive.runsOnShoes.filter { targets[$0.shoe] != nil }.map { ($0.workout, $0) }
            + archive.runIDs.filter { !onShoes.contains($0) }.map { ($0, nil) }
        for chunk in stride(from: 0, to: placed.count, by: Self.archiveRunsPerDecision).map({
            placed[$0..<min(placed.count, $0 + Self.archiveRunsPerDecision)]
        }) {
            let outcome = try decideAndAppend(about: "the runs of \(archive.title)") { () -> Decision<ArchiveSettlement> in
                try read { try decideRuns(chunk, of: archive, targets: targets, sentBy: sentBy) }
            }
            settlement.runsAlreadyOnTheirShoe += outcome.runsAlreadyOnTheirShoe
            settlement.runsPutOnShoes += outcome.runsPutOnShoes
            settlement.runsTakenOffShoes += outcome.runsTakenOffShoes
            settlement.notes += outcome.notes
        }
        for (index, count) in unplaced.sorted(by: { $0.key < $1.key }) {
            let shoe = archive.shoes[index]
            let say = shoe.gearID.map { "--shoe \($0)=RACK_NAME" } ?? "--shoe \"\(shoe.name)\"=RACK_NAME"
            let candidates = shoe.candidates.map { archive.shoes[$0].gearID.map { "gear \($0)" } ?? archive.shoes[$0].place }
            let why =
                candidates.isEmpty
                ? ""
                : " (\(shoe.name) names \(candidates.count) shoes of the archive: \(candidates.joined(separator: ", ")), and these rows give no gear id)"
            settlement.notes.append(
                "\(count) run\(count == 1 ? "" : "s") on \(shoe.name) (\(shoe.place)) put on no shoe\(why): say which rack shoe it is with \(say) and ingest the archive again"
            )
        }
        if let asOf = archive.asOf {
            try append(
                [
                    PendingEvent(
                        .archiveIngested(
                            ArchiveIngested(
                                service: archive.service.rawValue, file: archive.name, asOf: asOf,
                                activities: archive.activitiesByType.values.reduce(0, +), runs: archive.runs,
                                shoes: archive.shoes.count { $0.isListed })),
                        occurredAt: asOf, entity: .ledger,
                        idempotencyKey: ArchiveIngested.key(service: archive.service.rawValue, asOf: asOf, fingerprint: archive.fingerprint))
                ], expecting: [])
        }
        try read {
            settlement.runsAlreadyFromElsewhere = try runsFromElsewhere(archive)
            settlement.reconciliation = try reconcile(archive, targets: targets)
        }
        return settlement
    }

    /// The rack's decision: the archive's shoes on the rack, retired, the default.
    private func decideRack(
        for archive: AccountArchive, newest: Timestamp?, shoeNames: [String: String], sentBy: String?
    ) throws -> Decision<(ArchiveSettlement, [Int: Shoe]?)> {
        let now = clock.now()
        let expectation = try rackExpectation()
        var settlement = ArchiveSettlement()
        var events: [PendingEvent] = []
        if let asOf = archive.asOf, let newest, asOf < newest {
            settlement.isOlderThanOneRead = true
            settlement.notes.append(
                "this archive's newest activity (\(asOf)) is older than that of a \(archive.service.rawValue) archive read before (\(newest)): it changes no shoe and no run"
            )
            return Decision(events: events, expecting: [expectation], value: (settlement, nil))
        }
        let rack = try shoes().map(\.shoe)
        let rackEvents = try store.events(about: .rack)
        let targets = try shoesOnRack(
            for: archive, rack: rack, said: shoeNames, version: expectation.version, now: now, events: &events, settlement: &settlement)
        retire(archive, targets: targets, rackEvents: rackEvents, sentBy: sentBy, now: now, events: &events, settlement: &settlement)
        chooseDefault(archive, targets: targets, rackEvents: rackEvents, sentBy: sentBy, now: now, events: &events, settlement: &settlement)
        return Decision(events: events, expecting: [expectation], value: (settlement, targets))
    }

    /// The runs an archive's settlement puts on shoes in one write transaction.
    static let archiveRunsPerDecision = 1_000

    /// One decision on a chunk of the archive's runs, read in one view: each activity's shoe as
    /// the archive says, recorded on the activity's own workout, unless the runner decided its
    /// run's shoe (put it somewhere by hand, took it off, or excluded it). The decision expects
    /// every copy of every run it changes as it read them: a runner's command committed between
    /// the read and the append makes it decide again (and the placement policy keeps the
    /// runner's word whatever the order besides).
    private func decideRuns(
        _ chunk: ArraySlice<(workout: UInt128, run: AccountArchive.RunOnShoe?)>, of archive: AccountArchive, targets: [Int: Shoe],
        sentBy: String?
    ) throws -> Decision<ArchiveSettlement> {
        let now = clock.now()
        let mileageState = try state(of: mileage)
        let rack = Dictionary(try mileageState.shoes().map { ($0.shoe.id, $0.shoe) }, uniquingKeysWith: { first, _ in first })
        var outcome = ArchiveSettlement()
        var events: [PendingEvent] = []
        var read: Set<UInt128> = []
        for (id, onShoe) in chunk {
            guard let workout = try mileageState.workout(id) else { continue }
            let record = try workout.runOf.flatMap { try mileageState.workout($0) } ?? workout
            let copies = SameRunPolicy.preferenceOrder([record] + (try record.copies.compactMap { try mileageState.workout($0) }))
            let decided = RunPlacementPolicy.placement(of: copies)
            let entity = EntityReference(.workout, id: workout.id)
            // A start no run was run at (a row dated 9999 or 1970): kept, on no shoe.
            guard record.startLeftOut == nil else { continue }
            guard let run = onShoe, let shoe = targets[run.shoe] else {
                // On no shoe in this archive: what an earlier archive said of it no longer holds.
                guard workout.placement?.origin == .archive, workout.placement?.shoe != nil else { continue }
                if record.shoe != nil, decided?.origin == .archive { outcome.runsTakenOffShoes += 1 }
                events.append(
                    PendingEvent(
                        .workoutAssignmentChanged(WorkoutAssignmentChange(.unassigned, sentBy: sentBy, source: "\(archive.title): on no shoe there")),
                        occurredAt: now, entity: entity))
                read.formUnion(copies.map(\.id))
                continue
            }
            if decided?.origin == .manual || record.isRunExcluded {
                if record.shoe == shoe.id {
                    outcome.runsAlreadyOnTheirShoe += 1
                } else {
                    let yours =
                        decided?.origin == .manual && decided?.shoe != nil
                        ? "you put it on \(record.shoe.flatMap { rack[$0]?.name } ?? "another shoe")"
                        : record.isRunExcluded ? "you excluded it from shoes" : "you took it off shoes"
                    outcome.notes.append("\(Self.workoutID(record.id)): \(yours); the archive says \(shoe.name) (\(run.place)), kept as you decided")
                }
                continue
            }
            if workout.placement?.origin == .archive, workout.placement?.shoe == shoe.id {
                outcome.runsAlreadyOnTheirShoe += 1
                continue
            }
            if record.shoe == shoe.id { outcome.runsAlreadyOnTheirShoe += 1 } else { outcome.runsPutOnShoes += 1 }
            events.append(
                PendingEvent(
                    .workoutAssigned(WorkoutAssigned(shoe: shoe.id, origin: .archive, sentBy: sentBy, source: "\(archive.title), \(run.place)")),
                    occurredAt: now, entity: entity))
            read.formUnion(copies.map(\.id))
        }
        let expectations = try read.sorted().map { id in
            let entity = EntityReference(.workout, id: id)
            return VersionExpectation(entity, version: try store.version(of: entity))
        }
        return Decision(events: events, expecting: [try rackExpectation()] + expectations, value: outcome)
    }

    /// Of the archive's runs, those the ledger holds from another source too (a copy the Health
    /// app, a watch's file or a push recorded): counted once.
    private func runsFromElsewhere(_ archive: AccountArchive) throws -> Int {
        let mileageState = try state(of: mileage)
        let source = "archive:\(archive.service.rawValue)"
        var count = 0
        for id in archive.runIDs {
            guard let workout = try mileageState.workout(id) else { continue }
            let record = try workout.runOf.flatMap { try mileageState.workout($0) } ?? workout
            let members = [record] + (try record.copies.compactMap { try mileageState.workout($0) })
            if members.contains(where: { $0.source != source }) { count += 1 }
        }
        return count
    }

    /// Each archive shoe beside its rack shoe, every difference explained (``ArchiveReconciliation``).
    private func reconcile(_ archive: AccountArchive, targets: [Int: Shoe]) throws -> [ArchiveReconciliation.ReconciledShoe] {
        let mileageState = try state(of: mileage)
        let rack = Dictionary(try mileageState.shoes().map { ($0.shoe.id, $0.shoe) }, uniquingKeysWith: { first, _ in first })
        // Read by key: the archive's workouts and the runs on its rack shoes, not the whole ledger.
        var known: [UInt128: Workout] = [:]
        func workout(_ id: UInt128) throws -> Workout? {
            if let found = known[id] { return found }
            let found = try mileageState.workout(id)
            known[id] = found
            return found
        }
        func run(ofRecord id: UInt128) throws -> ArchiveReconciliation.Run? {
            guard let record = try workout(id) else { return nil }
            return ArchiveReconciliation.Run(copies: SameRunPolicy.preferenceOrder([record] + (try record.copies.compactMap { try workout($0) })))
        }
        var runOf: [UInt128: ArchiveReconciliation.Run] = [:]
        for onShoe in archive.runsOnShoes + archive.otherActivitiesOnShoes {
            if let found = try workout(onShoe.workout), let run = try run(ofRecord: found.run) { runOf[onShoe.workout] = run }
        }
        var runsOn: [UInt128: [ArchiveReconciliation.Run]] = [:]
        for shoe in Set(targets.values.map(\.id)) {
            runsOn[shoe] = try mileageState.runs(on: shoe).compactMap { try run(ofRecord: $0) }
        }
        let shoes = archive.shoes.indices.map { index in
            let shoe = archive.shoes[index]
            let why: String
            if !shoe.candidates.isEmpty {
                why =
                    "these rows name \(shoe.name) without a gear id, and \(shoe.candidates.count) of the archive's shoes have that name: say which rack shoe they are with --shoe \"\(shoe.name)\"=RACK_NAME"
            } else if !shoe.isListed {
                why = "the archive names this gear by its id only: say which rack shoe it is with --shoe \(shoe.gearID ?? shoe.name)=RACK_NAME"
            } else {
                why = "it could not be told apart from a shoe on the rack: say which with --shoe \(shoe.gearID ?? "\"\(shoe.name)\"")=RACK_NAME"
            }
            return ArchiveReconciliation.ArchiveShoe(name: shoe.name, place: shoe.place, rackShoe: targets[index]?.id, whyNotOnRack: why)
        }
        let rows = (archive.runsOnShoes.map { ($0, true) } + archive.otherActivitiesOnShoes.map { ($0, false) }).map { onShoe, isRun in
            ArchiveReconciliation.Row(
                workout: onShoe.workout, shoe: onShoe.shoe, kilometers: onShoe.kilometers, place: onShoe.place, type: onShoe.type, isRun: isRun)
        }
        return ArchiveReconciliation.reconcile(
            archive: archive.title, shoes: shoes, rows: rows,
            run: { runOf[$0] }, rack: rack, runsOn: { runsOn[$0] ?? [] })
    }

    /// The rack shoe of each archive shoe (by index), registering the new ones.
    private func shoesOnRack(
        for archive: AccountArchive, rack: [Shoe], said: [String: String], version: UInt64, now: Timestamp, events: inout [PendingEvent],
        settlement: inout ArchiveSettlement
    ) throws -> [Int: Shoe] {
        // `--shoe` names an archive shoe by its gear id (that shoe alone), or by its name.
        let saidByKey = Dictionary(said.map { (ArchiveShoePolicy.key($0.key), $0.value) }, uniquingKeysWith: { _, last in last })
        let saidOf = { (index: Int) -> String? in
            let shoe = archive.shoes[index]
            return shoe.gearID.flatMap { saidByKey[ArchiveShoePolicy.key($0)] } ?? saidByKey[ArchiveShoePolicy.key(shoe.name)]
        }
        // The archive's own shoes first; then those `--shoe` places, on the rack as it will be
        // (a gear id may stand for a shoe this archive adds).
        let listed = archive.shoes.indices.filter { archive.shoes[$0].isListed && saidOf($0) == nil }
        let placed = archive.shoes.indices.filter { saidOf($0) != nil }
        // Matched beside the placed ones: a name two archive shoes print is ambiguous on the rack.
        let listedMatches = Array(
            ArchiveShoePolicy.match(archive: (listed + placed).map { archive.shoes[$0].name }, rack: rack.map(\.name)).prefix(listed.count))
        let added = zip(listed, listedMatches).compactMap { $1 == .new ? archive.shoes[$0].name : nil }
        // Each placed shoe on its own: the runner named it, so no other shoe of its name makes it ambiguous.
        let placedMatches = placed.flatMap { index in
            let name = archive.shoes[index].name
            return ArchiveShoePolicy.match(archive: [name], rack: rack.map(\.name) + added, said: [name: saidOf(index) ?? name])
        }
        let considered = listed + placed
        let matches = listedMatches + placedMatches
        var targets: [Int: Shoe] = [:]
        var taken = Set(rack.map { ArchiveShoePolicy.key($0.name) })
        let repeated = Dictionary(grouping: considered, by: { ArchiveShoePolicy.key(archive.shoes[$0].name) }).filter { $0.value.count > 1 }
        for (index, match) in zip(considered, matches) {
            let shoe = archive.shoes[index]
            switch match {
            case .onRack(let name):
                targets[index] =
                    rack.first { $0.name == name }
                    ?? targets.values.first { ArchiveShoePolicy.key($0.name) == ArchiveShoePolicy.key(name) }
                settlement.shoesMatched[shoe.name] = name
            case .new:
                var name = String(shoe.name.prefix(Plausible.nameCharacters))
                // Two shoes printing one name, told apart by their ids: each named with its id
                // (and found on the rack under that name when an earlier ingest added it).
                if repeated[ArchiveShoePolicy.key(shoe.name)] != nil || taken.contains(ArchiveShoePolicy.key(name)) {
                    // Told apart by the id the service gives it, else by its place among the
                    // archive's shoes of that name (never by a file's line).
                    let sameName = archive.shoes.indices.filter { ArchiveShoePolicy.key(archive.shoes[$0].name) == ArchiveShoePolicy.key(shoe.name) }
                    let ordinal = (sameName.firstIndex(of: index) ?? 0) + 1
                    name =
                        "\(name) (\(shoe.gearID.map { "\(archive.service.rawValue) gear \($0)" } ?? "\(archive.service.rawValue) shoe \(ordinal)"))"
                    if let existing = rack.first(where: { ArchiveShoePolicy.key($0.name) == ArchiveShoePolicy.key(name) }) {
                        targets[index] = existing
                        settlement.shoesMatched[shoe.name] = existing.name
                        continue
                    }
                }
                taken.insert(ArchiveShoePolicy.key(name))
                var goal = shoe.goalKilometers
                if let wanted = goal, !Plausible.shoeGoalKilometres.contains(wanted) {
                    settlement.notes.append(
                        "\(name): the archive's goal of \(wanted) km is outside \(Plausible.shoeGoalKilometres.text); added without a goal")
                    goal = nil
                }
                // On the rack from its first run in the archive, so that the past as of any day
                // shows it with the runs run by then (`mileage --as-of`).
                let since = min(now, archive.runsOnShoes.filter { $0.shoe == index }.map(\.start).min() ?? now)
                let id = ShoeID.derived(service: archive.service.rawValue, gear: shoe.gearID ?? "", name: name, at: since)
                events.append(
                    PendingEvent(
                        .shoeRegistered(
                            ShoeRegistered(
                                shoe: id, name: name, brand: shoe.brand, startKilometers: 0, goalKilometers: goal,
                                source: "\(archive.title), \(shoe.place)")),
                        occurredAt: since, entity: .rack))
                targets[index] = Shoe(id: id, name: name, brand: shoe.brand, startKilometers: 0, goalKilometers: goal, kilometers: 0)
                settlement.shoesAdded.append(name)
            case .ambiguous(let names):
                settlement.notes.append(
                    "\(shoe.name) (\(shoe.place)) could be any of \(names.joined(separator: ", ")) on the rack: say which with --shoe \(shoe.gearID ?? "\"\(shoe.name)\"")=RACK_NAME"
                )
            case .unknownRackShoe(let name):
                settlement.notes.append(
                    "--shoe names \(name) for \(shoe.name), and the rack has no shoe of that name: add it first, or correct the name")
            }
        }
        return targets
    }

    /// Retires the shoes the archive retired, unless the runner decided their retirement in Stride.
    private func retire(
        _ archive: AccountArchive, targets: [Int: Shoe], rackEvents: [RecordedEvent], sentBy: String?, now: Timestamp,
        events: inout [PendingEvent], settlement: inout ArchiveSettlement
    ) {
        for (index, shoe) in targets.sorted(by: { $0.key < $1.key }) where archive.shoes[index].isRetired && !shoe.isRetired {
            let runnerDecided = rackEvents.contains { event in
                if case .shoeRetirementChanged(let change) = event.event { return change.shoe == shoe.id && change.source == nil }
                return false
            }
            guard !runnerDecided else {
                settlement.notes.append("\(shoe.name): the archive says retired; you brought it back in Stride, kept as you decided")
                continue
            }
            events.append(
                PendingEvent(
                    .shoeRetirementChanged(
                        ShoeRetirement(shoe: shoe.id, isRetired: true, sentBy: sentBy, source: "\(archive.title), \(archive.shoes[index].place)")),
                    occurredAt: Self.retirementInstant(archive.shoes[index].retiredAt, now: now), entity: .rack))
            settlement.shoesRetired.append(shoe.name)
        }
    }

    /// When an archive's retirement takes effect: the day the archive says it was retired, if
    /// it says and that is not ahead of the clock; else now.
    static func retirementInstant(_ retiredAt: Timestamp?, now: Timestamp) -> Timestamp {
        guard let retiredAt, retiredAt <= now else { return now }
        return retiredAt
    }

    /// Makes the archive's default shoe for runs the default, unless the runner chose one.
    private func chooseDefault(
        _ archive: AccountArchive, targets: [Int: Shoe], rackEvents: [RecordedEvent], sentBy: String?, now: Timestamp,
        events: inout [PendingEvent], settlement: inout ArchiveSettlement
    ) {
        guard let index = archive.shoes.indices.first(where: { archive.shoes[$0].isDefaultForRuns && !archive.shoes[$0].isRetired }),
            let shoe = targets[index]
        else { return }
        var current: (shoe: UInt128?, byRunner: Bool)?
        for event in rackEvents {
            if case .defaultShoeSelected(let selected) = event.event { current = (selected.shoe, selected.source == nil) }
        }
        if let current, current.shoe == shoe.id { return }
        if let current, current.byRunner {
            settlement.notes.append("the archive's default shoe for runs is \(shoe.name); you chose the default in Stride, kept as you decided")
            return
        }
        events.append(
            PendingEvent(
                .defaultShoeSelected(DefaultShoeSelected(shoe: shoe.id, sentBy: sentBy, source: "\(archive.title), \(archive.shoes[index].place)")),
                occurredAt: now, entity: .rack))
        settlement.defaultShoe = shoe.name
    }
}
