import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import StrideContract
import StrideEvents
import StrideLedger
import Testing

@testable import StrideServer

/// A quiet Sunday's steps as an export holds them: 3,000 from the phone, and 48,000 an app wrote.
private let sunday = """
    <?xml version="1.0" encoding="UTF-8"?>
    <HealthData locale="en_US">
     <ExportDate value="2024-05-06 20:00:00 +0200"/>
     <Record type="HKQuantityTypeIdentifierStepCount" sourceName="iPhone" sourceVersion="17.4" unit="count" creationDate="2024-05-05 09:30:00 +0200" startDate="2024-05-05 09:00:00 +0200" endDate="2024-05-05 09:30:00 +0200" value="3000"/>
     <Record type="HKQuantityTypeIdentifierStepCount" sourceName="StepBooster" sourceVersion="2.1" unit="count" creationDate="2024-05-05 12:05:00 +0200" startDate="2024-05-05 12:00:00 +0200" endDate="2024-05-05 12:05:00 +0200" value="48000"/>
    </HealthData>

    """

@Suite("Samples through the server: a day explained, withdrawn and restored")
struct SampleRouteTests {
    func post(_ client: some TestClientProtocol, _ uri: String, _ body: String) async throws -> TestResponse {
        try await client.execute(uri: uri, method: .post, headers: ServerFixture.headers(contentType: "application/json"), body: .json(body))
    }

    static func ingestSunday(into ledger: Ledger) throws {
        let file = NSTemporaryDirectory() + "sunday-" + UUID().uuidString + ".xml"
        try sunday.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        _ = try ledger.ingest(file: file)
    }

    @Test("GET /v1/daily/explain answers the CLI's document; a sample withdrawn through the API names the device, and restored counts again")
    func explainWithdrawRestore() async throws {
        try await ServerFixture.with { fixture in
            try Self.ingestSunday(into: fixture.ledger)
            try await fixture.server.makeApplication().test(.router) { client in
                let explained = try await client.execute(
                    uri: "/v1/daily/explain?date=2024-05-05&measure=steps", method: .get, headers: ServerFixture.headers())
                #expect(explained.status == .ok)
                let expected = try DailyExplainDocument(fixture.ledger, day: CivilDate(year: 2024, month: 5, day: 5), measures: [.steps])
                #expect(explained.text == expected.json.text + "\n")
                let measures = try #require(explained.object["measures"] as? [[String: Any]])
                #expect(measures.first?["figure"] as? Double == 51_000)
                let samples = try #require(measures.first?["samples"] as? [[String: Any]])
                let bogus = try #require(samples.first { $0["value"] as? Double == 48_000 }?["id"] as? String)

                let withdrawn = try await post(client, "/v1/samples/withdraw", #"{"samples": ["\#(bogus.prefix(6))"], "reason": "car rides"}"#)
                #expect(withdrawn.status == .ok, "\(withdrawn.text)")
                #expect(withdrawn.object["samples"] as? [String] == [bogus])
                #expect(withdrawn.object["pointsTakenBack"] as? Int == 5)
                let list = try await client.execute(uri: "/v1/samples/withdrawn", method: .get, headers: ServerFixture.headers())
                let entries = try #require(list.object["samples"] as? [[String: Any]])
                #expect(entries.first?["id"] as? String == bogus)
                #expect(entries.first?["via"] as? String == ServerFixture.device)
                #expect(entries.first?["reason"] as? String == "car rides")
                #expect(try fixture.ledger.dailyRecords(from: nil, through: nil).first?.steps?.value == 3_000)

                let restored = try await post(client, "/v1/samples/restore", #"{"samples": ["\#(bogus)"]}"#)
                #expect(restored.status == .ok)
                #expect(try fixture.ledger.dailyRecords(from: nil, through: nil).first?.steps?.value == 51_000)
                let events = try fixture.ledger.events(from: 1, limit: 1000, type: .sampleRestored)
                #expect(events.first?.event.sentBy == ServerFixture.device)
            }
        }
    }

    @Test("an unknown sample is 404, a missing reason or list 400, restoring what is not withdrawn 422; nothing is appended")
    func refusals() async throws {
        try await ServerFixture.with { fixture in
            try Self.ingestSunday(into: fixture.ledger)
            try await fixture.server.makeApplication().test(.router) { client in
                let before = try fixture.ledger.store.lastSequence()
                let unknown = try await post(client, "/v1/samples/withdraw", #"{"samples": ["ffffffffffffffff"], "reason": "x"}"#)
                #expect(unknown.status == .notFound)
                #expect(unknown.object["error"] as? String == SampleError.unknownSample("ffffffffffffffff").description)
                #expect(try await post(client, "/v1/samples/withdraw", #"{"samples": [], "reason": "x"}"#).status == .badRequest)
                #expect(try await post(client, "/v1/samples/withdraw", #"{"samples": ["ab"]}"#).status == .badRequest)
                let id = try #require(try fixture.ledger.events(from: 1, limit: 10, type: .sampleRecorded).first?.entity.shortID)
                let notWithdrawn = try await post(client, "/v1/samples/restore", #"{"samples": ["\#(id)"]}"#)
                #expect(notWithdrawn.status == .unprocessableContent)
                let badDay = try await client.execute(uri: "/v1/daily/explain?date=May", method: .get, headers: ServerFixture.headers())
                #expect(badDay.status == .badRequest)
                let badMeasure = try await client.execute(
                    uri: "/v1/daily/explain?date=2024-05-05&measure=mood", method: .get, headers: ServerFixture.headers())
                #expect(badMeasure.status == .badRequest)
                #expect(try fixture.ledger.store.lastSequence() == before)
            }
        }
    }
}
