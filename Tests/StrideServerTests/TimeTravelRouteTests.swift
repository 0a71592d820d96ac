import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import StrideEvents
import StrideLedger
import StrideTestSupport
import Synchronization
import Testing

@testable import StrideServer

/// The two times of a ledger over HTTP, on the story of issue 27: a shoe set as default in
/// 2018, runs of 2019–2024 ingested today. `?asOf=` is a moment of the runner's life, what had
/// happened by then as the ledger knows it now; `?asRecorded=` is what the ledger said then.
@Suite("GET /v1/mileage and the pages, ?asOf= and ?asRecorded=")
struct TimeTravelRouteTests {
    /// A clock the test moves forward: the shoe is typed in on one day, the runs arrive on another.
    final class SteppingClock: LedgerClock {
        private let current: Mutex<Timestamp>
        init(_ instant: Timestamp) { current = Mutex(instant) }
        func now() -> Timestamp { current.withLock { $0 } }
        func set(_ instant: Timestamp) { current.withLock { $0 = instant } }
    }

    static let setUpDay = Timestamp(secondsSince1970: 1_736_499_600)  // 2025-01-10T09:00:00Z
    static let ingestDay = Timestamp(secondsSince1970: 1_736_931_600)  // 2025-01-15T09:00:00Z

    /// A server over the story's ledger (in UTC), a device token, and the last sequence
    /// before the ingest.
    static func with(_ body: @escaping @Sendable (String, UInt64, any TestClientProtocol) async throws -> Void) async throws {
        try await withTemporaryDirectory { (folder: String) async throws in
            let clock = SteppingClock(setUpDay)
            let ledger = try Ledger.create(at: folder + "/ledger", timeZone: "UTC", clock: clock)
            let token = try ledger.addToken(name: "marie-laptop", at: nil)
            let since = try #require(ISO8601.parse("2018-04-01T10:00:00Z"))
            _ = try ledger.registerShoe(name: "Pegasus 40", brand: "Nike", startKilometers: 0, goalKilometers: 800, makeDefault: true, at: since)
            let beforeIngest = try ledger.lastSequence()
            clock.set(ingestDay)
            let file = folder + "/runs.ndjson"
            try TimeTravelStory.runs.write(toFile: file, atomically: true, encoding: .utf8)
            _ = try ledger.ingest(file: file)
            let server = try StrideServer(ledger: ledger, settings: ServerSettings(host: "127.0.0.1", port: 0), logger: Logger(label: "test"))
            try await server.makeApplication().test(.router) { client in try await body(token, beforeIngest, client) }
        }
    }

    static func shoes(_ client: some TestClientProtocol, _ query: String, token: String) async throws -> [[String: Any]] {
        let response = try await client.execute(uri: "/v1/mileage" + query, method: .get, headers: [.authorization: "Bearer \(token)"])
        #expect(response.status == .ok, "\(response.text)")
        return try #require(response.object["shoes"] as? [[String: Any]])
    }

    @Test("GET /v1/mileage: ?asOf= counts the runs run by then (19.25 km), ?asRecorded= before the ingest says 0 km")
    func mileage() async throws {
        try await Self.with { token, beforeIngest, client in
            #expect(try await Self.shoes(client, "", token: token).first?["kilometers"] as? Double == 48.25)
            let asOf = try await Self.shoes(client, "?asOf=2023-06-01T00:00:00Z", token: token)
            #expect(asOf.first?["kilometers"] as? Double == 19.25)
            #expect(asOf.first?["runs"] as? Int == 3)
            #expect(try await Self.shoes(client, "?asOf=2018-03-01T00:00:00Z", token: token).isEmpty)
            let recordedAt = try await Self.shoes(client, "?asRecorded=2025-01-12T00:00:00Z", token: token)
            #expect(recordedAt.first?["kilometers"] as? Double == 0)
            #expect(recordedAt.first?["runs"] as? Int == 0)
            let recordedThrough = try await Self.shoes(client, "?asRecorded=\(beforeIngest)", token: token)
            #expect(recordedThrough.first?["kilometers"] as? Double == 0)

            let headers: HTTPFields = [.authorization: "Bearer \(token)"]
            let sequence = try await client.execute(uri: "/v1/mileage?asOf=\(beforeIngest)", method: .get, headers: headers)
            #expect(sequence.status == .badRequest)
            #expect(sequence.text.contains("asRecorded"))
            let both = try await client.execute(uri: "/v1/mileage?asOf=2023-06-01T00:00:00Z&asRecorded=3", method: .get, headers: headers)
            #expect(both.status == .badRequest)
            let badRecorded = try await client.execute(uri: "/v1/mileage?asRecorded=yesterday", method: .get, headers: headers)
            #expect(badRecorded.status == .badRequest)
            #expect(badRecorded.text.contains("asRecorded"))
        }
    }

    @Test("the shoes page ?asOf= shows 19.25 km and carries asOf in its links; ?asRecorded= shows the ledger before the ingest")
    func pages() async throws {
        try await Self.with { token, beforeIngest, client in
            let cookie = try await DashboardSiteTests.signIn(client, token: token)
            let asOf = try await client.execute(uri: "/shoes?asOf=2023-06-01T00:00:00Z", method: .get, headers: [.cookie: cookie])
            #expect(asOf.status == .ok)
            #expect(asOf.text.contains("As of 2023-06-01 00:00 (UTC)"))
            #expect(asOf.text.contains("19.25 km"))
            #expect(!asOf.text.contains("48.25 km"))
            #expect(asOf.text.contains("href=\"/points?asOf=2023-06-01T00%3A00%3A00Z\""))
            #expect(!asOf.text.contains("action=\"/shoes/add\""))

            let recorded = try await client.execute(uri: "/shoes?asRecorded=\(beforeIngest)", method: .get, headers: [.cookie: cookie])
            #expect(recorded.status == .ok)
            #expect(recorded.text.contains("As the ledger stood at sequence \(beforeIngest)"))
            #expect(recorded.text.contains("0.00 km"))
            #expect(!recorded.text.contains("19.25 km"))
            #expect(recorded.text.contains("href=\"/points?asRecorded=\(beforeIngest)\""))

            let daily = try await client.execute(uri: "/daily?asOf=2023-06-01T00:00:00Z", method: .get, headers: [.cookie: cookie])
            #expect(daily.status == .ok)
            #expect(daily.text.contains("name=\"asOf\" value=\"2023-06-01T00:00:00Z\""))

            let refused = try await client.execute(uri: "/shoes?asOf=\(beforeIngest)", method: .get, headers: [.cookie: cookie])
            #expect(refused.status == .badRequest)
            #expect(refused.text.contains("asRecorded"))
        }
    }
}
