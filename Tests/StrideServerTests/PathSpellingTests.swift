import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import StrideServer

/// One guard on one path: however a client spells a route, the API wants its token and a page
/// its session, because the path is made canonical before anything decides.
@Suite("A path spelled another way")
struct PathSpellingTests {
    @Test(
        "the canonical form of a request target",
        arguments: [
            ("/v1/journal", CanonicalPath.Outcome.path("/v1/journal", query: "")),
            ("//v1/journal", .path("/v1/journal", query: "")),
            ("/v1//journal", .path("/v1/journal", query: "")),
            ("/v1/./journal", .path("/v1/journal", query: "")),
            ("/./v1/journal/", .path("/v1/journal", query: "")),
            ("/v1%2Fjournal", .path("/v1/journal", query: "")),
            ("/v1%2fjournal", .path("/v1/journal", query: "")),
            ("/%76%31/daily?date=2024-06-01&x=%2F", .path("/v1/daily", query: "?date=2024-06-01&x=%2F")),
            ("/", .path("/", query: "")),
            ("", .refused("the request target must be a path starting with /")),
            ("//", .path("/", query: "")),
            ("/v1/../shoes", .refused("the path climbs with ..")),
            ("/v1/%2E%2E/shoes", .refused("the path climbs with ..")),
            ("/v1/journal%", .refused("the path holds a broken percent escape")),
            ("/v1/journal%2", .refused("the path holds a broken percent escape")),
            ("/v1/journal%zz", .refused("the path holds a broken percent escape")),
            ("/v1/journal%00", .refused("the path holds a control character or a backslash")),
            ("/v1%5Cjournal", .refused("the path holds a control character or a backslash")),
            ("/v1/%FF", .refused("the path is not UTF-8")),
            ("*", .refused("the request target must be a path starting with /")),
            ("http://example.com/v1/journal", .refused("the request target must be a path starting with /")),
        ])
    func canonical(target: String, expected: CanonicalPath.Outcome) {
        #expect(CanonicalPath.of(target) == expected)
    }

    /// The spellings a router reads as `path`.
    static func spellings(of path: String) -> [String] {
        let tail = path.dropFirst(4)  // after "/v1/"
        return [
            "/" + path, "/v1//" + tail, "/v1/./" + tail, "/./" + path.dropFirst(), path + "/", "/v1%2F" + tail, "/%76%31/" + tail,
            "/v1/" + tail.replacingOccurrences(of: "/", with: "%2F"),
        ]
    }

    @Test("every route of the API description, spelled seven other ways, wants a token: a session cookie alone is 401")
    func everyRoute() async throws {
        try await DashboardSiteTests.with { _, token, client in
            let described = try await client.execute(uri: "/v1/openapi.json", method: .get, headers: [.authorization: "Bearer \(token)"])
            let document = try #require(try JSONSerialization.jsonObject(with: Data(described.text.utf8)) as? [String: Any])
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            #expect(paths.count > 20)
            let cookie = try await DashboardSiteTests.signIn(client, token: token)
            let page = try await client.execute(uri: "/points", method: .get, headers: [.cookie: cookie])
            let csrf = try #require(DashboardSiteTests.csrf(in: page.text))
            for (path, operations) in paths.sorted(by: { $0.key < $1.key }) {
                for method in operations.keys.compactMap({ HTTPRequest.Method($0.uppercased()) }) {
                    for spelling in Self.spellings(of: path) {
                        // What a browser carrying the session sends, its forms' CSRF value too.
                        let withCookie: HTTPFields = [.cookie: cookie, .contentType: "application/json"]
                        let body = method == .post ? ByteBuffer(string: #"{"text": "x", "csrf": "\#(csrf)"}"#) : nil
                        let byCookie = try await client.execute(uri: spelling, method: method, headers: withCookie, body: body)
                        #expect(byCookie.status == .unauthorized, "\(method) \(spelling) with a session cookie: \(byCookie.status)")
                        let bare = try await client.execute(uri: spelling, method: method, body: body)
                        #expect(bare.status == .unauthorized, "\(method) \(spelling) without credentials: \(bare.status)")
                    }
                    // With the token, an odd spelling reaches the route (not 404): it is the same path.
                    guard method == .get, path != "/v1/events" else { continue }
                    let reached = try await client.execute(uri: "/" + path + "/", method: .get, headers: [.authorization: "Bearer \(token)"])
                    #expect(reached.status != .notFound && reached.status != .unauthorized, "GET /\(path)/ with the token: \(reached.status)")
                }
            }
        }
    }

    @Test("a page spelled another way is the page; a path that climbs or is broken is 400 before any guard")
    func pagesAndRefusals() async throws {
        try await DashboardSiteTests.with { _, token, client in
            let cookie = try await DashboardSiteTests.signIn(client, token: token)
            for spelling in ["//shoes", "/shoes/", "/./shoes", "/%73hoes"] {
                let page = try await client.execute(uri: spelling, method: .get, headers: [.cookie: cookie])
                #expect(page.status == .ok, "\(spelling)")
                #expect(page.text.contains("Pegasus 40"), "\(spelling)")
                let signedOut = try await client.execute(uri: spelling, method: .get)
                #expect(signedOut.status == .seeOther, "\(spelling)")
            }
            for broken in ["/v1/../shoes", "/%2e%2e/v1/shoes", "/v1/shoes%", "/v1/shoes%00"] {
                let refused = try await client.execute(uri: broken, method: .get, headers: [.authorization: "Bearer \(token)"])
                #expect(refused.status == .badRequest, "\(broken)")
                #expect(refused.object["error"] as? String != nil, "\(broken)")
            }
        }
    }
}
