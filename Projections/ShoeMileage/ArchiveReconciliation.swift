import StrideEvents

/// Each shoe of an account archive beside the rack shoe it became, with every difference
/// between the archive's own total (the sum of its rows for that gear) and the rack's figure
/// explained run by run. Pure: the ledger hands it the archive's rows and the runs as they
/// stand.
///
/// The check a runner makes first: a shoe equal to its archive, or each difference named — a
/// run counted from a copy whose distance differs, kept elsewhere by the runner's decision, a
/// walk the service counts on the shoe, the rack's starting kilometres, a run from elsewhere.
/// A difference no reason accounts for is ``Reason/unexplained``.
public enum ArchiveReconciliation {
    /// A shoe of the archive, and where it went.
    public struct ArchiveShoe: Sendable, Equatable {
        public var name: String
        /// Where in the archive it is.
        public var place: String
        /// The rack shoe it is; nil when it is on none.
        public var rackShoe: UInt128?
        /// Why it is on no rack shoe, and what to do.
        public var whyNotOnRack: String?

        public init(name: String, place: String, rackShoe: UInt128?, whyNotOnRack: String? = nil) {
            self.name = name
            self.place = place
            self.rackShoe = rackShoe
            self.whyNotOnRack = whyNotOnRack
        }
    }

    /// An activity the archive puts on one of its shoes.
    public struct Row: Sendable, Equatable {
        public var workout: UInt128
        /// Its shoe: an index into the archive's shoes.
        public var shoe: Int
        /// Its distance in the archive, in kilometres.
        public var kilometers: Double
        public var place: String
        /// The type the service gives it.
        public var type: String
        public var isRun: Bool

        public init(workout: UInt128, shoe: Int, kilometers: Double, place: String, type: String, isRun: Bool) {
            self.workout = workout
            self.shoe = shoe
            self.kilometers = kilometers
            self.place = place
            self.type = type
            self.isRun = isRun
        }
    }

    /// A run as it stands: its copies, the counted one (its record) first.
    public struct Run: Sendable, Equatable {
        public var copies: [Workout]
        public var record: Workout { copies[0] }

        public init(copies: [Workout]) {
            self.copies = copies
        }
    }

    /// Why the rack's figure differs from the archive's.
    public enum Reason: String, Sendable, CaseIterable {
        /// The rack shoe was added with kilometres already run.
        case startingKilometres
        /// The run is counted once, from a copy of another source whose distance differs.
        case countedFromCopy
        /// The archive's distance is outside the plausible range: counted as none.
        case distanceLeftOut
        /// The activity's start is no time a run was run (before 1980, or in the future): left out.
        case startLeftOut
        /// The row is one run with another of the archive's rows (the runner said so).
        case oneRunWithAnotherRow
        /// A walk or another activity: the service counts it on the shoe; a Stride shoe counts runs.
        case notARun
        /// The runner put the run on another shoe, or on none.
        case keptByRunner
        /// The runner excluded the run from shoes.
        case excludedByRunner
        /// Another archive put the run on another shoe.
        case anotherArchive
        /// The archive shoe is on no rack shoe: the runner has to say which it is.
        case notOnRack
        /// On the rack shoe from another of the archive's shoes that is the same rack shoe.
        case fromAnotherArchiveShoe
        /// On the rack shoe by the runner's hand.
        case putByRunner
        /// On the rack shoe as the default shoe, when the run arrived.
        case putAutomatically
        /// No reason accounts for it.
        case unexplained

        /// What a summary line says of `count` differences of this reason.
        public func summary(count: Int) -> String {
            let runs = count.counted("run")
            switch self {
            case .startingKilometres: return "starting kilometres on the rack"
            case .countedFromCopy: return "\(runs) counted once, from a copy of another source whose distance differs"
            case .distanceLeftOut: return "\(runs) whose distance in the archive is left out as implausible"
            case .startLeftOut: return "\(runs) whose start is no time a run was run (before 1980, or ahead of the clock): left out"
            case .oneRunWithAnotherRow: return "\(count.counted("row")) one run with another of the archive's rows"
            case .notARun:
                return
                    "\(count.counted("activity", plural: "activities")) not a run: the service counts every activity on its shoe, a Stride shoe counts runs"
            case .keptByRunner: return "\(runs) you put on another shoe, or on none"
            case .excludedByRunner: return "\(runs) you excluded from shoes"
            case .anotherArchive: return "\(runs) another archive puts on another shoe"
            case .notOnRack: return "\(count.counted("activity", plural: "activities")) on no rack shoe yet"
            case .fromAnotherArchiveShoe: return "\(runs) from another of the archive's shoes that is this rack shoe"
            case .putByRunner: return "\(runs) you put on this shoe, not in the archive under it"
            case .putAutomatically: return "\(runs) put on this shoe as the default when they arrived, not in the archive under it"
            case .unexplained: return "\(count.counted("difference")) no reason accounts for"
            }
        }
    }

    /// One difference: what it adds to the rack's figure against the archive's.
    public struct Difference: Sendable, Equatable {
        /// The run's record, when a run makes the difference.
        public var workout: UInt128?
        /// The archive row, when one is concerned.
        public var place: String?
        /// Rack minus archive, in kilometres.
        public var kilometers: Double
        public var reason: Reason
        /// A sentence for the runner.
        public var detail: String
    }

    /// One archive shoe, reconciled.
    public struct ReconciledShoe: Sendable, Equatable {
        public var archiveShoe: String
        public var place: String
        /// The rack shoe's name; nil when it is on none.
        public var rackShoe: String?
        /// The sum of the archive's rows for it.
        public var archiveKilometers: Double
        /// The rack shoe's figure now (0 on none).
        public var rackKilometers: Double
        /// Every difference, run by run; they add up to rack minus archive.
        public var differences: [Difference]

        /// The differences no reason accounts for.
        public var unexplained: Int { differences.count { $0.reason == .unexplained } }
    }

    /// Differences smaller than this (half a metre) are the rounding of two decimal writings.
    public static let tolerance = 0.0005

    /// Every archive shoe with rows or a rack shoe, reconciled.
    /// - Parameters:
    ///   - archive: the archive's title (`Strava archive export_1.zip`): how its own placements name it.
    ///   - run: the run a workout belongs to now, if recorded.
    ///   - rack: the rack's shoes.
    ///   - runsOn: the runs on a rack shoe now (their records).
    public static func reconcile(
        archive: String, shoes: [ArchiveShoe], rows: [Row], run: (UInt128) -> Run?, rack: [UInt128: Shoe],
        runsOn: (UInt128) -> [Run]
    ) -> [ReconciledShoe] {
        let rowsByShoe = Dictionary(grouping: rows, by: \.shoe)
        let rowOfWorkout = Dictionary(rows.map { ($0.workout, $0) }, uniquingKeysWith: { first, _ in first })
        var result: [ReconciledShoe] = []
        for (index, archiveShoe) in shoes.enumerated() {
            let own = rowsByShoe[index] ?? []
            guard !own.isEmpty || archiveShoe.rackShoe != nil else { continue }
            let archiveKilometers = own.reduce(0) { $0 + $1.kilometers }
            guard let rackID = archiveShoe.rackShoe, let rackShoe = rack[rackID] else {
                let why = archiveShoe.whyNotOnRack ?? "it is on no rack shoe"
                result.append(
                    ReconciledShoe(
                        archiveShoe: archiveShoe.name, place: archiveShoe.place, rackShoe: nil, archiveKilometers: archiveKilometers,
                        rackKilometers: 0,
                        differences: own.map {
                            Difference(workout: $0.workout, place: $0.place, kilometers: -$0.kilometers, reason: .notOnRack, detail: why)
                        }))
                continue
            }
            var differences: [Difference] = []
            if rackShoe.startKilometers != 0 {
                differences.append(
                    Difference(
                        workout: nil, place: nil, kilometers: rackShoe.startKilometers, reason: .startingKilometres,
                        detail: "\(format(rackShoe.startKilometers)) km already run when it joined the rack"))
            }
            var covered = Set<UInt128>()
            for row in own {
                func add(_ kilometers: Double, _ reason: Reason, _ detail: String, workout: UInt128? = nil) {
                    differences.append(
                        Difference(workout: workout ?? row.workout, place: row.place, kilometers: kilometers, reason: reason, detail: detail))
                }
                guard row.isRun else {
                    add(
                        -row.kilometers, .notARun,
                        "a \(row.type.lowercased()), not a run: \(archiveService(archive)) counts it on the shoe, a Stride shoe counts runs")
                    continue
                }
                guard let found = run(row.workout) else {
                    add(-row.kilometers, .unexplained, "the ledger holds no workout for it")
                    continue
                }
                let record = found.record
                if record.shoe == rackID {
                    guard covered.insert(record.id).inserted else {
                        add(-row.kilometers, .oneRunWithAnotherRow, "one run with another of the archive's rows: counted once", workout: record.id)
                        continue
                    }
                    let change = record.kilometers - row.kilometers
                    guard abs(change) >= tolerance else { continue }
                    if record.id != row.workout {
                        add(
                            change, .countedFromCopy,
                            "counted once, from \(record.sourceName) (\(record.recording)): \(format(record.kilometers)) km", workout: record.id)
                    } else if record.distanceMeters == nil {
                        add(change, .distanceLeftOut, "its distance is left out: \(record.distanceAsWritten ?? "none")")
                    } else {
                        add(change, .unexplained, "counted as \(format(record.kilometers)) km", workout: record.id)
                    }
                    continue
                }
                if let why = record.startLeftOut {
                    add(-row.kilometers, .startLeftOut, why, workout: record.id)
                    continue
                }
                let placement = RunPlacementPolicy.placement(of: found.copies)
                let there = record.shoe.flatMap { rack[$0]?.name }.map { "on \($0)" } ?? "on no shoe"
                let sibling = found.copies.first { $0.id != row.workout && rowOfWorkout[$0.id] != nil }
                if placement?.origin == .manual {
                    add(-row.kilometers, .keptByRunner, "you put it \(there); kept as you decided", workout: record.id)
                } else if record.isRunExcluded {
                    add(-row.kilometers, .excludedByRunner, "you excluded it from shoes; kept as you decided", workout: record.id)
                } else if let sibling, let other = rowOfWorkout[sibling.id] {
                    add(-row.kilometers, .oneRunWithAnotherRow, "one run with \(other.place), counted \(there)", workout: record.id)
                } else if let placement, placement.origin == .archive, let source = placement.source, !source.hasPrefix(archive) {
                    add(-row.kilometers, .anotherArchive, "\(source) puts it \(there)", workout: record.id)
                } else {
                    add(-row.kilometers, .unexplained, "it is \(there)\(placement.map { " (\($0.origin))" } ?? "")", workout: record.id)
                }
            }
            for found in runsOn(rackID) where !covered.contains(found.record.id) {
                let record = found.record
                guard found.copies.allSatisfy({ rowOfWorkout[$0.id]?.shoe != index }) else { continue }
                func add(_ reason: Reason, _ detail: String, place: String? = nil) {
                    differences.append(Difference(workout: record.id, place: place, kilometers: record.kilometers, reason: reason, detail: detail))
                }
                let placement = RunPlacementPolicy.placement(of: found.copies)
                if let row = found.copies.lazy.compactMap({ rowOfWorkout[$0.id] }).first {
                    if shoes.indices.contains(row.shoe), shoes[row.shoe].rackShoe == rackID {
                        add(.fromAnotherArchiveShoe, "from \(shoes[row.shoe].name) (\(shoes[row.shoe].place)), the same rack shoe", place: row.place)
                    } else if placement?.origin == .manual {
                        add(
                            .putByRunner,
                            "you put it on this shoe; the archive says \(shoes.indices.contains(row.shoe) ? shoes[row.shoe].name : "another")",
                            place: row.place)
                    } else {
                        add(
                            .unexplained, "the archive puts it on \(shoes.indices.contains(row.shoe) ? shoes[row.shoe].name : "another shoe")",
                            place: row.place)
                    }
                    continue
                }
                switch placement?.origin {
                case .manual?: add(.putByRunner, "a run you put on this shoe, not in the archive under it")
                case .auto?: add(.putAutomatically, "a run that went to the default shoe when it arrived, not in the archive under it")
                case .archive? where !(placement?.source?.hasPrefix(archive) ?? false):
                    add(.anotherArchive, "from \(placement?.source ?? "another archive")")
                default: add(.unexplained, "a run on this shoe the archive does not list under it")
                }
            }
            let rackKilometers = rackShoe.kilometers
            let accounted = differences.reduce(0) { $0 + $1.kilometers }
            let residual = (rackKilometers - archiveKilometers) - accounted
            if abs(residual) >= tolerance * 10 {
                differences.append(
                    Difference(workout: nil, place: nil, kilometers: residual, reason: .unexplained, detail: "a difference no run accounts for"))
            }
            result.append(
                ReconciledShoe(
                    archiveShoe: archiveShoe.name, place: archiveShoe.place, rackShoe: rackShoe.name, archiveKilometers: archiveKilometers,
                    rackKilometers: rackKilometers, differences: differences))
        }
        return result
    }

    /// "Strava" of "Strava archive export_1.zip".
    private static func archiveService(_ title: String) -> String {
        title.components(separatedBy: " archive ").first ?? title
    }

    private static func format(_ kilometers: Double) -> String { ShoeMileageProjection.format(kilometers) }
}
