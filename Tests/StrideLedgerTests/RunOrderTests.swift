import Foundation
import ShoeMileage
import StrideContract
import StrideEvents
import StrideIngest
import StrideTestSupport
import Testing

@testable import StrideLedger

/// Every run counted once and never two runs as one, whatever order the files arrive in: the
/// shapes real archives hold (hand-entered reps whose times overlap, two recordings at once, a
/// workout left running for two days, one run from an archive, a watch and the Health app),
/// with hand-computed totals, and random sets of recordings in random orders.
@Suite("Every run once, in any order")
struct RunOrderTests {
    typealias Recording = RunFiles.Recording

    static let clock = FixedClock(Timestamp(secondsSince1970: 1_717_200_000))  // 2024-06-01

    /// A ledger whose rack holds Pegasus 40, the default since the start of 2024.
    static func ledger(_ folder: String) throws -> Ledger {
        let ledger = try Ledger.create(at: folder, timeZone: "Europe/Berlin", clock: clock)
        try ledger.registerShoe(
            name: "Pegasus 40", brand: nil, startKilometers: 0, goalKilometers: nil, makeDefault: true, at: ISO8601.parse("2024-01-01T00:00:00Z"))
        return ledger
    }

    static func at(_ text: String) -> Timestamp { ISO8601.parse(text) ?? Timestamp(secondsSince1970: 0) }

    static let pegasus = (name: "Pegasus 40", id: "111")
    static let novablast = (name: "Novablast", id: "222")

    /// The shapes, as Strava, Garmin Connect, the watch and the Health app write them.
    static let shapes: RunFiles = {
        var files = RunFiles()
        // Hand-entered interval reps whose rough times overlap, in Strava and (written there
        // by Strava) in the Health app: three runs.
        for (index, minute) in [0, 4, 8].enumerated() {
            let rep = Recording(start: at("2024-03-04T10:0\(minute):00Z"), seconds: 300, kilometres: 1, gear: pegasus)
            files.strava.append(rep)
            files.health.append(("Strava", Recording(start: rep.start, seconds: 300, kilometres: 1)))
            _ = index
        }
        // Two runs on two shoes inside a workout the watch left running for two days.
        files.strava.append(Recording(start: at("2024-03-10T08:00:00Z"), seconds: 1_800, kilometres: 5.4, gear: pegasus))
        files.strava.append(Recording(start: at("2024-03-11T08:00:00Z"), seconds: 1_800, kilometres: 5.4, gear: novablast))
        let twoDays = Recording(start: at("2024-03-10T07:00:00Z"), seconds: 172_800, kilometres: 5)
        // One run recorded by Strava, the watch and the Health app.
        files.strava.append(Recording(start: at("2024-03-12T07:00:00Z"), seconds: 2_400, kilometres: 8, gear: novablast))
        let watchCopy = Recording(start: at("2024-03-12T07:01:00Z"), seconds: 2_340, kilometres: 8.02)
        files.health.append(("Connect", Recording(start: at("2024-03-12T07:00:30Z"), seconds: 2_370, kilometres: 7.99)))
        // Two activities recorded at once, with different distances: 24 min / 4.2 km (Garmin)
        // beside 47 min / 8 km (the watch), sharing 15 minutes.
        files.garmin.append(Recording(start: at("2024-03-15T07:00:00Z"), seconds: 1_440, kilometres: 4.2, gear: (name: "Pegasus 40", id: "11")))
        let atOnce = Recording(start: at("2024-03-15T07:09:00Z"), seconds: 2_820, kilometres: 8)
        // A warm-up and a race back to back, by the watch and the Health app.
        let warmUp = Recording(start: at("2024-03-20T09:00:00Z"), seconds: 1_200, kilometres: 3)
        let race = Recording(start: at("2024-03-20T09:20:00Z"), seconds: 1_200, kilometres: 5)
        files.health.append(("Connect", Recording(start: at("2024-03-20T09:00:05Z"), seconds: 1_195, kilometres: 3.01)))
        files.health.append(("Connect", Recording(start: at("2024-03-20T09:20:05Z"), seconds: 1_195, kilometres: 4.98)))
        files.watchFiles = [[twoDays, watchCopy], [atOnce, warmUp, race]]
        return files
    }()

    /// The documents the figures are read from: mileage, workouts, training weeks.
    static func documents(_ ledger: Ledger) throws -> [String] {
        [
            try ShoesDocument(ledger).json.text, try WorkoutsDocument(ledger).json.text,
            try TrainingVolumeDocument(ledger, per: .week, TrainingQuery()).json.text,
        ]
    }

    @Test("the shapes, in every order of their five files: hand-computed shoes, every run once, byte-identical documents")
    func shapesInEveryOrder() throws {
        try withTemporaryDirectory { folder in
            let paths = try Self.shapes.write(in: folder + "/files")
            #expect(paths.count == 5)
            var first: [String]?
            for (index, order) in RunFiles.orders(paths).enumerated() {
                let ledger = try Self.ledger(folder + "/ledger-\(index)")
                for path in order { _ = try ledger.ingest(file: path) }
                let shoes = Dictionary(uniqueKeysWithValues: try ledger.shoes().map { ($0.shoe.name, $0.shoe) })
                let names = order.map { ($0 as NSString).lastPathComponent }
                // Pegasus: three reps of 1 km, the run inside the two-day span (5.4), Garmin's
                // 4.2, and on the default shoe the watch's 8 km, its two-day workout (5), the
                // warm-up (3) and the race (5) counted from its file: 33.6 km in 9 runs.
                #expect(abs((shoes["Pegasus 40"]?.kilometers ?? 0) - 33.6) < 1e-9, "\(names)")
                #expect(shoes["Pegasus 40"]?.runs == 9, "\(names)")
                // Novablast: the other run inside the span (5.4) and the run of three copies,
                // counted from Strava's row (8): 13.4 km in 2 runs.
                #expect(abs((shoes["Novablast"]?.kilometers ?? 0) - 13.4) < 1e-9, "\(names)")
                #expect(shoes["Novablast"]?.runs == 2, "\(names)")
                let workouts = try ledger.workouts(from: nil, through: nil, unassignedOnly: false)
                #expect(workouts.count == 18, "\(names)")
                #expect(workouts.filter { $0.runOf == nil }.count == 11, "\(names)")
                // No run holds two activities of one archive.
                for record in workouts where record.runOf == nil {
                    let members = workouts.filter { $0.run == record.id }
                    #expect(members.count { $0.source == "archive:Strava" } <= 1, "\(names)")
                }
                let documents = try Self.documents(ledger)
                if let first { #expect(documents == first, "\(names)") } else { first = documents }
                #expect(try ledger.verifyProjections().allSatisfy(\.matches), "\(names)")
            }
        }
    }

    @Test(
        "random recordings from five sources — copies offset and noisy, runs back to back, long spans — give the same documents in any order",
        arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func randomOrders(seed: UInt64) throws {
        // (Seeds chosen as they come; each run takes about half a second.)
        var random = SeededGenerator(state: seed)
        var files = RunFiles()
        files.watchFiles = [[], []]
        var start = Self.at("2024-02-01T06:00:00Z")
        for effort in 0..<24 {
            let seconds = 60 * Int.random(in: 15...80, using: &random)
            let kilometres = Double(Int.random(in: 300...1_600, using: &random)) / 100
            let gear = [nil, Self.pegasus, Self.novablast][Int.random(in: 0..<3, using: &random)]
            func copy() -> Recording {
                // Mostly a minute or two apart; now and then far enough that the copies of one
                // run share less than the rule's share, or only some of them do.
                let far = Int.random(in: 0..<4, using: &random) == 0
                let shift = Int64(Int.random(in: far ? -seconds / 3...seconds / 3 : -120...120, using: &random)) * 1000
                let stretch = Int.random(in: far ? -seconds / 4...seconds / 4 : -90...90, using: &random)
                let noise = 1 + Double(Int.random(in: -20...20, using: &random)) / 1000
                return Recording(
                    start: start.adding(milliseconds: shift), seconds: seconds + stretch, kilometres: (kilometres * noise * 100).rounded() / 100)
            }
            if effort % 7 == 3 {
                // A workout left running: hours long, a few kilometres.
                files.watchFiles[0].append(Recording(start: start, seconds: 3_600 * Int.random(in: 5...40, using: &random), kilometres: 4))
            }
            if Bool.random(using: &random) { files.strava.append(Recording(start: start, seconds: seconds, kilometres: kilometres, gear: gear)) }
            if Int.random(in: 0..<3, using: &random) == 0 {
                var garmin = copy()
                garmin.gear = Bool.random(using: &random) ? (name: "Pegasus 40", id: "11") : nil
                files.garmin.append(garmin)
            }
            if Bool.random(using: &random) { files.watchFiles[effort % 2].append(copy()) }
            if Bool.random(using: &random) { files.health.append((Bool.random(using: &random) ? "Connect" : "Strava", copy())) }
            if Int.random(in: 0..<4, using: &random) == 0 { files.app.append(copy()) }
            // The next effort: back to back, or hours or days later.
            let gap = [0, 0, 3_600, 86_400, 3 * 86_400][Int.random(in: 0..<5, using: &random)]
            start = start.adding(milliseconds: Int64(seconds + gap) * 1000)
        }
        try withTemporaryDirectory { folder in
            let paths = try files.write(in: folder + "/files")
            var orders = [paths, paths.reversed()]
            for _ in 0..<4 { orders.append(paths.shuffled(using: &random)) }
            var first: [String]?
            for (index, order) in orders.enumerated() {
                let ledger = try Self.ledger(folder + "/ledger-\(index)")
                for path in order { _ = try ledger.ingest(file: path) }
                let documents = try Self.documents(ledger)
                let names = order.map { ($0 as NSString).lastPathComponent }
                // Not a vacuous set: copies joined, runs on both shoes.
                let workouts = try ledger.workouts(from: nil, through: nil, unassignedOnly: false)
                #expect(workouts.count { $0.runOf != nil } >= 10, "seed \(seed)")
                #expect(try ledger.shoes().reduce(0) { $0 + $1.shoe.runs } >= 10, "seed \(seed)")
                if let first {
                    for (kind, pair) in zip(["mileage", "workouts", "training weeks"], zip(documents, first)) {
                        #expect(pair.0 == pair.1, "seed \(seed), \(kind), order \(names)")
                    }
                } else {
                    first = documents
                }
            }
        }
    }
}
