import Foundation
import ShoeMileage
import StrideEvents
import StrideTestSupport
import Testing

@testable import StrideLedger

/// Random sequences of rack changes, assignments and ingests; after each step every shoe's
/// audit adds up to its figure, a refused command appends nothing, and the stored state is
/// what a rebuild gives.
@Suite("Mileage under random sequences of commands")
struct MileagePropertyTests {
    func check(_ ledger: Ledger, step: Int) throws {
        let workouts = try ledger.workouts(from: nil, through: nil, unassignedOnly: false)
        for view in try ledger.shoes() {
            let total = try ledger.audit(of: view.shoe).reduce(0) { $0 + $1.kilometers }
            #expect(
                abs(total - view.shoe.kilometers) < 1e-9, "step \(step): \(view.shoe.name)'s audit adds up to \(total), not \(view.shoe.kilometers)")
            let runs = workouts.filter { $0.shoe == view.shoe.id }
            #expect(runs.count == view.shoe.runs, "step \(step): \(view.shoe.name)")
            let expected = view.shoe.startKilometers + runs.reduce(0) { $0 + $1.kilometers }
            #expect(abs(expected - view.shoe.kilometers) < 1e-9, "step \(step): \(view.shoe.name)")
        }
    }

    @Test("audits add up, refusals append nothing, and rebuilds agree", arguments: [UInt64(1), 2, 3])
    func randomSequences(seed: UInt64) throws {
        try withTemporaryDirectory { (folder: String) throws in
            let ledger = try Ledger.create(at: folder + "/ledger", timeZone: "Europe/Paris", clock: SystemClock())
            var random = SeededGenerator(state: seed)
            var shoeNames: [String] = []
            var runCount = 0
            let base = Timestamp(secondsSince1970: 1_714_500_000)
            for step in 0..<120 {
                let before = try ledger.store.lastSequence()
                let at = base.adding(milliseconds: Int64(step) * 3_600_000)
                let workouts = try ledger.workouts(from: nil, through: nil, unassignedOnly: false)
                do {
                    switch random.next(8) {
                    case 0 where shoeNames.count < 5, 1 where shoeNames.isEmpty:
                        let name = "Shoe \(shoeNames.count + 1)"
                        try ledger.registerShoe(
                            name: name, brand: nil, startKilometers: Double(random.next(50)), goalKilometers: 40,
                            makeDefault: random.next(2) == 0, at: at)
                        shoeNames.append(name)
                    case 2:
                        try ledger.setDefaultShoe(random.next(4) == 0 ? nil : shoeNames.element(drawnBy: &random), at: at)
                    case 3 where !workouts.isEmpty && !shoeNames.isEmpty, 4 where !workouts.isEmpty && !shoeNames.isEmpty:
                        let workout = workouts[random.next(workouts.count)]
                        try ledger.assign(workout: Ledger.workoutID(workout.id), to: shoeNames[random.next(shoeNames.count)], at: at)
                    case 5 where !workouts.isEmpty:
                        try ledger.unassign(workout: Ledger.workoutID(workouts[random.next(workouts.count)].id), at: at)
                    case 6 where !shoeNames.isEmpty:
                        try ledger.setRetired(shoeNames[random.next(shoeNames.count)], random.next(2) == 0, at: at)
                    default:
                        runCount += 1
                        let start = at.adding(milliseconds: Int64(random.next(7_200_000)) - 3_600_000)
                        let line =
                            "{\"activity\":\"HKWorkoutActivityTypeRunning\",\"start\":\"\(start)\",\"end\":\"\(start.adding(milliseconds: 1_800_000))\",\"distance\":\(Double(random.next(20_000)) / 1000),\"distanceUnit\":\"km\",\"id\":\"run-\(runCount)\"}\n"
                        let file = folder + "/run-\(runCount).ndjson"
                        try line.write(toFile: file, atomically: true, encoding: .utf8)
                        _ = try ledger.ingest(file: file)
                    }
                } catch let refusal as ShoeError {
                    #expect(try ledger.store.lastSequence() == before, "step \(step): \(refusal) appended something")
                }
                try check(ledger, step: step)
                if step % 20 == 19 {
                    #expect(try ledger.verifyProjections().allSatisfy(\.matches), "step \(step)")
                }
            }
            let stored = try ledger.shoes().map(\.shoe)
            _ = try ledger.rebuild()
            #expect(try ledger.shoes().map(\.shoe) == stored)
        }
    }
}

extension SeededGenerator {
    /// A number below `bound`: the next value modulo the bound (the inputs stay those of every
    /// earlier run of a seed).
    fileprivate mutating func next(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}

extension Array {
    fileprivate func element(drawnBy random: inout SeededGenerator) -> Element? {
        isEmpty ? nil : self[random.next(count)]
    }
}
