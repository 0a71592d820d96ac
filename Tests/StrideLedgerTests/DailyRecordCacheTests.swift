import DailyHealth
import Foundation
import StrideEvents
import StrideTestSupport
import Testing

@testable import StrideLedger

/// The daily records a ledger keeps between reads: always the records its facts give now.
@Suite("Daily records kept while their facts are unchanged")
struct DailyRecordCacheTests {
    @Test(
        "the days a read misses are computed in stretches of consecutive days, across a month's and a year's end",
        arguments: [
            ([String](), [String]()),
            (["2024-05-03"], ["2024-05-03…2024-05-03"]),
            (["2024-05-01", "2024-05-02", "2024-05-03"], ["2024-05-01…2024-05-03"]),
            (["2024-01-10", "2024-05-31", "2024-06-01"], ["2024-01-10…2024-01-10", "2024-05-31…2024-06-01"]),
            (["2023-12-31", "2024-01-01", "2024-01-03"], ["2023-12-31…2024-01-01", "2024-01-03…2024-01-03"]),
        ])
    func stretches(days: [String], expected: [String]) throws {
        let dates = try days.map { try #require(CivilDate($0)) }
        #expect(Ledger.stretches(of: dates).map { "\($0.first)…\($0.last)" } == expected)
    }

    static func steps(_ day: Int, _ hour: Int, _ value: Int, id: String) -> String {
        let start = String(format: "2024-05-%02dT%02d:00:00+02:00", day, hour)
        let end = String(format: "2024-05-%02dT%02d:30:00+02:00", day, hour)
        return
            #"{"type":"HKQuantityTypeIdentifierStepCount","start":"\#(start)","end":"\#(end)","value":\#(value),"unit":"count","device":"phone","id":"\#(id)"}"#
    }

    static func ingest(_ lines: [String], into ledger: Ledger, folder: String) throws {
        let file = folder + "/batch-\(UUID().uuidString).ndjson"
        try lines.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
        _ = try ledger.ingest(file: file)
    }

    /// The records as a ledger opened afresh (an empty cache) computes them.
    static func fresh(_ folder: String, _ from: CivilDate, _ to: CivilDate) throws -> [DailyRecord] {
        try Ledger.open(at: folder + "/ledger").dailyRecords(from: from, through: to)
    }

    @Test("after new samples on one day and a withdrawal on another, the kept ledger reads what a fresh one computes; other days unchanged")
    func staysRight() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Ledger.create(at: folder + "/ledger", timeZone: "Europe/Paris")
            try Self.ingest((1...5).map { Self.steps($0, 9, 1_000 * $0, id: "a\($0)") }, into: ledger, folder: folder)
            let (from, to) = (CivilDate(year: 2024, month: 5, day: 1), CivilDate(year: 2024, month: 5, day: 5))
            let first = try ledger.dailyRecords(from: from, through: to)
            #expect(first.map { $0.steps?.value } == [1_000, 2_000, 3_000, 4_000, 5_000])
            #expect(try ledger.dailyRecords(from: from, through: to) == first)

            try Self.ingest([Self.steps(3, 15, 700, id: "b3")], into: ledger, folder: folder)
            let second = try ledger.dailyRecords(from: from, through: to)
            #expect(second.map { $0.steps?.value } == [1_000, 2_000, 3_700, 4_000, 5_000])
            #expect(second == (try Self.fresh(folder, from, to)))

            let explained = try #require(try ledger.explainDay(CivilDate(year: 2024, month: 5, day: 2), measures: [.steps]).measures.first)
            let sample = try #require(explained.samples.first)
            _ = try ledger.withdrawSamples([sample.id], reason: "a car ride", at: nil)
            let third = try ledger.dailyRecords(from: from, through: to)
            #expect(third.map(\.date) == [1, 3, 4, 5].map { CivilDate(year: 2024, month: 5, day: $0) })
            #expect(third == (try Self.fresh(folder, from, to)))
            // A narrower and a wider range read the same days alike.
            #expect(
                try ledger.dailyRecords(from: CivilDate(year: 2024, month: 5, day: 3), through: CivilDate(year: 2024, month: 5, day: 3)) == [third[1]]
            )
            #expect(try ledger.dailyRecords(from: CivilDate(year: 2024, month: 4, day: 1), through: CivilDate(year: 2024, month: 6, day: 1)) == third)
        }
    }

    @Test("a ledger's first read computes its range in one pass and keeps each day at the version dayVersions reads")
    func firstReadKeepsVersions() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Ledger.create(at: folder + "/ledger", timeZone: "Europe/Paris")
            try Self.ingest((1...4).map { Self.steps($0, 9, 500 * $0, id: "v\($0)") }, into: ledger, folder: folder)
            let opened = try Ledger.open(at: folder + "/ledger")
            let (from, to) = (CivilDate(year: 2024, month: 5, day: 1), CivilDate(year: 2024, month: 5, day: 4))
            #expect(opened.dailyRecordCache.isEmpty)
            let first = try opened.dailyRecords(from: from, through: to)
            #expect(first.map { $0.steps?.value } == [500, 1_000, 1_500, 2_000])
            let looked = opened.dailyRecordCache.lookUp(try opened.dayVersions(from: from, through: to))
            #expect(looked.missing.isEmpty)
            #expect(looked.known.count == 4)
            #expect(try opened.dailyRecords(from: from, through: to) == first)
        }
    }

    @Test("a day's version changes with every change to its facts, and only its own")
    func versions() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Ledger.create(at: folder + "/ledger", timeZone: "Europe/Paris")
            try Self.ingest([Self.steps(1, 9, 100, id: "x1"), Self.steps(2, 9, 100, id: "x2")], into: ledger, folder: folder)
            let days = (CivilDate(year: 2024, month: 5, day: 1), CivilDate(year: 2024, month: 5, day: 2))
            let before = try ledger.dayVersions(from: days.0, through: days.1)
            try Self.ingest([Self.steps(2, 10, 100, id: "x3")], into: ledger, folder: folder)
            let after = try ledger.dayVersions(from: days.0, through: days.1)
            #expect(after[days.0] == before[days.0])
            #expect(after[days.1] != before[days.1])
            #expect((after[days.1]?.lastSequence ?? 0) > (before[days.1]?.lastSequence ?? 0))
        }
    }

    @Test("the workouts kept between reads follow an assignment and a new run at once")
    func workouts() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Ledger.create(at: folder + "/ledger", timeZone: "Europe/Paris")
            let run =
                #"{"activity":"HKWorkoutActivityTypeRunning","start":"2024-05-0DT07:00:00+02:00","end":"2024-05-0DT07:30:00+02:00","distance":5,"distanceUnit":"km","source":"Strava"}"#
            try Self.ingest([run.replacingOccurrences(of: "0D", with: "01")], into: ledger, folder: folder)
            let (from, to) = (CivilDate(year: 2024, month: 5, day: 1), CivilDate(year: 2024, month: 5, day: 9))
            let before = try ledger.workouts(from: from, through: to, unassignedOnly: false)
            #expect(before.count == 1 && before.first?.shoe == nil)
            _ = try ledger.registerShoe(name: "Pegasus 40", brand: nil, startKilometers: 0, goalKilometers: nil, makeDefault: false, at: nil)
            let id = try #require(before.first.map { Ledger.workoutID($0.id) })
            try ledger.assign(workout: id, to: "Pegasus 40", at: nil)
            #expect(try ledger.workouts(from: from, through: to, unassignedOnly: false).first?.shoe != nil)
            #expect(try ledger.workouts(from: from, through: to, unassignedOnly: true).isEmpty)
            try Self.ingest([run.replacingOccurrences(of: "0D", with: "03")], into: ledger, folder: folder)
            #expect(try ledger.workouts(from: from, through: to, unassignedOnly: false).count == 2)
            #expect(try ledger.workouts(from: CivilDate(year: 2024, month: 5, day: 2), through: to, unassignedOnly: false).count == 1)
        }
    }
}
