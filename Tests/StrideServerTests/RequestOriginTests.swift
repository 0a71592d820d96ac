import HTTPTypes
import Testing

@testable import StrideServer

@Suite("Where a browser reached the server, behind a proxy or not")
struct RequestOriginTests {
    static let loopback: Set<String> = ["127.0.0.1", "::1"]

    @Test(
        "forwarded headers count only from a trusted proxy; Forwarded before X-Forwarded-*; Secure only over https",
        arguments: [
            // (headers, peer, expected first accepted origin, secure)
            ([("X-Forwarded-Proto", "https"), ("X-Forwarded-Host", "stride.example.org")], "127.0.0.1", "https://stride.example.org", true),
            ([("X-Forwarded-Proto", "https"), ("X-Forwarded-Host", "stride.example.org")], "10.0.0.7", "http://127.0.0.1:8080", false),
            ([("X-Forwarded-Proto", "https, http")], "::1", "https://127.0.0.1:8080", true),
            (
                [("Forwarded", #"for=192.0.2.60;proto=https;host="Stride.Example.org""#), ("X-Forwarded-Proto", "http")], "127.0.0.1",
                "https://stride.example.org", true
            ),
            ([("X-Forwarded-Proto", "gopher")], "127.0.0.1", "http://127.0.0.1:8080", false),
            ([], "127.0.0.1", "http://127.0.0.1:8080", false),
        ] as [([(String, String)], String, String, Bool)])
    func forwarded(headers: [(String, String)], peer: String, first: String, secure: Bool) throws {
        var fields = HTTPFields()
        for (name, value) in headers { fields[try #require(HTTPField.Name(name))] = value }
        let origin = RequestOrigin.of(headers: fields, authority: "127.0.0.1:8080", peer: peer, trustedProxies: Self.loopback, publicURL: nil)
        #expect(origin.accepted.first == first)
        #expect(origin.isSecure == secure)
    }

    @Test("with nginx's default Host, the public URL is what the browser's Origin is checked against, and makes the cookie Secure")
    func publicURL() {
        let fields: HTTPFields = [.origin: "https://stride.example.org"]
        let origin = RequestOrigin.of(
            headers: fields, authority: "127.0.0.1:8080", peer: "127.0.0.1", trustedProxies: [], publicURL: "https://stride.example.org")
        #expect(origin.accepted.contains("https://stride.example.org"))
        #expect(origin.isSecure)
        let elsewhere = RequestOrigin.of(
            headers: [.origin: "https://evil.example"], authority: "127.0.0.1:8080", peer: "127.0.0.1", trustedProxies: [],
            publicURL: "https://stride.example.org")
        #expect(!elsewhere.accepted.contains("https://evil.example"))
        #expect(!elsewhere.isSecure)
    }

    @Test(
        "a public URL is an http or https origin, a trailing slash allowed, nothing else",
        arguments: [
            ("https://stride.example.org", "https://stride.example.org"), ("HTTPS://Stride.Example.org/", "https://stride.example.org"),
            ("http://192.168.1.4:8443", "http://192.168.1.4:8443"), ("https://stride.example.org/dashboard", nil), ("ftp://x", nil),
            ("stride.example.org", nil), ("https://", nil), ("https://user@host", nil),
        ] as [(String, String?)])
    func publicURLs(text: String, origin: String?) {
        #expect(RequestOrigin.origin(ofPublicURL: text) == origin)
    }
}
