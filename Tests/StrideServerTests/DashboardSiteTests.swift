import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import StrideContract
import StrideEvents
import StrideLedger
import StrideTestSupport
import Testing

@testable import StrideServer

/// The dashboard as a browser meets it: sign-in, the session cookie, pages, forms and their
/// guards, a revoked token, time travel.
@Suite("The served dashboard")
struct DashboardSiteTests {
    /// A server over a new ledger with one real device token (checked by the ledger itself).
    static func with(_ body: @escaping @Sendable (Ledger, String, any TestClientProtocol) async throws -> Void) async throws {
        let folder = NSTemporaryDirectory() + "stride-site-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let ledger = try Ledger.create(
            at: folder + "/ledger", timeZone: "Europe/Paris", clock: FixedClock(Timestamp(secondsSince1970: 1_717_243_200)))
        let token = try ledger.addToken(name: "marie-laptop", at: nil)
        try ledger.registerShoe(name: "Pegasus 40", brand: "Nike", startKilometers: 0, goalKilometers: 600, makeDefault: true, at: nil)
        let server = try StrideServer(ledger: ledger, settings: ServerSettings(host: "127.0.0.1", port: 0), logger: Logger(label: "test"))
        try await server.makeApplication().test(.router) { client in try await body(ledger, token, client) }
    }

    /// Signs in and returns the session cookie (`stride_session=…`).
    static func signIn(_ client: some TestClientProtocol, token: String) async throws -> String {
        let response = try await client.execute(
            uri: "/signin", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
            body: ByteBuffer(string: "token=" + token))
        #expect(response.status == .seeOther)
        let cookie = try #require(response.headers[.setCookie])
        return String(cookie.prefix { $0 != ";" })
    }

    /// The CSRF value of the page's forms.
    static func csrf(in html: String) -> String? {
        guard let range = html.range(of: #"name="csrf" value=""#) else { return nil }
        return String(html[range.upperBound...].prefix { $0 != "\"" })
    }

    static func form(_ fields: [(String, String)]) -> ByteBuffer {
        ByteBuffer(string: fields.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }.joined(separator: "&"))
    }

    @Test("without a session a page sends the browser to sign in, and a form is refused; the API still wants its token")
    func signedOut() async throws {
        try await Self.with { _, token, client in
            for path in ["/", "/daily", "/shoes", "/points", "/log", "/no-such-page"] {
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.status == .seeOther, "\(path)")
                #expect(response.headers[.location] == "/signin", "\(path)")
            }
            let form = try await client.execute(
                uri: "/shoes/add", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"], body: Self.form([("name", "X")]))
            #expect(form.status == .unauthorized)
            let signInPage = try await client.execute(uri: "/signin", method: .get)
            #expect(signInPage.status == .ok)
            #expect(signInPage.text.contains("type=\"password\""))
            // A session cookie opens no API route: the API takes bearer tokens only.
            let cookie = try await Self.signIn(client, token: token)
            #expect(try await client.execute(uri: "/v1/shoes", method: .get, headers: [.cookie: cookie]).status == .unauthorized)
        }
    }

    @Test(
        "a wrong token is refused on the sign-in page; the right one sets an HttpOnly, SameSite=Strict cookie and the pages open, never showing the token"
    )
    func signIn() async throws {
        try await Self.with { _, token, client in
            let wrong = try await client.execute(
                uri: "/signin", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "token=stride_0000"))
            #expect(wrong.status == .unauthorized)
            #expect(wrong.headers[.setCookie] == nil)
            #expect(wrong.text.contains("role=\"alert\""))
            let right = try await client.execute(
                uri: "/signin", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "token=" + token))
            let setCookie = try #require(right.headers[.setCookie])
            #expect(setCookie.contains("HttpOnly"))
            #expect(setCookie.contains("SameSite=Strict"))
            #expect(!setCookie.contains(token))
            let cookie = String(setCookie.prefix { $0 != ";" })
            for path in ["/", "/daily", "/shoes", "/points", "/log"] {
                let page = try await client.execute(uri: path, method: .get, headers: [.cookie: cookie])
                #expect(page.status == .ok, "\(path)")
                #expect(page.headers[.contentType] == "text/html; charset=utf-8")
                #expect(page.headers[.contentSecurityPolicy]?.contains("default-src 'none'") == true)
                #expect(page.headers[.cacheControl] == "no-store")
                #expect(!page.text.contains(token), "\(path)")
            }
        }
    }

    @Test("a form with the session's CSRF value is carried out, recorded as sent by the device, and said on the next page")
    func form() async throws {
        try await Self.with { ledger, token, client in
            let cookie = try await Self.signIn(client, token: token)
            let page = try await client.execute(uri: "/shoes", method: .get, headers: [.cookie: cookie])
            let csrf = try #require(Self.csrf(in: page.text))
            let headers: HTTPFields = [.cookie: cookie, .contentType: "application/x-www-form-urlencoded"]
            let sent = try await client.execute(
                uri: "/shoes/add", method: .post, headers: headers,
                body: Self.form([("csrf", csrf), ("name", "Novablast 4"), ("brand", "Asics"), ("goalKilometers", "500"), ("isDefault", "on")]))
            #expect(sent.status == .seeOther)
            #expect(sent.headers[.location] == "/shoes")
            let shoes = try ledger.shoes()
            let added = try #require(shoes.first { $0.shoe.name == "Novablast 4" })
            #expect(added.shoe.goalKilometers == 500)
            #expect(added.isDefault)
            let audit = try ShoeAuditDocument(ledger, shoe: ShoeID.text(added.shoe.id))
            #expect(audit.steps.first?.entry.sentBy == "marie-laptop")
            let next = try await client.execute(uri: "/shoes", method: .get, headers: [.cookie: cookie])
            #expect(next.text.contains("<p class=\"notice\" role=\"status\">Added Novablast 4"))
            // Said once.
            let again = try await client.execute(uri: "/shoes", method: .get, headers: [.cookie: cookie])
            #expect(!again.text.contains("class=\"notice"))
            // A refusal is said as the command line says it, and appends nothing.
            let before = try ledger.store.lastSequence()
            _ = try await client.execute(
                uri: "/shoes/add", method: .post, headers: headers, body: Self.form([("csrf", csrf), ("name", "Novablast 4")]))
            #expect(try ledger.store.lastSequence() == before)
            let refused = try await client.execute(uri: "/shoes", method: .get, headers: [.cookie: cookie])
            #expect(refused.text.contains("<p class=\"notice refused\" role=\"alert\">"))
            #expect(refused.text.contains("Novablast 4"))
        }
    }

    @Test("a form without the CSRF value, with another one, or from another site is refused with 403 and appends nothing")
    func forgery() async throws {
        try await Self.with { ledger, token, client in
            let cookie = try await Self.signIn(client, token: token)
            let csrf = try #require(Self.csrf(in: try await client.execute(uri: "/points", method: .get, headers: [.cookie: cookie]).text))
            let before = try ledger.store.lastSequence()
            let attempts: [(HTTPFields, [(String, String)])] = [
                ([:], []),
                ([:], [("csrf", String(repeating: "0", count: csrf.count))]),
                ([.origin: "https://evil.example"], [("csrf", csrf)]),
                // A sandboxed frame or a data: page: its origin is opaque.
                ([.origin: "null"], [("csrf", csrf)]),
                ([HTTPField.Name("Sec-Fetch-Site")!: "cross-site"], [("csrf", csrf)]),
            ]
            for (extra, fields) in attempts {
                var headers: HTTPFields = [.cookie: cookie, .contentType: "application/x-www-form-urlencoded"]
                headers.append(contentsOf: extra)
                let response = try await client.execute(uri: "/checkin", method: .post, headers: headers, body: Self.form(fields))
                #expect(response.status == .forbidden)
            }
            #expect(try ledger.store.lastSequence() == before)
            let allowed = try await client.execute(
                uri: "/checkin", method: .post,
                headers: [.cookie: cookie, .contentType: "application/x-www-form-urlencoded", HTTPField.Name("Sec-Fetch-Site")!: "same-origin"],
                body: Self.form([("csrf", csrf)]))
            #expect(allowed.status == .seeOther)
            #expect(try ledger.store.lastSequence() > before)
            // Signing in from an opaque origin (login forgery from a sandboxed page) is refused too.
            let signIn = try await client.execute(
                uri: "/signin", method: .post, headers: [.contentType: "application/x-www-form-urlencoded", .origin: "null"],
                body: ByteBuffer(string: "token=" + token))
            #expect(signIn.status == .forbidden)
            #expect(signIn.headers[.setCookie] == nil)
            // The pages tell the browser to send their origin with their own forms.
            let page = try await client.execute(uri: "/points", method: .get, headers: [.cookie: cookie])
            #expect(page.headers[HTTPField.Name("Referrer-Policy")!] == "same-origin")
        }
    }

    @Test("revoking the token ends its sessions at their next request; signing out ends one")
    func sessionsEnd() async throws {
        try await Self.with { ledger, token, client in
            let cookie = try await Self.signIn(client, token: token)
            #expect(try await client.execute(uri: "/", method: .get, headers: [.cookie: cookie]).status == .ok)
            try ledger.revokeToken(name: "marie-laptop", at: nil)
            let ended = try await client.execute(uri: "/", method: .get, headers: [.cookie: cookie])
            #expect(ended.status == .seeOther)
            #expect(ended.headers[.location] == "/signin?ended=1")
            #expect(ended.headers[.setCookie]?.contains("Max-Age=0") == true)
            #expect(try await client.execute(uri: "/", method: .get, headers: [.cookie: cookie]).status == .seeOther)

            let fresh = try ledger.addToken(name: "marie-phone", at: nil)
            let second = try await Self.signIn(client, token: fresh)
            let csrf = try #require(Self.csrf(in: try await client.execute(uri: "/", method: .get, headers: [.cookie: second]).text))
            let out = try await client.execute(
                uri: "/signout", method: .post, headers: [.cookie: second, .contentType: "application/x-www-form-urlencoded"],
                body: Self.form([("csrf", csrf)]))
            #expect(out.status == .seeOther)
            #expect(try await client.execute(uri: "/", method: .get, headers: [.cookie: second]).status == .seeOther)
        }
    }

    @Test("?asRecorded= shows a page as the ledger stood, read-only; a bad asOf or an unknown shoe is a page saying so")
    func timeTravel() async throws {
        try await Self.with { ledger, token, client in
            let cookie = try await Self.signIn(client, token: token)
            let registered = try ledger.store.lastSequence()
            try ledger.registerShoe(name: "Trail", brand: nil, startKilometers: 0, goalKilometers: nil, makeDefault: false, at: nil)
            let past = try await client.execute(uri: "/shoes?asRecorded=\(registered)", method: .get, headers: [.cookie: cookie])
            #expect(past.status == .ok)
            #expect(past.text.contains("As the ledger stood at sequence \(registered)"))
            #expect(!past.text.contains(">Trail<"))
            #expect(!past.text.contains("action=\"/shoes/add\""))
            let now = try await client.execute(uri: "/shoes", method: .get, headers: [.cookie: cookie])
            #expect(now.text.contains("Trail"))
            let bad = try await client.execute(uri: "/shoes?asOf=yesterday", method: .get, headers: [.cookie: cookie])
            #expect(bad.status == .badRequest)
            #expect(bad.text.contains("asOf"))
            let unknown = try await client.execute(uri: "/shoes/audit?shoe=nothing", method: .get, headers: [.cookie: cookie])
            #expect(unknown.status == .notFound)
            #expect(unknown.text.contains("role=\"alert\""))
        }
    }

    @Test("each day of the daily page links to its explanation, whose figure and last running total are the day's steps")
    func explainPage() async throws {
        try await Self.with { ledger, token, client in
            let file = NSTemporaryDirectory() + "explain-" + UUID().uuidString + ".ndjson"
            try """
            {"type":"HKQuantityTypeIdentifierStepCount","value":1200,"unit":"count","start":"2024-05-30T08:00:00+02:00","end":"2024-05-30T09:00:00+02:00","device":"watch"}
            {"type":"HKQuantityTypeIdentifierStepCount","value":900,"unit":"count","start":"2024-05-30T08:30:00+02:00","end":"2024-05-30T09:30:00+02:00","device":"phone"}

            """.write(toFile: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: file) }
            _ = try ledger.ingest(file: file)
            let cookie = try await Self.signIn(client, token: token)
            let daily = try await client.execute(uri: "/daily?from=2024-05-24&to=2024-05-31", method: .get, headers: [.cookie: cookie])
            #expect(daily.text.contains(#"href="/daily/explain?date=2024-05-30""#))
            let page = try await client.execute(uri: "/daily/explain?date=2024-05-30&measure=steps", method: .get, headers: [.cookie: cookie])
            #expect(page.status == .ok)
            // 1,200 from the watch, and the phone's 450 after the watch stops.
            #expect(page.text.contains("The figure: <strong>1,650 steps</strong>"))
            #expect(page.text.contains("the last running total equals it"))
            #expect(page.text.contains("counted in part: the watch took some of its time"))
            #expect(page.text.contains("<rect class=\"won watch\""))
            let bad = try await client.execute(uri: "/daily/explain?date=2024-05-30&measure=mood", method: .get, headers: [.cookie: cookie])
            #expect(bad.status == .badRequest)
        }
    }
}
