import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import StrideServer

@Suite("The OpenAPI description")
struct OpenAPITests {
    @Test("every route is described, and every described route answers (not 404)")
    func complete() async throws {
        try await ServerFixture.with { fixture in
            try await fixture.server.makeApplication().test(.router) { client in
                let response = try await client.execute(uri: "/v1/openapi.json", method: .get, headers: ServerFixture.headers())
                #expect(response.status == .ok)
                let document = response.object
                #expect(document["openapi"] as? String == "3.1.0")
                let paths = try #require(document["paths"] as? [String: [String: Any]])
                var described: [(String, String)] = []
                for (path, operations) in paths {
                    for method in operations.keys { described.append((method.uppercased(), path)) }
                }
                // The router is built from the same list: the description holds each of its routes.
                let routes = fixture.server.routes
                #expect(Set(described.map { "\($0.0) \($0.1)" }) == Set(routes.map { "\($0.method.rawValue) \($0.path)" }))
                for (method, path) in described where !path.hasSuffix("/events") {
                    let answer = try await client.execute(
                        uri: path, method: HTTPRequest.Method(method) ?? .get, headers: ServerFixture.headers(contentType: "application/json"),
                        body: ByteBuffer(string: "{}"))
                    #expect(answer.status != .notFound && answer.status != .methodNotAllowed, "\(method) \(path): \(answer.status)")
                }
                // Each operation names its responses and, for a write, its Idempotency-Key.
                let spend = try #require(paths["/v1/points/spend"]?["post"] as? [String: Any])
                let parameters = try #require(spend["parameters"] as? [[String: Any]])
                #expect(parameters.contains { $0["name"] as? String == "Idempotency-Key" })
                let responses = try #require(spend["responses"] as? [String: Any])
                #expect(Set(responses.keys).isSuperset(of: ["200", "400", "401", "409", "422"]))
            }
        }
    }
}
