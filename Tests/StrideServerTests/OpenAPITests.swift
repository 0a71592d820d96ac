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

    @Test("every bound the server enforces is stated: integer parameters, headers, the samples list; every measure offered is taken")
    func bounds() async throws {
        try await ServerFixture.with { fixture in
            try await fixture.server.makeApplication().test(.router) { client in
                let document = try await client.execute(uri: "/v1/openapi.json", method: .get, headers: ServerFixture.headers()).object
                let paths = try #require(document["paths"] as? [String: [String: Any]])
                var integers = 0
                for (path, operations) in paths {
                    for (method, operation) in operations {
                        let parameters = (operation as? [String: Any])?["parameters"] as? [[String: Any]] ?? []
                        for parameter in parameters {
                            let schema = try #require(parameter["schema"] as? [String: Any])
                            let name = "\(method) \(path) \(parameter["name"] ?? "")"
                            if schema["type"] as? String == "integer" {
                                integers += 1
                                #expect(schema["minimum"] is Int && schema["maximum"] is Int, "\(name)")
                            }
                            if parameter["name"] as? String == "Idempotency-Key" {
                                #expect(schema["maxLength"] as? Int == 255 && schema["minLength"] as? Int == 1, "\(name)")
                            }
                        }
                    }
                }
                // from, before, limit of the log; limit, before of the points history (twice); limit,
                // offset of a day explained; after and Last-Event-ID of the stream.
                #expect(integers >= 9)
                let withdraw = try #require(paths["/v1/samples/withdraw"]?["post"] as? [String: Any])
                let body = try #require(
                    ((withdraw["requestBody"] as? [String: Any])?["content"] as? [String: Any])?["application/json"] as? [String: Any])
                let samples = try #require(((body["schema"] as? [String: Any])?["properties"] as? [String: Any])?["samples"] as? [String: Any])
                #expect(samples["maxItems"] as? Int == 1_000)
                let explain = try #require(paths["/v1/daily/explain"]?["get"] as? [String: Any])
                let measure = try #require((explain["parameters"] as? [[String: Any]])?.first { $0["name"] as? String == "measure" })
                let offered = try #require((measure["schema"] as? [String: Any])?["enum"] as? [String])
                #expect(offered.count == 10)
                for name in offered {
                    let answer = try await client.execute(
                        uri: "/v1/daily/explain?date=2024-05-01&measure=\(name)", method: .get, headers: ServerFixture.headers())
                    #expect(answer.status == .ok, "\(name)")
                }
                let refused = try await client.execute(
                    uri: "/v1/daily/explain?date=2024-05-01&measure=pace", method: .get, headers: ServerFixture.headers())
                #expect((refused.object["error"] as? String)?.contains(offered.joined(separator: ", ")) == true)
            }
        }
    }
}
