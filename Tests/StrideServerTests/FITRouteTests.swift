import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import StrideTestSupport
import Testing

@testable import StrideServer

@Suite("FIT over HTTP", .enabled(if: fixturesFolder() != nil))
struct FITRouteTests {
    static let folder = fixturesFolder().map { "\($0)/fit" } ?? ""

    @Test("a FIT upload is ingested as `stride ingest` would; sent again nothing is new; a truncated one is 400 naming the byte")
    func fit() async throws {
        let triathlon = try Data(contentsOf: URL(fileURLWithPath: "\(Self.folder)/muktihari__fit__triathlon_summary_first.fit"))
        let truncated = try Data(contentsOf: URL(fileURLWithPath: "\(Self.folder)/dtcooper__python-fitparse__nick.fit"))
        try await ServerFixture.with { fixture in
            try await fixture.server.makeApplication().test(.router) { client in
                let headers = ServerFixture.headers(contentType: "application/vnd.ant.fit")
                let first = try await client.execute(uri: "/v1/ingest", method: .post, headers: headers, body: ByteBuffer(bytes: triathlon))
                #expect(first.status == .ok)
                // Five workouts, and the stream of each.
                #expect(first.object["newEvents"] as? Int == 10)
                let files = try #require(first.object["files"] as? [[String: Any]])
                #expect(files.first?["format"] as? String == "FIT")
                let again = try await client.execute(uri: "/v1/ingest", method: .post, headers: headers, body: ByteBuffer(bytes: triathlon))
                #expect(again.object["newEvents"] as? Int == 0)
                let broken = try await client.execute(uri: "/v1/ingest", method: .post, headers: headers, body: ByteBuffer(bytes: truncated))
                #expect(broken.status == .badRequest)
                let message = try #require(broken.object["error"] as? String)
                #expect(message.contains("the request's body: the file ends at byte 403456"), "\(message)")
            }
        }
    }
}
