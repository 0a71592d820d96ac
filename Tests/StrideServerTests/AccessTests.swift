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

    @Test("spaces and tabs around the token are ignored; a scheme alone, or another one, is not a token")
    func headerForms() {
        #expect(TokenMiddleware.bearerToken("Bearer \t abc \t") == "abc")
        #expect(TokenMiddleware.bearerToken("bEaReR x") == "x")
        #expect(TokenMiddleware.bearerToken("Bearer    ") == nil)
        #expect(TokenMiddleware.bearerToken("Bearerabc") == nil)
        #expect(TokenMiddleware.bearerToken("Basic abc") == nil)
        #expect(TokenMiddleware.bearerToken("Bearer é") == "é")
        #expect(TokenMiddleware.bearerToken(nil) == nil)
    }

    @Test("a token added while the server runs is let in at its first request; one revoked is refused at its next, for a read and an action alike")
    func tokensChangeWhileServing() async throws {
        try await ServerFixture.with { fixture in
            try await fixture.server.makeApplication().test(.router) { client in
                // The server has seen the fixture's token: its device is kept between requests.
                #expect(try await client.execute(uri: "/v1/stats", method: .get, headers: ServerFixture.headers()).status == .ok)
                // `stride tokens add` in another process does what this does: event and gate.
                let added = try fixture.ledger.addToken(name: "watch", at: nil)
                let watch: HTTPFields = [.authorization: "Bearer \(added)"]
                #expect(try await client.execute(uri: "/v1/stats", method: .get, headers: watch).status == .ok)
                try fixture.ledger.revokeToken(name: ServerFixture.device, at: nil)
                for (uri, method) in [("/v1/stats", HTTPRequest.Method.get), ("/v1/checkin", .post)] {
                    let headers = ServerFixture.headers(contentType: "application/json")
                    let refused = try await client.execute(uri: uri, method: method, headers: headers, body: ByteBuffer(string: "{}"))
                    #expect(refused.status == .unauthorized, "\(method) \(uri)")
                }
                #expect(try await client.execute(uri: "/v1/stats", method: .get, headers: watch).status == .ok)
            }
        }
    }
}
