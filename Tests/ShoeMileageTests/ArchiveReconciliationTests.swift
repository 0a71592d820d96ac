import ShoeMileage
import StrideEvents
import Testing

/// An archive's shoes beside the rack, every difference explained: a hand-computed case with
/// each kind of difference.
@Suite("Reconciling an archive's shoes with the rack")
struct ArchiveReconciliationTests {
    static let title = "Strava archive export_1.zip"
    static let pegasus: UInt128 = 100
    static let novablast: UInt128 = 101

    static func workout(_ id: UInt128, km: Double?, recording: WorkoutRecording = .accountArchive, shoe: UInt128? = nil) -> Workout {
        var workout = Workout(
            id: id, activity: "HKWorkoutActivityTypeRunning", start: Timestamp(secondsSince1970: 1_714_550_400 + Int64(id) * 86_400),
            end: Timestamp(secondsSince1970: 1_714_552_200 + Int64(id) * 86_400), distanceMeters: km.map { $0 * 1000 }, distanceSource: .reported,
            distanceAsWritten: nil, sourceName: recording == .accountArchive ? "Strava" : "Forerunner", recordedSequence: UInt64(id))
        workout.recording = recording
        workout.shoe = shoe
        return workout
    }

    @Test("each difference named, run by run, adding up to the rack's figure minus the archive's")
    func everyDifference() throws {
        var shoes: [UInt128: Shoe] = [:]
        var pegasus = Shoe(id: Self.pegasus, name: "Pegasus", brand: nil, startKilometers: 10, goalKilometers: nil, kilometers: 25.05)
        pegasus.runs = 3
        shoes[Self.pegasus] = pegasus
        shoes[Self.novablast] = Shoe(id: Self.novablast, name: "Novablast", brand: nil, startKilometers: 0, goalKilometers: nil, kilometers: 11)
        // The runs as they stand.
        var r1 = Self.workout(1, km: 5, shoe: Self.pegasus)
        r1.placement = Placement(shoe: Self.pegasus, origin: .archive, sequence: 50, source: "\(Self.title), activities.csv line 2")
        var watch = Self.workout(20, km: 8.05, recording: .deviceFile, shoe: Self.pegasus)  // the record of r2's run
        watch.copies = [2]
        var r2 = Self.workout(2, km: 8)
        r2.runOf = 20
        r2.placement = Placement(shoe: Self.pegasus, origin: .archive, sequence: 50, source: "\(Self.title), activities.csv line 3")
        var r3 = Self.workout(3, km: 4, shoe: Self.novablast)
        r3.placement = Placement(shoe: Self.novablast, origin: .manual, sequence: 60)
        var r5 = Self.workout(5, km: 6)
        r5.isExcluded = true
        r5.isRunExcluded = true
        let r6 = Self.workout(6, km: 7, shoe: Self.novablast)
        var health = Self.workout(30, km: 2, recording: .appleHealth, shoe: Self.pegasus)
        health.placement = Placement(shoe: Self.pegasus, origin: .auto, sequence: 70)
        let r7 = Self.workout(7, km: 2.5)
        let all = [r1, watch, r2, r3, r5, r6, health, r7]
        func run(_ id: UInt128) -> ArchiveReconciliation.Run? {
            guard let workout = all.first(where: { $0.id == id }), let record = all.first(where: { $0.id == workout.run }) else { return nil }
            return ArchiveReconciliation.Run(copies: [record] + record.copies.compactMap { copy in all.first { $0.id == copy } })
        }
        let rows: [ArchiveReconciliation.Row] = [
            .init(workout: 1, shoe: 0, kilometers: 5, place: "line 2", type: "Run", isRun: true),
            .init(workout: 2, shoe: 0, kilometers: 8, place: "line 3", type: "Run", isRun: true),
            .init(workout: 3, shoe: 0, kilometers: 4, place: "line 4", type: "Run", isRun: true),
            .init(workout: 4, shoe: 0, kilometers: 3, place: "line 5", type: "Walk", isRun: false),
            .init(workout: 5, shoe: 0, kilometers: 6, place: "line 6", type: "Run", isRun: true),
            .init(workout: 6, shoe: 1, kilometers: 7, place: "line 7", type: "Run", isRun: true),
            .init(workout: 7, shoe: 2, kilometers: 2.5, place: "line 8", type: "Run", isRun: true),
        ]
        let archiveShoes: [ArchiveReconciliation.ArchiveShoe] = [
            .init(name: "Pegasus", place: "shoes.csv line 2", rackShoe: Self.pegasus),
            .init(name: "Novablast", place: "shoes.csv line 3", rackShoe: Self.novablast),
            .init(name: "New Balance", place: "rows without a gear id", rackShoe: nil, whyNotOnRack: "say which with --shoe"),
        ]
        let result = ArchiveReconciliation.reconcile(
            archive: Self.title, shoes: archiveShoes, rows: rows, run: run, rack: shoes,
            runsOn: { shoe in all.filter { $0.runOf == nil && $0.shoe == shoe }.compactMap { run($0.id) } })
        try #require(result.count == 3)

        let first = result[0]
        #expect(abs(first.archiveKilometers - 26) < 1e-9)
        #expect(abs(first.rackKilometers - 25.05) < 1e-9)
        #expect(first.unexplained == 0)
        let reasons = first.differences.map { ($0.reason, ($0.kilometers * 100).rounded() / 100) }
        #expect(reasons.map(\.0) == [.startingKilometres, .countedFromCopy, .keptByRunner, .notARun, .excludedByRunner, .putAutomatically])
        #expect(reasons.map(\.1) == [10, 0.05, -4, -3, -6, 2])
        #expect(abs(first.differences.reduce(0) { $0 + $1.kilometers } - (25.05 - 26)) < 1e-9)

        let second = result[1]
        #expect(second.unexplained == 0)
        #expect(second.differences.map(\.reason) == [.putByRunner])
        #expect(abs(second.differences.reduce(0) { $0 + $1.kilometers } - (11 - 7)) < 1e-9)

        let third = result[2]
        #expect(third.rackShoe == nil)
        #expect(third.differences.map(\.reason) == [.notOnRack])
        #expect(third.unexplained == 0)
    }

    @Test("a difference no reason accounts for is counted as unexplained")
    func unexplained() {
        let shoe = Shoe(id: Self.pegasus, name: "Pegasus", brand: nil, startKilometers: 0, goalKilometers: nil, kilometers: 4)
        let record = Self.workout(1, km: 4, shoe: Self.pegasus)
        let result = ArchiveReconciliation.reconcile(
            archive: Self.title, shoes: [.init(name: "Pegasus", place: "shoes.csv line 2", rackShoe: Self.pegasus)],
            rows: [.init(workout: 1, shoe: 0, kilometers: 5, place: "line 2", type: "Run", isRun: true)],
            run: { $0 == 1 ? ArchiveReconciliation.Run(copies: [record]) : nil }, rack: [Self.pegasus: shoe],
            runsOn: { _ in [ArchiveReconciliation.Run(copies: [record])] })
        #expect(result.first?.unexplained == 1)
    }
}
