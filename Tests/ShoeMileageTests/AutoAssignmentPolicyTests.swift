import StrideEvents
import Testing

@testable import ShoeMileage

@Suite("Auto-assignment to the default shoe")
struct AutoAssignmentPolicyTests {
    static let since = Timestamp(secondsSince1970: 1_714_600_000)
    static let pegasus: UInt128 = 7
    static let rack = Rack(defaultShoe: pegasus, since: since)
    static let shoe = Shoe(id: pegasus, name: "Pegasus 40", brand: nil, startKilometers: 0, goalKilometers: nil, kilometers: 0)

    static func run(
        startingAt offset: Int64 = 60, activity: String = "HKWorkoutActivityTypeRunning", shoe: UInt128? = nil, isExcluded: Bool = false
    ) -> Workout {
        var workout = Workout(
            id: 1, activity: activity, start: since.adding(milliseconds: offset * 1000), end: since.adding(milliseconds: (offset + 1800) * 1000),
            distanceMeters: 5020, distanceSource: .statistics, distanceAsWritten: "5.02 km", sourceName: "Watch", recordedSequence: 1)
        workout.shoe = shoe
        workout.isExcluded = isExcluded
        return workout
    }

    static var retired: Shoe {
        var shoe = Self.shoe
        shoe.isRetired = true
        return shoe
    }

    @Test(
        "cases",
        arguments: [
            ("a new run after the default was chosen goes to it", run(), rack, shoe, pegasus as UInt128?),
            ("a run starting exactly at that moment goes to it", run(startingAt: 0), rack, shoe, pegasus),
            ("a run from before is never swept onto today's shoe", run(startingAt: -1), rack, shoe, nil),
            ("a ride is not a run", run(activity: "HKWorkoutActivityTypeCycling"), rack, shoe, nil),
            ("a run already assigned by hand keeps its shoe", run(shoe: 9), rack, shoe, nil),
            ("an excluded run stays unassigned", run(isExcluded: true), rack, shoe, nil),
            ("no default shoe, no assignment", run(), Rack(defaultShoe: nil, since: nil), nil, nil),
            ("a retired default shoe takes nothing", run(), rack, retired, nil),
        ] as [(String, Workout, Rack, Shoe?, UInt128?)])
    func cases(name: String, workout: Workout, rack: Rack, defaultShoe: Shoe?, expected: UInt128?) {
        #expect(AutoAssignmentPolicy.shoe(for: workout, rack: rack, defaultShoe: defaultShoe) == expected, "\(name)")
    }
}
