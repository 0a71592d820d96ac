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

/// Two runners on one server: each device's token opens its own runner's ledger and no other,
/// on every route of the API description, on the pages and on the event stream.
@Suite("Runners on one server are kept apart")
struct RunnerIsolationTests {
    /// A shared server's folder with two runners, marie and bob, each with a token, a shoe, a
    /// workout and a journal entry.
    struct Club {
        let folder: RunnersFolder
        let marie: Ledger
        let bob: Ledger
        /// The tokens as their devices present them (`marie.stride_…`).
        let marieToken: String
        let bobToken: String
        let bobShoe: String
        let bobWorkout: String
        /// What of bob's no answer to marie may hold.
        let bobSecrets: [String]
        let server: StrideServer
    }

    static let clock = FixedClock(Timestamp(secondsSince1970: 1_717_243_200))

    static func with(_ body: (Club) async throws -> Void) async throws {
        try await withTemporaryDirectory { (directory: String) async throws in
            let folder = RunnersFolder(path: directory + "/runners")
            let marie = try folder.add(name: "marie", timeZone: "Europe/Paris", clock: clock)
            let bob = try folder.add(name: "bob", timeZone: "America/New_York", clock: clock)
            let marieToken = RunnerToken.presented(try marie.addToken(name: "marie-phone", at: nil), runner: "marie")
            let bobToken = RunnerToken.presented(try bob.addToken(name: "bob-watch-7731", at: nil), runner: "bob")
            try ReadRouteTests.fill(marie)
            try fill(bob)
            let bobShoe = try #require(try firstID(of: ShoesDocument(bob), in: "shoes"))
            let bobWorkout = try #require(try firstID(of: WorkoutsDocument(bob), in: "workouts"))
            let server = StrideServer(
                runners: folder, settings: ServerSettings(host: "127.0.0.1", port: 0), logger: Logger(label: "test"), clock: clock)
            try await body(
                Club(
                    folder: folder, marie: marie, bob: bob, marieToken: marieToken, bobToken: bobToken, bobShoe: bobShoe, bobWorkout: bobWorkout,
                    bobSecrets: [bobShoe, bobWorkout, "bob-watch-7731", "Zwartkop 3", "a secret of bob's", "7.77", "America/New_York"],
                    server: server))
        }
    }

    /// The `id` of the first item of a document's list, as the API shows it.
    static func firstID(of document: some ContractDocument, in list: String) throws -> String? {
        let object = try JSONSerialization.jsonObject(with: Data(document.json.text.utf8)) as? [String: Any]
        return ((object?[list] as? [[String: Any]])?.first?["id"]).map { "\($0)" }
    }

    /// Bob's ledger: a run of 7.77 km, a shoe, a journal entry.
    static func fill(_ ledger: Ledger) throws {
        let file = NSTemporaryDirectory() + "stride-bob-" + UUID().uuidString + ".ndjson"
        try
            #"{"activity":"HKWorkoutActivityTypeRunning","start":"2024-05-02T07:00:00-04:00","end":"2024-05-02T07:45:00-04:00","distance":7.77,"distanceUnit":"km","source":"Garmin"}"#
            .write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        _ = try ledger.ingest(file: file)
        _ = try ledger.registerShoe(name: "Zwartkop 3", brand: "Hoka", startKilometers: 3, goalKilometers: 700, makeDefault: false, at: nil)
        _ = try ledger.addJournalEntry("a secret of bob's", at: nil)
    }

    /// A value for a field of the API description, naming bob's data where the field names data.
    static func value(for name: String, schema: [String: Any], club: Club) -> Any {
        switch name {
        case "shoe": return club.bobShoe
        case "workout", "other": return club.bobWorkout
        case "name": return "Zwartkop 3"
        case "date", "reopen", "from", "to": return "2024-05-02"
        case "at", "asOf": return "2024-05-02T12:00:00-04:00"
        default: break
        }
        switch schema["type"] as? String {
        case "integer": return 1
        case "number": return 1.0
        case "boolean": return false
        case "array": return [club.bobWorkout]
        default: return "x"
        }
    }

    @Test(
        "every route of the API description, sent with marie's token and bob's ids, shoe names and workouts: 401 or 404, or marie's own data — never bob's, and bob's ledger is untouched"
    )
    func everyRoute() async throws {
        try await Self.with { club in
            let bobEvents = try club.bob.lastSequence()
            try await club.server.makeApplication().test(.router) { client in
                let marie: HTTPFields = [.authorization: "Bearer \(club.marieToken)"]
                let described = try await client.execute(uri: "/v1/openapi.json", method: .get, headers: marie)
                #expect(described.status == .ok)
                let document = try #require(try JSONSerialization.jsonObject(with: Data(described.text.utf8)) as? [String: Any])
                let paths = try #require(document["paths"] as? [String: [String: Any]])
                #expect(paths.count > 20)
                var tried = 0
                for (path, operations) in paths.sorted(by: { $0.key < $1.key }) where path != "/v1/events" {
                    for (methodName, operation) in operations {
                        guard let method = HTTPRequest.Method(methodName.uppercased()), let operation = operation as? [String: Any] else { continue }
                        let query = ((operation["parameters"] as? [[String: Any]]) ?? []).compactMap { parameter -> String? in
                            guard let name = parameter["name"] as? String else { return nil }
                            let value = Self.value(for: name, schema: parameter["schema"] as? [String: Any] ?? [:], club: club)
                            return name + "=" + "\(value)".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                        }
                        let uri = path + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
                        var headers = marie
                        var body: ByteBuffer?
                        if let content = (operation["requestBody"] as? [String: Any])?["content"] as? [String: Any] {
                            if let json = content["application/json"] as? [String: Any] {
                                let properties = ((json["schema"] as? [String: Any])?["properties"] as? [String: [String: Any]]) ?? [:]
                                let object = Dictionary(
                                    uniqueKeysWithValues: properties.map { ($0.key, Self.value(for: $0.key, schema: $0.value, club: club)) })
                                body = ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: object))
                                headers[.contentType] = "application/json"
                            } else if let type = content.keys.sorted().first {
                                body = ByteBuffer(string: "x")
                                headers[.contentType] = type
                            }
                        }
                        let answer = try await client.execute(uri: uri, method: method, headers: headers, body: body)
                        tried += 1
                        let status = answer.status.code
                        #expect(status != 500, "\(method) \(uri): \(answer.text)")
                        if status != 401 && status != 404 {
                            for secret in club.bobSecrets {
                                #expect(
                                    !answer.text.contains(secret),
                                    "\(method) \(uri) answered \(status) with bob's \(secret): \(answer.text.prefix(300))")
                            }
                        }
                        // A token naming bob with marie's token after it, or naming nobody: 401.
                        let secretPart = String(club.marieToken.dropFirst("marie.".count))
                        for forged in ["bob." + secretPart, secretPart, "carol." + secretPart, "bob." + club.marieToken] {
                            let refused = try await client.execute(
                                uri: uri, method: method, headers: [.authorization: "Bearer \(forged)"], body: body)
                            #expect(refused.status == .unauthorized, "\(method) \(uri) with \(forged.prefix(12))…: \(refused.status)")
                        }
                    }
                }
                #expect(tried > 25)
                // Marie's token reads marie's ledger; bob's, bob's.
                let maries = try await client.execute(uri: "/v1/shoes", method: .get, headers: marie)
                #expect(maries.text.contains("Pegasus 40"))
                let bobs = try await client.execute(uri: "/v1/shoes", method: .get, headers: [.authorization: "Bearer \(club.bobToken)"])
                #expect(bobs.text.contains("Zwartkop 3"))
            }
            #expect(try club.bob.lastSequence() == bobEvents, "bob's ledger changed")
        }
    }

    @Test("the dashboard signs a runner in to their own ledger: marie's pages and forms are marie's; a forged token signs nobody in")
    func pages() async throws {
        try await Self.with { club in
            try await club.server.makeApplication().test(.router) { client in
                let cookie = try await DashboardSiteTests.signIn(client, token: club.marieToken)
                for path in ["/", "/shoes", "/points", "/log", "/daily?from=2024-05-01&to=2024-05-03"] {
                    let page = try await client.execute(uri: path, method: .get, headers: [.cookie: cookie])
                    #expect(page.status == .ok, "\(path)")
                    for secret in club.bobSecrets { #expect(!page.text.contains(secret), "\(path) shows bob's \(secret)") }
                }
                let shoes = try await client.execute(uri: "/shoes", method: .get, headers: [.cookie: cookie])
                #expect(shoes.text.contains("Pegasus 40"))
                // A form from marie's page acts on marie's ledger.
                let csrf = try #require(DashboardSiteTests.csrf(in: shoes.text))
                let before = (try club.marie.lastSequence(), try club.bob.lastSequence())
                let sent = try await client.execute(
                    uri: "/journal", method: .post, headers: [.cookie: cookie, .contentType: "application/x-www-form-urlencoded"],
                    body: DashboardSiteTests.form([("csrf", csrf), ("text", "marie ran")]))
                #expect(sent.status == .seeOther)
                #expect(try club.marie.lastSequence() > before.0)
                #expect(try club.bob.lastSequence() == before.1)
                let secretPart = String(club.marieToken.dropFirst("marie.".count))
                for forged in ["bob." + secretPart, secretPart, "nobody." + secretPart] {
                    let refused = try await client.execute(
                        uri: "/signin", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                        body: ByteBuffer(string: "token=" + forged))
                    #expect(refused.status == .unauthorized, "\(forged.prefix(10))…")
                    #expect(refused.headers[.setCookie] == nil)
                }
            }
        }
    }

    @Test("marie's event stream carries marie's events only")
    func eventStream() async throws {
        try await Self.with { club in
            let last = try club.marie.lastSequence()
            try await club.server.makeApplication().test(.live) { client in
                let port = try #require(client.port)
                let stream = try await EventStreamTests.read(
                    port: port, path: "/v1/events?after=0", headers: ["Authorization: Bearer \(club.marieToken)"], until: "id: \(last)\n")
                #expect(stream.hasPrefix("HTTP/1.1 200"))
                #expect(stream.contains("id: \(last)\n"))
                #expect(stream.contains("Pegasus 40"))
                for secret in club.bobSecrets { #expect(!stream.contains(secret), "bob's \(secret)") }
                let forged = try await EventStreamTests.read(
                    port: port, path: "/v1/events?after=0", headers: ["Authorization: Bearer bob.\(club.marieToken.dropFirst(6))"], until: "\r\n\r\n")
                #expect(forged.hasPrefix("HTTP/1.1 401"))
            }
        }
    }

    @Test("a runner added while the server runs is served at their first request; one removed is shut out at their next, their ledger kept")
    func addedAndRemoved() async throws {
        try await Self.with { club in
            try await club.server.makeApplication().test(.router) { client in
                let bobCookie = try await DashboardSiteTests.signIn(client, token: club.bobToken)
                let carol = try club.folder.add(name: "carol", timeZone: "UTC", clock: Self.clock)
                let carolToken = RunnerToken.presented(try carol.addToken(name: "carol-phone", at: nil), runner: "carol")
                let carols = try await client.execute(uri: "/v1/shoes", method: .get, headers: [.authorization: "Bearer \(carolToken)"])
                #expect(carols.status == .ok)
                let kept = try #require(try club.folder.remove(name: "bob", deleting: false, at: Self.clock.now()))
                #expect(FileManager.default.fileExists(atPath: kept + "/data.mdb"))
                let api = try await client.execute(uri: "/v1/shoes", method: .get, headers: [.authorization: "Bearer \(club.bobToken)"])
                #expect(api.status == .unauthorized)
                let page = try await client.execute(uri: "/shoes", method: .get, headers: [.cookie: bobCookie])
                #expect(page.status == .seeOther)
                #expect(try club.folder.names() == ["carol", "marie"])
            }
        }
    }

    @Test("a shared server's /metrics counts every runner's requests by route template, and each open ledger's size by runner")
    func metrics() async throws {
        try await Self.with { club in
            let server = StrideServer(runners: club.folder, settings: MetricsTests.settings, logger: Logger(label: "test"), clock: Self.clock)
            try await server.makeApplication().test(.router) { client in
                for token in [club.marieToken, club.bobToken] {
                    let shoes = try await client.execute(uri: "/v1/shoes", method: .get, headers: [.authorization: "Bearer \(token)"])
                    #expect(shoes.status == .ok)
                }
                let missing = try await client.execute(
                    uri: "/v1/mileage/explain?shoe=nothing", method: .get, headers: [.authorization: "Bearer \(club.marieToken)"])
                #expect(missing.status == .notFound)
                #expect(
                    try await client.execute(uri: "/v1/shoes", method: .get, headers: [.authorization: "Bearer nobody.x"]).status == .unauthorized)
                #expect(try await MetricsTests.scrape(client, token: club.marieToken).status == .unauthorized)
                let scraped = try await MetricsTests.scrape(client)
                #expect(scraped.status == .ok)
                let exposition = try Exposition(scraped.text)
                #expect(exposition.value("stride_http_requests_total", ["route": "/v1/shoes", "method": "GET", "status": "200"]) == 2)
                #expect(exposition.value("stride_http_requests_total", ["route": "/v1/mileage/explain", "method": "GET", "status": "404"]) == 1)
                // The token naming nobody was refused on the route it asked for, which the router names.
                #expect(exposition.value("stride_http_requests_total", ["route": "/v1/shoes", "method": "GET", "status": "401"]) == 1)
                let marieBytes = try #require(try FileManager.default.attributesOfItem(atPath: club.marie.path + "/data.mdb")[.size] as? Int)
                #expect(exposition.value("stride_ledger_size_bytes", ["runner": "marie"]) == Double(marieBytes))
                #expect(exposition.value("stride_ledger_size_bytes", ["runner": "bob"]) != nil)
                for secret in club.bobSecrets { #expect(!scraped.text.contains(secret)) }
            }
        }
    }

    @Test("a runner whose ledger cannot be opened gets 503 and a line in the server's log; the others are served; runners list names the problem")
    func damagedLedger() async throws {
        try await Self.with { club in
            let carol = club.folder.ledgerPath(of: "carol")
            try FileManager.default.createDirectory(atPath: carol, withIntermediateDirectories: true)
            try Data(repeating: 0x5A, count: 64 << 10).write(to: URL(fileURLWithPath: carol + "/data.mdb"))
            try await club.server.makeApplication().test(.router) { client in
                let refused = try await client.execute(uri: "/v1/shoes", method: .get, headers: [.authorization: "Bearer carol.stride_00"])
                #expect(refused.status == .serviceUnavailable)
                #expect((refused.object["error"] as? String)?.contains("server's log") == true)
                let marie = try await client.execute(uri: "/v1/shoes", method: .get, headers: [.authorization: "Bearer \(club.marieToken)"])
                #expect(marie.status == .ok)
            }
            let listed = try RunnersDocument(club.folder, clock: Self.clock)
            #expect(listed.runners.map(\.name) == ["bob", "carol", "marie"])
            #expect(listed.runners[1].problem != nil)
            #expect(listed.runners[0].problem == nil && listed.runners[0].timeZone == "America/New_York")
            #expect(listed.json.text.contains(#""name":"carol","timeZone":"","events":0,"bytes":0,"devices":[],"problem":"#))
        }
    }
}
