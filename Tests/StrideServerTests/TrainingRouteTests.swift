import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import StrideEvents
import StrideLedger
import StrideTestSupport
import Testing

@testable import StrideServer

/// The training log over HTTP on a ledger with a run's stream (a FIT file written byte by byte),
/// each figure computed by hand in the test, not by the code that makes the documents.
@Suite("GET /v1/training/* on a run with its stream")
struct TrainingRouteTests {
    /// The run's first reading, in FIT time (seconds since 1989-12-31T00:00:00Z):
    /// 2024-03-05T07:00:00Z, a Tuesday of ISO week 2024-W10.
    static let start: UInt32 = 1_709_622_000 - 631_065_600

    /// A FIT run of 1,000 s: a record a second (1,001) at 4 m/s, heart rate 150, and its
    /// running session of 4,000 m.
    static func run() -> [UInt8] {
        let (u16, u32) = (FITTestFile.littleEndian16, FITTestFile.littleEndian32)
        // file_id: type (4, an activity), serial number, time created.
        var messages: [UInt8] = [0x40, 0, 0] + u16(0) + [3, 0, 1, 0x00, 3, 4, 0x8C, 4, 4, 0x86]
        messages += [0, 4] + u32(4242) + u32(start)
        // record: timestamp, distance (centimetres), heart rate.
        messages += [0x42, 0, 0] + u16(20) + [3, 253, 4, 0x86, 5, 4, 0x86, 3, 1, 0x02]
        for second in 0...UInt32(1000) { messages += [2] + u32(start + second) + u32(second * 400) + [150] }
        // session: sport (1, running), total distance (cm), end, start, elapsed (ms).
        messages += [0x41, 0, 0] + u16(18) + [5, 5, 1, 0x00, 9, 4, 0x86, 253, 4, 0x86, 2, 4, 0x86, 7, 4, 0x86]
        messages += [1, 1] + u32(400_000) + u32(start + 1000) + u32(start) + u32(1_000_000)
        return FITTestFile.file(messages)
    }

    /// A server whose ledger holds the run (sent to `POST /v1/ingest`) and heart-rate settings of
    /// 190 maximum and 50 resting; `body` gets the client and the sequence before the run.
    static func with(_ body: @escaping @Sendable (any TestClientProtocol, UInt64) async throws -> Void) async throws {
        try await ServerFixture.with { fixture in
            try fixture.ledger.setAthlete(maximumHeartRate: 190, restingHeartRate: 50, from: nil)
            let beforeRun = try fixture.ledger.lastSequence()
            try await fixture.server.makeApplication().test(.router) { client in
                let ingest = try await client.execute(
                    uri: "/v1/ingest", method: .post, headers: ServerFixture.headers(contentType: "application/vnd.ant.fit"),
                    body: ByteBuffer(bytes: Self.run()))
                #expect(ingest.status == .ok, "\(ingest.text)")
                try await body(client, beforeRun)
            }
        }
    }

    static func get(_ client: some TestClientProtocol, _ uri: String) async throws -> [String: Any] {
        let response = try await client.execute(uri: uri, method: .get, headers: ServerFixture.headers())
        #expect(response.status == .ok, "\(uri): \(response.text)")
        return response.object
    }

    /// The seconds of each of the five zones in a `zones` array.
    static func zones(_ value: Any?) -> [Double] {
        ((value as? [[String: Any]]) ?? []).map { ($0["seconds"] as? Double) ?? -1 }
    }

    // By hand: 1,000 s at 4 m/s are 4 km; 150 bpm is 150 / 190 = 78.9 % of the maximum, zone 3
    // [70, 80) for all 1,000 s; TRIMP: HRr = (150 − 50) / (190 − 50) = 0.714286, a minute worth
    // 0.714286 × 0.64 × e^(1.92 × 0.714286) = 1.801574, × 16.6667 minutes = 30.03.

    @Test("weeks, months and zones: one run of 4 km in 1,000 s, all of it in zone 3, TRIMP 30.03")
    func volume() async throws {
        try await Self.with { client, _ in
            let weeks = try #require(try await Self.get(client, "/v1/training/weeks")["weeks"] as? [[String: Any]])
            #expect(weeks.count == 1)
            let week = try #require(weeks.first)
            #expect(week["week"] as? String == "2024-W10")
            #expect(week["start"] as? String == "2024-03-04")
            #expect(week["runs"] as? Int == 1)
            #expect(week["km"] as? Double == 4)
            #expect(week["seconds"] as? Double == 1000)
            #expect(week["trimp"] as? Double == 30.03)
            #expect(Self.zones(week["zones"]) == [0, 0, 1000, 0, 0])
            let months = try #require(try await Self.get(client, "/v1/training/months")["months"] as? [[String: Any]])
            #expect(months.map { $0["month"] as? String } == ["2024-03"])
            let zones = try await Self.get(client, "/v1/training/zones")
            #expect(Self.zones(zones["zones"]) == [0, 0, 1000, 0, 0])
        }
    }

    @Test("efforts: 400 m in 100 s, 1 km in 250 s, the mile in 402.3 s; nothing longer than the run's 4 km")
    func efforts() async throws {
        try await Self.with { client, _ in
            let efforts = try #require(try await Self.get(client, "/v1/training/efforts")["efforts"] as? [[String: Any]])
            #expect(efforts.map { $0["distance"] as? String } == ["400m", "1k", "1mi"])
            // 400 / 4, 1,000 / 4 and 1,609.344 / 4 seconds.
            #expect(efforts.map { $0["seconds"] as? Double } == [100, 250, 402.3])
        }
    }

    @Test("the load: the run's day has TRIMP 30.03, fitness 30.03 / 42 and fatigue 30.03 / 7")
    func load() async throws {
        try await Self.with { client, _ in
            let days = try #require(
                try await Self.get(client, "/v1/training/load?from=2024-03-05&to=2024-03-05")["days"] as? [[String: Any]])
            let day = try #require(days.first)
            #expect(day["trimp"] as? Double == 30.03)
            // Fitness and fatigue start at 0 and move by a 42nd and a 7th of the day's TRIMP (30.026).
            #expect(day["fitness"] as? Double == 0.71)
            #expect(day["fatigue"] as? Double == 4.29)
        }
    }

    @Test("explain an effort and a week: the run down to its stream's 1,001 readings and the events behind it")
    func explain() async throws {
        try await Self.with { client, beforeRun in
            let effort = try await Self.get(client, "/v1/training/explain?kind=effort&name=1k")
            #expect(effort["explain"] as? String == "best 1k")
            let readings = try #require(effort["readings"] as? [String: Any])
            // 250 one-second readings from the effort's first, and the one at its end.
            #expect(readings["within"] as? Int == 251)
            let effortRuns = try #require(effort["runs"] as? [[String: Any]])
            #expect(effortRuns.count == 1)

            let week = try await Self.get(client, "/v1/training/explain?kind=week&name=2024-W10")
            #expect(week["explain"] as? String == "week 2024-W10")
            let runs = try #require(week["runs"] as? [[String: Any]])
            let run = try #require(runs.first)
            #expect(runs.count == 1)
            #expect(run["start"] as? String == "2024-03-05T08:00:00+01:00")
            #expect(run["km"] as? Double == 4)
            #expect(run["trimp"] as? Double == 30.03)
            #expect(Self.zones(run["zones"]) == [0, 0, 1000, 0, 0])
            let stream = try #require(run["stream"] as? [String: Any])
            #expect(stream["readings"] as? Int == 1001)
            #expect(stream["movingSeconds"] as? Double == 1000)
            // The events: the workout and its stream, both recorded after the settings.
            let events = try #require(run["events"] as? [String: Any])
            let recorded = try #require(events["recorded"] as? Int)
            let streamEvent = try #require(events["stream"] as? Int)
            #expect(recorded > Int(beforeRun) && streamEvent > Int(beforeRun))
            #expect(events["settings"] as? [Int] == [Int(beforeRun)])
        }
    }

    @Test("as recorded: before the run, no week; at the log's end and far past it, the present's weeks")
    func asRecorded() async throws {
        try await Self.with { client, beforeRun in
            let before = try await Self.get(client, "/v1/training/weeks?asRecorded=\(beforeRun)")
            #expect((before["weeks"] as? [Any])?.isEmpty == true)
            let present = try await client.execute(uri: "/v1/training/weeks", method: .get, headers: ServerFixture.headers())
            for point in ["99999999999", "2999-01-01T00:00:00Z"] {
                let far = try await client.execute(uri: "/v1/training/weeks?asRecorded=\(point)", method: .get, headers: ServerFixture.headers())
                #expect(far.status == .ok)
                #expect(far.text == present.text, "asRecorded=\(point)")
            }
        }
    }
}
