import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import StrideEvents
import StrideLedger
import Testing

@testable import StrideServer

/// The values a hostile probe sent, each once crashing or exhausting the server: now refused
/// with the range named (an action), or kept and left out of figures (a sample), and every
/// page still renders.
@Suite("Values no server should trust")
struct HostileValueTests {
    func post(_ client: some TestClientProtocol, _ uri: String, _ body: String) async throws -> TestResponse {
        try await client.execute(uri: uri, method: .post, headers: ServerFixture.headers(contentType: "application/json"), body: .json(body))
    }

    @Test("a goal of 1e-300 km, a start of 1e300 km and a name of 500,000 characters are 422 naming the range; nothing is appended")
    func shoeValues() async throws {
        try await ServerFixture.with { fixture in
            try await fixture.server.makeApplication().test(.router) { client in
                let before = try fixture.ledger.store.lastSequence()
                let goal = try await post(client, "/v1/shoes", #"{"name": "s", "startKilometers": 5, "goalKilometers": 1e-300}"#)
                #expect(goal.status == .unprocessableContent)
                #expect((goal.object["error"] as? String)?.contains("the goal 1e-300 km is not believable: it must be 10 to 5,000 km") == true)
                let start = try await post(client, "/v1/shoes", #"{"name": "s", "startKilometers": 1e300}"#)
                #expect(start.status == .unprocessableContent)
                #expect((start.object["error"] as? String)?.contains("0 to 5,000 km") == true)
                let longName = String(repeating: "x", count: 500_000)
                let name = try await post(client, "/v1/shoes", #"{"name": "\#(longName)"}"#)
                #expect(name.status == .unprocessableContent)
                #expect((name.object["error"] as? String)?.contains("the shoe's name of 500,000 characters") == true)
                #expect(name.body.readableBytes < 1_000)
                let rename = try await post(client, "/v1/shoes", #"{"name": "Pegasus"}"#)
                #expect(rename.status == .created)
                #expect(try await post(client, "/v1/shoes/rename", #"{"shoe": "Pegasus", "name": "\#(longName)"}"#).status == .unprocessableContent)
                #expect(try fixture.ledger.store.lastSequence() == before + 1)
                // A long name asked for is not echoed back whole either.
                let unknown = try await post(client, "/v1/shoes/retire", #"{"shoe": "\#(longName)"}"#)
                #expect(unknown.status == .notFound)
                #expect(unknown.body.readableBytes < 2_000)
            }
        }
    }

    @Test("a check-in dated 0001-01-01 is refused; a past day's check-in is recorded for no point, once")
    func pointsFarming() async throws {
        try await ServerFixture.with { fixture in
            try await fixture.server.makeApplication().test(.router) { client in
                let balance = try fixture.ledger.account().balance
                let ancient = try await post(client, "/v1/checkin", #"{"at": "0001-01-01T00:00:00Z"}"#)
                #expect(ancient.status == .unprocessableContent)
                #expect((ancient.object["error"] as? String)?.contains("on or after 2014-01-01") == true)
                // The fixture's clock stands at 2024-06-01: yesterday is closed.
                let yesterday = try await post(client, "/v1/checkin", #"{"at": "2024-05-31T09:00:00+02:00"}"#)
                #expect(yesterday.status == .ok)
                #expect(yesterday.object["pointsAwarded"] as? Int == 0)
                #expect(yesterday.object["isOpen"] as? Bool == false)
                #expect(try fixture.ledger.account().balance == balance)
                let today = try await post(client, "/v1/checkin", "{}")
                #expect(today.status == .ok)
                #expect(today.object["pointsAwarded"] as? Int == 1)
                // The ledger began today (the fixture's clock): yesterday can never be reopened.
                let reopen = try await post(client, "/v1/points/spend", #"{"points": 1, "reason": "missed it", "reopen": "2024-05-31"}"#)
                #expect(reopen.status == .unprocessableContent)
                #expect((reopen.object["error"] as? String)?.contains("before the ledger's first day") == true)
                let again = try await post(client, "/v1/checkin", #"{"at": "2024-05-31T11:00:00+02:00"}"#)
                #expect(again.object["pointsAwarded"] as? Int == 0)
                #expect(again.object["isNew"] as? Bool == false)
            }
        }
    }

    @Test("a heart rate of 1e17 pushed by an app is kept, left out as odd content, and the daily page renders at once")
    func heartRatePush() async throws {
        try await ServerFixture.with { fixture in
            try await fixture.server.makeApplication().test(.router) { client in
                let push =
                    #"{"data": {"metrics": [{"name": "heart_rate", "units": "count/min", "data": [{"date": "2024-05-31 09:00:00 +0200", "Avg": 1e17, "Min": 1e17, "Max": 1e17, "source": "Watch"}]}]}}"#
                let answer = try await client.execute(
                    uri: "/v1/health-auto-export", method: .post, headers: ServerFixture.headers(contentType: "application/json"), body: .json(push))
                #expect(answer.status == .ok)
                let files = try #require(answer.object["files"] as? [[String: Any]])
                let leftOut = try #require(files.first?["leftOut"] as? [String: Int])
                #expect(leftOut.keys.contains { $0.contains("outside 20 to 300 beats a minute") })
                #expect(try fixture.ledger.dailyRecords(from: nil, through: nil).allSatisfy { $0.heartRate == nil })
                let cookie = try await DashboardSiteTests.signIn(client, token: ServerFixture.token)
                let began = ContinuousClock.now
                let page = try await client.execute(uri: "/daily", method: .get, headers: [.cookie: cookie])
                #expect(page.status == .ok)
                #expect(ContinuousClock.now - began < .seconds(5))
            }
        }
    }
}
