import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import StrideServer

@Suite("Who may ask: tokens and the 401")
struct AccessTests {
    @Test("a missing, malformed or wrong token gets the same 401, which names nothing")
    func refused() async throws {
        try await ServerFixture.with { fixture in
            let app = fixture.server.makeApplication()
            try await app.test(.router) { client in
                var bodies: Set<String> = []
                for header in [nil, "Bearer", "Basic dGVzdA==", "Bearer wrong", "Bearer test-token-plus"] {
                    var headers: HTTPFields = [:]
                    if let header { headers[.authorization] = header }
                    let response = try await client.execute(uri: "/v1/daily", method: .get, headers: headers)
                    #expect(response.status == .unauthorized)
                    #expect(response.headers[.wwwAuthenticate] == "Bearer")
                    bodies.insert(response.text)
                }
                #expect(bodies.count == 1)
                #expect(bodies.first?.contains("test-token") == false)
                // An unknown path does not tell a client without a token that it is unknown.
                #expect(try await client.execute(uri: "/v1/nothing", method: .get).status == .unauthorized)
                #expect(try await client.execute(uri: "/v1/nothing", method: .get, headers: ServerFixture.headers()).status == .notFound)
            }
        }
    }

    @Test("the scheme is read in any case; the right token passes")
    func accepted() async throws {
        try await ServerFixture.with { fixture in
            try await fixture.server.makeApplication().test(.router) { client in
                for scheme in ["Bearer", "bearer", "BEARER"] {
                    let response = try await client.execute(uri: "/v1/stats", method: .get, headers: [.authorization: "\(scheme) test-token"])
                    #expect(response.status == .ok)
                }
            }
        }
    }
}
