import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import StrideEvents
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
                    uri: "/v1/health-auto-export", method: .post, headers: ServerFixture.headers(contentType: "text/csv"), body: ByteBuffer(string: "a,b"))
                #expect(response.status == .unsupportedMediaType)
                #expect((response.object["error"] as? String)?.contains("application/json") == true)
            }
        }
    }
}
