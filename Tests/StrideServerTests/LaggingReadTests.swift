import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import StrideEvents
import StrideLedger
import StrideTestSupport
import Testing

@testable import StrideServer

/// A read answered from figures behind the log (another process appended without folding, and
/// the view read on) is never tagged as the log's, never 304, and never stored by a cache.
@Suite("Reads behind the log over HTTP")
struct LaggingReadTests {
    static let now = Timestamp(millisecondsSince1970: 1_735_689_600_000)  // 2025-01-01T00:00:00Z

    /// A run recorded as another process would append it: straight into the log, folded by
    /// nothing.
    static func appendUnfolded(_ ledger: Ledger, runStarting start: String, id: UInt128) throws {
        let begin = try #require(ISO8601.parse(start))
        let workout = WorkoutRecorded(
            activityType: "HKWorkoutActivityTypeRunning", deviceClass: .watch, start: begin, end: begin.adding(milliseconds: 1_800_000),
            durationSeconds: 1_800, distanceMeters: 6_000, distanceSource: .reported, distanceAsWritten: nil, energyKilocalories: nil,
            created: nil, sourceName: "Other Watch", sourceVersion: nil, device: nil, metadata: [])
        let event = PendingEvent(
            .workoutRecorded(workout), occurredAt: begin, entity: EntityReference(.workout, id: id),
            idempotencyKey: IdempotencyKey(hashing: Array("unfolded-\(id)".utf8)))
        _ = try ledger.store.append([event], expecting: [], recordedAt: now)
    }

    @Test("behind: no ETag, no 304, Cache-Control no-store, the folded figures; caught up: the new ETag and figures")
    func etags() async throws {
        try await withTemporaryDirectory { (folder: String) async throws in
            let ledger = try Ledger.create(
                at: folder + "/ledger", timeZone: "Europe/Paris", clock: FixedClock(Self.now), catchUpRounds: 0)
            try ServerFixture.addFixedToken(to: ledger)
            let server = try StrideServer(ledger: ledger, settings: ServerSettings(host: "127.0.0.1", port: 0), logger: Logger(label: "test"))
            try await server.makeApplication().test(.router) { client in
                let first = try await client.execute(uri: "/v1/workouts", method: .get, headers: ServerFixture.headers())
                let tag = try #require(first.headers[.eTag])
                #expect(tag == "\"\(try ledger.lastSequence())\"")

                try Self.appendUnfolded(ledger, runStarting: "2024-03-07T07:00:00Z", id: 9)
                for uri in ["/v1/workouts", "/v1/training/weeks", "/v1/shoes"] {
                    let behind = try await client.execute(uri: uri, method: .get, headers: ServerFixture.headers([.ifNoneMatch: tag]))
                    #expect(behind.status == .ok, "\(uri)")
                    #expect(behind.headers[.eTag] == nil, "\(uri)")
                    #expect(behind.headers[.cacheControl] == "no-store", "\(uri)")
                }
                let behind = try await client.execute(uri: "/v1/workouts", method: .get, headers: ServerFixture.headers())
                #expect((behind.object["workouts"] as? [Any])?.count == 0)

                try ledger.catchUp()
                let caughtUp = try await client.execute(uri: "/v1/workouts", method: .get, headers: ServerFixture.headers([.ifNoneMatch: tag]))
                #expect(caughtUp.status == .ok)
                #expect(caughtUp.headers[.eTag] == "\"\(try ledger.lastSequence())\"")
                #expect((caughtUp.object["workouts"] as? [Any])?.count == 1)
                let again = try await client.execute(
                    uri: "/v1/workouts", method: .get, headers: ServerFixture.headers([.ifNoneMatch: try #require(caughtUp.headers[.eTag])]))
                #expect(again.status == .notModified)
            }
        }
    }
}
