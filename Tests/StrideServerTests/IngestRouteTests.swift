import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import StrideEvents
import StrideIngest
import StrideLedger
import Testing

@testable import StrideServer

@Suite("Ingest over HTTP")
struct IngestRouteTests {
    @Test("an NDJSON upload is ingested as `stride ingest` would; sent again, nothing is new")
    func ndjson() async throws {
        try await ServerFixture.with { fixture in
            try await fixture.server.makeApplication().test(.router) { client in
                let body = ByteBuffer(string: ReadRouteTests.samples)
                let first = try await client.execute(
                    uri: "/v1/ingest", method: .post, headers: ServerFixture.headers(contentType: "application/x-ndjson"), body: body)
                #expect(first.status == .ok)
                #expect(first.object["newEvents"] as? Int == 2)
                let files = try #require(first.object["files"] as? [[String: Any]])
                #expect(files.first?["file"] as? String == "request")
                #expect(files.first?["format"] as? String == "NDJSON")
                let again = try await client.execute(
                    uri: "/v1/ingest", method: .post, headers: ServerFixture.headers(contentType: "application/x-ndjson"), body: body)
                #expect(again.object["newEvents"] as? Int == 0)
                #expect(again.object["duplicates"] as? Int == 2)
                #expect(try fixture.ledger.workouts(from: nil, through: nil, unassignedOnly: false).count == 1)
            }
        }
    }

    @Test("a body past the limit is 413, another content type 415, broken input 400 naming the line; no upload is left behind")
    func refusals() async throws {
        try await ServerFixture.with(settings: ServerSettings(port: 0, maxIngestBytes: 100)) { fixture in
            try await fixture.server.makeApplication().test(.router) { client in
                let before = try fixture.ledger.store.lastSequence()
                let large = try await client.execute(
                    uri: "/v1/ingest", method: .post, headers: ServerFixture.headers(contentType: "application/xml"),
                    body: ByteBuffer(string: String(repeating: "<Record/>", count: 100)))
                #expect(large.status == .contentTooLarge)
                let html = try await client.execute(
                    uri: "/v1/ingest", method: .post, headers: ServerFixture.headers(contentType: "text/html"), body: ByteBuffer(string: "<p>"))
                #expect(html.status == .unsupportedMediaType)
                let broken = try await client.execute(
                    uri: "/v1/ingest", method: .post, headers: ServerFixture.headers(contentType: "application/xml"),
                    body: ByteBuffer(string: "<HealthData>\n<Record type=\"x\"\n"))
                #expect(broken.status == .badRequest)
                let message = try #require(broken.object["error"] as? String)
                #expect(message.contains("the request's body"), "\(message)")
                #expect(!message.contains("/uploads/"))
                #expect(try fixture.ledger.store.lastSequence() == before)
                let uploads = try FileManager.default.contentsOfDirectory(atPath: fixture.ledger.path + "/uploads")
                #expect(uploads.isEmpty)
            }
        }
    }

    @Test("a Health Auto Export push must be JSON")
    func pushNeedsJSON() async throws {
        try await ServerFixture.with { fixture in
            try await fixture.server.makeApplication().test(.router) { client in
                let response = try await client.execute(
                    uri: "/v1/health-auto-export", method: .post, headers: ServerFixture.headers(contentType: "text/csv"),
                    body: ByteBuffer(string: "a,b"))
                #expect(response.status == .unsupportedMediaType)
                #expect((response.object["error"] as? String)?.contains("application/json") == true)
            }
        }
    }
}

@Suite("Health Auto Export pushes")
struct HealthAutoExportRouteTests {
    static func push(steps: Double) -> String {
        """
        {"data": {"metrics": [{"name": "step_count", "units": "count", "data": [
          {"date": "2024-05-01 08:00:00 +0200", "qty": 1200, "source": "Marie’s Apple Watch"},
          {"date": "2024-05-01 09:00:00 +0200", "qty": \(steps), "source": "Marie’s Apple Watch|Marie’s iPhone"}
        ]}]}}
        """
    }

    @Test(
        "a push is read with the app's grouping header; an identical re-send appends nothing; a grown value replaces the old one; the device is recorded"
    )
    func resends() async throws {
        try await ServerFixture.with { fixture in
            try await fixture.server.makeApplication().test(.router) { client in
                func send(_ steps: Double) async throws -> TestResponse {
                    try await client.execute(
                        uri: "/v1/health-auto-export", method: .post,
                        headers: ServerFixture.headers([.init("automation-aggregation")!: "Hours"], contentType: "application/json"),
                        body: ByteBuffer(string: Self.push(steps: steps)))
                }
                let first = try await send(300)
                #expect(first.status == .ok, "\(first.text)")
                #expect(first.object["newEvents"] as? Int == 2)
                #expect(try await send(300).object["newEvents"] as? Int == 0)
                #expect(try await send(450).object["newEvents"] as? Int == 1)
                let day = try #require(try fixture.ledger.dailyRecords(from: CivilDate("2024-05-01"), through: CivilDate("2024-05-01")).first)
                #expect(day.steps?.value == 1650)
                let samples = try fixture.ledger.events(from: 1, limit: 100, type: .sampleRecorded)
                #expect(samples.count == 3)
                #expect(samples.allSatisfy { $0.event.sentBy == ServerFixture.device })
            }
        }
    }

    @Test("a body that is not a Health Auto Export document is refused with 415, a broken one with 400 naming the line")
    func refused() async throws {
        try await ServerFixture.with { fixture in
            try await fixture.server.makeApplication().test(.router) { client in
                let ndjson = try await client.execute(
                    uri: "/v1/health-auto-export", method: .post, headers: ServerFixture.headers(contentType: "application/json"),
                    body: ByteBuffer(string: ReadRouteTests.samples))
                #expect(ndjson.status == .unsupportedMediaType)
                let broken = try await client.execute(
                    uri: "/v1/health-auto-export", method: .post, headers: ServerFixture.headers(contentType: "application/json"),
                    body: ByteBuffer(
                        string:
                            "{\"data\": {\"metrics\": [\n  {\"name\": \"step_count\", \"units\": \"count\", \"data\": [{\"date\": \"yesterday\", \"qty\": 1}]}]}}"
                    ))
                #expect(broken.status == .badRequest)
                let message = try #require(broken.object["error"] as? String)
                #expect(message.contains("line 2"), "\(message)")
                #expect(message.contains("the request's body"), "\(message)")
                #expect(try fixture.ledger.events(from: 1, limit: 100, type: .sampleRecorded).isEmpty)
            }
        }
    }
}
