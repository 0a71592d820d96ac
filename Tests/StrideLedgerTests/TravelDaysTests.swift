import DailyHealth
import Foundation
import StrideContract
import StrideEvents
import StrideTestSupport
import Testing

@testable import StrideLedger

/// Days cut where they were lived: a period the runner sets moves its days, and only those.
@Suite("Days cut in the zone the runner lived them")
struct TravelDaysTests {
    /// 1,000 steps every two hours, at :05 UTC, from 1 April 2024 00:05 UTC to 9 April 22:05:
    /// 108 samples, 12 a UTC day.
    static func steps() -> [String] {
        (0..<108).map { index in
            let start = Timestamp(secondsSince1970: 1_711_929_600 + Int64(index) * 7_200 + 300)
            let end = start.adding(milliseconds: 600_000)
            return
                #"{"type":"HKQuantityTypeIdentifierStepCount","start":"\#(ISO8601.format(start, offsetSeconds: 0))","end":"\#(ISO8601.format(end, offsetSeconds: 0))","value":1000,"unit":"count","device":"phone","id":"s\#(index)"}"#
        }
    }

    /// A night in Tokyo: asleep 2024-04-05 22:30 to 06:30 Tokyo time (13:30–21:30 UTC on the 5th).
    static let night =
        #"{"type":"HKCategoryTypeIdentifierSleepAnalysis","start":"2024-04-05T13:30:00Z","end":"2024-04-05T21:30:00Z","value":"HKCategoryValueSleepAnalysisAsleepUnspecified","device":"watch","id":"n1"}"#

    static func ledger(in folder: String, zone: String = "Europe/London") throws -> Ledger {
        let ledger = try Ledger.create(at: folder + "/ledger", timeZone: zone)
        let file = folder + "/samples.ndjson"
        try (steps() + [night]).joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
        _ = try ledger.ingest(file: file)
        return ledger
    }

    /// Each day's document (`daily --json`'s day), by date.
    static func documents(_ ledger: Ledger) throws -> [String: String] {
        let days = try DailyDocument(ledger, from: nil, through: nil).days
        return Dictionary(
            uniqueKeysWithValues: try days.map { ($0.date.description, try DailyDocument(ledger, from: $0.date, through: $0.date).json.text) })
    }

    @Test("Tokyo from 4 to 7 April in a London ledger: 3 April lasts 16 hours, 6 April 32; every other day byte for byte as before; steps still sum")
    func periodMovesOnlyItsDays() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Self.ledger(in: folder)
            let before = try Self.documents(ledger)
            let (sequence, _) = try ledger.addTravel(zone: "Asia/Tokyo", from: CivilDate("2024-04-04")!, to: CivilDate("2024-04-07")!)
            let records = try ledger.dailyRecords(from: nil, through: nil)
            let steps = Dictionary(uniqueKeysWithValues: records.map { ($0.date.description, $0.steps?.value ?? 0) })
            // London midnight of the 3rd (23:00 UTC on the 2nd) to Tokyo midnight of the 4th
            // (15:00 UTC on the 3rd): 16 hours, 8 samples. Tokyo midnight of the 6th (15:00 UTC
            // on the 5th) to London midnight of the 7th (23:00 UTC on the 6th): 32 hours, 16.
            #expect(steps["2024-04-03"] == 8_000)
            #expect(steps["2024-04-04"] == 12_000)
            #expect(steps["2024-04-05"] == 12_000)
            #expect(steps["2024-04-06"] == 16_000)
            #expect(steps.values.reduce(0, +) == 108_000)
            let lived = Dictionary(uniqueKeysWithValues: records.compactMap { record in record.lived.map { (record.date.description, $0) } })
            #expect(lived["2024-04-03"]?.hours == 16)
            #expect(lived["2024-04-03"]?.zone == "Europe/London")
            #expect(lived["2024-04-04"]?.place == "Tokyo, UTC+9")
            #expect(lived["2024-04-06"]?.hours == 32)
            #expect(Set(lived.keys) == ["2024-04-03", "2024-04-04", "2024-04-05", "2024-04-06"])
            // The Tokyo night (22:30–06:30 local) is the night before the 6th, in Tokyo's window.
            #expect(records.first { $0.date.description == "2024-04-06" }?.sleep?.asleep == 8 * 3_600)
            let after = try Self.documents(ledger)
            let moved: Set<String> = ["2024-04-03", "2024-04-04", "2024-04-05", "2024-04-06", "2024-04-07"]
            for (date, document) in before where !moved.contains(date) {
                #expect(after[date] == document, "\(date) moved")
            }
            // Taken back, every day is as it was, byte for byte.
            try ledger.removeTravel(period: sequence)
            #expect(try Self.documents(ledger) == before)
        }
    }

    @Test("rebuilt, the days are the same; as recorded before the period, they are cut at home")
    func rebuildAndReplay() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Self.ledger(in: folder)
            let homeDays = try ledger.dailyRecords(from: nil, through: nil)
            let beforeTravel = try ledger.store.lastSequence()
            try ledger.addTravel(zone: "Asia/Tokyo", from: CivilDate("2024-04-04")!, to: CivilDate("2024-04-07")!)
            let travelDays = try Self.documents(ledger)
            _ = try ledger.rebuild()
            #expect(try Self.documents(Ledger.open(at: folder + "/ledger")) == travelDays)
            #expect(try ledger.replay(through: beforeTravel).days == homeDays)
            let now = try ledger.replay(through: .max).days
            #expect(now.first { $0.date.description == "2024-04-06" }?.steps?.value == 16_000)
        }
    }

    @Test("points follow the days: the 16-hour day's award is reversed, the 32-hour day's tier is reached; the day's zone is explained")
    func pointsAndExplain() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Self.ledger(in: folder)
            #expect(try ledger.pointsHistory().filter { $0.kind == .reversal }.isEmpty)
            let (sequence, _) = try ledger.addTravel(zone: "Asia/Tokyo", from: CivilDate("2024-04-04")!, to: CivilDate("2024-04-07")!)
            // Tiers at 1,000, 5,000 and 10,000 steps: the 3rd's 8,000 no longer reach the last;
            // the 6th's 16,000 reach what its 12,000 did.
            let reversals = try ledger.pointsHistory().filter { $0.kind == .reversal }
            #expect(reversals.map { "\($0.day?.description ?? "") \($0.rule)" } == ["2024-04-03 steps10000"])
            let explained = try ledger.explainTravel(on: CivilDate("2024-04-05")!)
            #expect(explained.zone == "Asia/Tokyo")
            if case .runner(let by, _) = explained.reason { #expect(by == sequence) } else { Issue.record("not the runner's period") }
            #expect(try ledger.explainTravel(on: CivilDate("2024-04-09")!).zone == "Europe/London")
            #expect(try ledger.explainTravel(on: CivilDate("2024-04-03")!).hours == 16)
        }
    }

    @Test(
        "a zone the runner names is refused when unknown, a period ending before it starts is refused; nothing is appended",
        arguments: [("Mars/Olympus", "2024-04-04", "2024-04-07"), ("Asia/Tokyo", "2024-04-07", "2024-04-04"), ("Asia/Tokyo", "1999-12-31", nil)])
    func refusals(zone: String, from: String, to: String?) throws {
        try withTemporaryDirectory { folder in
            let ledger = try Ledger.create(at: folder + "/ledger", timeZone: "Europe/London")
            let last = try ledger.store.lastSequence()
            #expect(throws: (any Error).self) {
                try ledger.addTravel(zone: zone, from: CivilDate(from)!, to: to.flatMap(CivilDate.init))
            }
            #expect(try ledger.store.lastSequence() == last)
        }
    }

    /// A 30-minute run's FIT file from 2024-03-09T23:36:00Z (06:36 on the 10th in Bangkok), its
    /// `activity` message's `local_timestamp` 7 hours ahead of its `timestamp`.
    static func bangkokRun() -> [UInt8] {
        let (u16, u32) = (FITTestFile.littleEndian16, FITTestFile.littleEndian32)
        let started: UInt32 = 1_710_027_360 - 631_065_600
        var messages: [UInt8] = [0x40, 0, 0] + u16(0) + [3, 0, 1, 0x00, 3, 4, 0x8C, 4, 4, 0x86]
        messages += [0, 4] + u32(4242) + u32(started)
        // session: timestamp, start_time, sport (1: running), total_elapsed_time (ms)
        messages += [0x41, 0, 0] + u16(18) + [4, 253, 4, 0x86, 2, 4, 0x86, 5, 1, 0x00, 7, 4, 0x86]
        messages += [1] + u32(started + 1800) + u32(started) + [1] + u32(1_800_000)
        // activity: timestamp, local_timestamp
        messages += [0x42, 0, 0] + u16(34) + [2, 253, 4, 0x86, 5, 4, 0x86]
        messages += [2] + u32(started + 1800) + u32(started + 1800 + 25_200)
        return FITTestFile.file(messages)
    }

    @Test(
        "a FIT run at 06:36 in Bangkok counts on 10 March and prints at +07:00, in a ledger kept in London, Los Angeles or Tokyo",
        arguments: ["Europe/London", "America/Los_Angeles", "Asia/Tokyo"])
    func runOnItsOwnDate(home: String) throws {
        try withTemporaryDirectory { folder in
            let ledger = try Ledger.create(at: folder + "/ledger", timeZone: home)
            let file = folder + "/run.fit"
            try Data(Self.bangkokRun()).write(to: URL(fileURLWithPath: file))
            let report = try ledger.ingest(file: file)
            #expect(report.counts.workouts == 1)
            #expect(report.zones.observations == 1)
            let run = try #require(try ledger.workouts(from: nil, through: nil, unassignedOnly: false).first)
            #expect(ledger.day(ofRunStartingAt: run.start).description == "2024-03-10")
            #expect(try WorkoutsDocument(ledger).time.format(run.start) == "2024-03-10T06:36:00+07:00")
            // Listed on its own date, and the training log's run is of that date.
            let tenth = try #require(CivilDate("2024-03-10"))
            #expect(try WorkoutsDocument(ledger, from: tenth, through: tenth).workouts.count == 1)
            #expect(try ledger.trainingView().runs.map(\.day.description) == ["2024-03-10"])
            // One run's clock is evidence, not a move: no day is cut in Bangkok.
            #expect(try ledger.travelPlan().timeline.isEmpty)
        }
    }

    @Test(
        "learned later: a Health export whose runs name Asia/Tokyo on 4 and 5 April re-cuts those days of a London ledger in its own ingest, re-decides their awards and says so"
    )
    func learnedLater() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Self.ledger(in: folder)
            let before = try Self.documents(ledger)
            // Two runs in Tokyo, 07:00 local on the 4th and the 5th (22:00 UTC the day before).
            func run(_ day: Int) -> String {
                let metadata = #"<MetadataEntry key="HKTimeZone" value="Asia/Tokyo"/>"#
                return
                    #" <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" totalDistance="5" totalDistanceUnit="km" sourceName="Watch" sourceVersion="10" creationDate="2024-04-0\#(day) 07:31:00 +0900" startDate="2024-04-0\#(day) 07:00:00 +0900" endDate="2024-04-0\#(day) 07:30:00 +0900">\#(metadata)</Workout>"#
            }
            let export = folder + "/export.xml"
            try (["<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "<HealthData locale=\"en_GB\">", run(4), run(5), "</HealthData>", ""]).joined(
                separator: "\n"
            )
            .write(toFile: export, atomically: true, encoding: .utf8)
            let report = try ledger.ingest(file: export)
            // Tokyo from the 4th until the 6th: the 3rd ends at Tokyo's midnight (16 h), the 5th
            // ends at London's midnight of the 6th (32 h), the 6th's night began in Tokyo.
            #expect(report.zones.observations == 2)
            #expect(report.zones.daysMoved.map(\.description).sorted() == ["2024-04-03", "2024-04-04", "2024-04-05", "2024-04-06"])
            #expect(
                try ledger.travelPlan().timeline.map(\.description) == [
                    ZonePeriod(TimeZone(identifier: "Asia/Tokyo")!, from: CivilDate("2024-04-04")!, to: CivilDate("2024-04-06")!).description
                ])
            let steps = Dictionary(
                uniqueKeysWithValues: try ledger.dailyRecords(from: nil, through: nil).map { ($0.date.description, $0.steps?.value ?? 0) })
            #expect(steps["2024-04-03"] == 8_000 && steps["2024-04-04"] == 12_000 && steps["2024-04-05"] == 16_000)
            #expect(steps.values.reduce(0, +) == 108_000)
            #expect(
                report.stepReversals.map { "\($0.day) \($0.rule) \($0.reason)" } == [
                    "2024-04-03 steps10000 its steps are now 8,000 (the day is now cut in the zone it was lived in)"
                ])
            let after = try Self.documents(ledger)
            for (date, document) in before where !["2024-04-03", "2024-04-04", "2024-04-05", "2024-04-06"].contains(date) {
                #expect(after[date] == document, "\(date) moved")
            }
            if case .inputs(let period) = try ledger.explainTravel(on: CivilDate("2024-04-05")!).reason {
                #expect(period.zone.identifier == "Asia/Tokyo")
            } else {
                Issue.record("the 5th's zone is not the inputs'")
            }
            // The same export again learns nothing and moves nothing.
            let again = try ledger.ingest(file: export)
            #expect(again.zones.observations == 0 && again.zones.daysMoved.isEmpty)
        }
    }

    @Test(
        "a zone named at an instant no sample can have (1970, 9999) is no evidence: kept in the sample, not learned",
        arguments: ["1970-01-02", "9999-01-02"])
    func implausibleInstants(date: String) throws {
        try withTemporaryDirectory { folder in
            let ledger = try Ledger.create(at: folder + "/ledger", timeZone: "Europe/London")
            let metadata = #"<MetadataEntry key="HKTimeZone" value="Asia/Tokyo"/>"#
            let records = [1, 2, 3].map { hour in
                #" <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" startDate="\#(date) 0\#(hour):00:00 +0900" endDate="\#(date) 0\#(hour):10:00 +0900" value="100">\#(metadata)</Record>"#
            }
            let export = folder + "/export.xml"
            try (["<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "<HealthData locale=\"en_GB\">"] + records + ["</HealthData>", ""]).joined(
                separator: "\n"
            )
            .write(toFile: export, atomically: true, encoding: .utf8)
            let report = try ledger.ingest(file: export)
            #expect(report.counts.samples == 3)
            #expect(report.zones.observations == 0)
            #expect(try ledger.travelPlan().observations == 0)
        }
    }
}
