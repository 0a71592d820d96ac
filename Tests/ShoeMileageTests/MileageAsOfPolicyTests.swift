import StrideEvents
import Testing

@testable import ShoeMileage

/// Which runs count for a shoe as of a moment of the runner's life, with kilometres worked
/// out by hand. The instant is 2023-06-01T00:00:00Z; the rack of then (the shoes' own events
/// by their action time) is given, as the ledger folds it.
@Suite("Mileage as of a moment of the runner's life")
struct MileageAsOfPolicyTests {
    static let instant = Timestamp(secondsSince1970: 1_685_577_600)
    static let pegasus: UInt128 = 1
    static let novablast: UInt128 = 2

    static func minutes(_ offset: Int64) -> Timestamp { instant.adding(milliseconds: offset * 60_000) }

    /// A run starting `offset` minutes from the instant, lasting `duration` minutes.
    static func run(
        _ id: UInt128, at offset: Int64, lasting duration: Int64 = 30, km: Double, on shoe: UInt128?, isExcluded: Bool = false,
        runOf: UInt128? = nil
    ) -> Workout {
        var workout = Workout(
            id: id, activity: "HKWorkoutActivityTypeRunning", start: minutes(offset), end: minutes(offset + duration),
            distanceMeters: km * 1000, distanceSource: .statistics, distanceAsWritten: "\(km) km", sourceName: "Watch", recordedSequence: 1)
        workout.shoe = shoe
        workout.isExcluded = isExcluded
        workout.runOf = runOf
        return workout
    }

    /// A shoe as the rack of then shows it: its figures are whatever the fold left (here,
    /// deliberately wrong, so a test fails if they are kept).
    static func shoe(_ id: UInt128, startKilometers: Double, isRetired: Bool = false, isDefault: Bool = false) -> ShoeView {
        var shoe = Shoe(
            id: id, name: id == pegasus ? "Pegasus 40" : "Novablast", brand: nil, startKilometers: startKilometers, goalKilometers: 800,
            kilometers: 999)
        shoe.runs = 99
        shoe.isRetired = isRetired
        return ShoeView(shoe: shoe, isDefault: isDefault)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var rackThen: [ShoeView]
        var workouts: [Workout]
        /// Per shoe listed: kilometres, runs.
        var expected: [UInt128: (kilometers: Double, runs: Int)]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "a run starting exactly at the instant counts", rackThen: [shoe(pegasus, startKilometers: 10)],
            workouts: [run(10, at: 0, km: 5, on: pegasus)], expected: [pegasus: (15, 1)]),
        Case(
            name: "a run starting a minute after the instant does not", rackThen: [shoe(pegasus, startKilometers: 10)],
            workouts: [run(10, at: 1, km: 5, on: pegasus)], expected: [pegasus: (10, 0)]),
        Case(
            name: "a run under way at the instant (started before, ended after) counts", rackThen: [shoe(pegasus, startKilometers: 0)],
            workouts: [run(10, at: -15, lasting: 30, km: 4.25, on: pegasus)], expected: [pegasus: (4.25, 1)]),
        Case(
            name: "an excluded run on no shoe counts nowhere", rackThen: [shoe(pegasus, startKilometers: 0)],
            workouts: [run(10, at: -60, km: 5, on: nil, isExcluded: true), run(11, at: -120, km: 2.5, on: pegasus)],
            expected: [pegasus: (2.5, 1)]),
        Case(
            name: "a reassigned run counts on the shoe it is on now, never on the one it left",
            rackThen: [shoe(pegasus, startKilometers: 0), shoe(novablast, startKilometers: 0)],
            workouts: [run(10, at: -60, km: 8, on: novablast), run(11, at: -600, km: 3, on: pegasus)],
            expected: [pegasus: (3, 1), novablast: (8, 1)]),
        Case(
            name: "a shoe added after the instant is not on the rack of then, and its runs count on no other shoe",
            rackThen: [shoe(pegasus, startKilometers: 100)],
            workouts: [run(10, at: -60, km: 6, on: novablast), run(11, at: -600, km: 1.5, on: pegasus)],
            expected: [pegasus: (101.5, 1)]),
        Case(
            name: "a shoe retired by then is listed, retired, with the runs it had",
            rackThen: [shoe(pegasus, startKilometers: 20, isRetired: true)],
            workouts: [run(10, at: -60 * 24 * 400, km: 12, on: pegasus), run(11, at: 60, km: 9, on: pegasus)],
            expected: [pegasus: (32, 1)]),
        Case(
            name: "a copy of a run counts under its run only",
            rackThen: [shoe(pegasus, startKilometers: 0)],
            workouts: [run(10, at: -60, km: 5, on: pegasus), run(11, at: -60, km: 5.5, on: pegasus, runOf: 10)],
            expected: [pegasus: (5, 1)]),
        Case(
            name: "years of runs: only those started by then, whenever they were ingested",
            rackThen: [shoe(pegasus, startKilometers: 0, isDefault: true)],
            workouts: [
                run(10, at: -60 * 24 * 1500, km: 5, on: pegasus), run(11, at: -60 * 24 * 700, km: 10, on: pegasus),
                run(12, at: -15, km: 4.25, on: pegasus), run(13, at: 480, km: 8, on: pegasus),
            ],
            expected: [pegasus: (19.25, 3)]),
    ]

    @Test("which runs count, by hand", arguments: cases)
    func counted(_ example: Case) {
        let shoes = MileageAsOf.shoes(rackThen: example.rackThen, workouts: example.workouts, through: Self.instant)
        #expect(shoes.map(\.shoe.id) == example.rackThen.map(\.shoe.id))
        for view in shoes {
            let expected = example.expected[view.shoe.id]
            #expect(view.shoe.kilometers == expected?.kilometers)
            #expect(view.shoe.runs == expected?.runs)
        }
    }

    @Test("retired-ness, the default and the name are the rack of then's; the last run is the latest counted")
    func keepsTheRackOfThen() {
        let then = [Self.shoe(Self.pegasus, startKilometers: 0, isRetired: true, isDefault: true)]
        let workouts = [Self.run(10, at: -90, km: 5, on: Self.pegasus), Self.run(11, at: -30, km: 5, on: Self.pegasus)]
        let shoe = MileageAsOf.shoes(rackThen: then, workouts: workouts + [Self.run(12, at: 30, km: 5, on: Self.pegasus)], through: Self.instant)
        #expect(shoe.first?.shoe.isRetired == true)
        #expect(shoe.first?.isDefault == true)
        #expect(shoe.first?.shoe.name == "Pegasus 40")
        #expect(shoe.first?.shoe.lastRun == Self.minutes(-30))
        #expect(shoe.first?.shoe.remainingKilometers == 790)
    }
}
