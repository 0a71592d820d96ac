import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import StrideTestSupport
import Testing

@testable import StrideServer

@Suite("GET /metrics: the server's figures for Prometheus, behind a token of their own")
struct MetricsTests {
    static let metricsToken = "metrics-token-0123456789abcdef"

    /// Settings that serve `/metrics` with ``metricsToken``.
    static var settings: ServerSettings {
        var settings = ServerSettings(host: "127.0.0.1", port: 0)
        settings.metricsToken = metricsToken
        return settings
    }

    static func scrape(_ client: any TestClientProtocol, token: String? = metricsToken) async throws -> TestResponse {
        try await client.execute(uri: "/metrics", method: .get, headers: token.map { [.authorization: "Bearer \($0)"] } ?? [:])
    }

    @Test("without --metrics-token-file there is no /metrics: 404, for a device's token too, and no sign-in redirect")
    func notConfigured() async throws {
        try await ServerFixture.with { fixture in
            try await fixture.server.makeApplication().test(.router) { client in
                for token in [nil, ServerFixture.token, Self.metricsToken] {
                    let answer = try await Self.scrape(client, token: token)
                    #expect(answer.status == .notFound, "\(token ?? "no token")")
                }
            }
        }
    }

    @Test("no token, a device's token or a wrong one is 401; the metrics token opens /metrics and nothing under /v1")
    func access() async throws {
        try await ServerFixture.with(settings: Self.settings) { fixture in
            try await fixture.server.makeApplication().test(.router) { client in
                for token in [nil, ServerFixture.token, "wrong", Self.metricsToken + "x", String(Self.metricsToken.dropLast())] {
                    let refused = try await Self.scrape(client, token: token)
                    #expect(refused.status == .unauthorized, "\(token ?? "no token")")
                    #expect(!refused.text.contains("# TYPE"))
                }
                let answered = try await Self.scrape(client)
                #expect(answered.status == .ok)
                #expect(answered.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
                let api = try await client.execute(uri: "/v1/stats", method: .get, headers: [.authorization: "Bearer \(Self.metricsToken)"])
                #expect(api.status == .unauthorized)
            }
        }
    }

    @Test("requests by route template and status, latency buckets, ingest bytes, events and ledger size — and no health figure")
    func figures() async throws {
        try await ServerFixture.with(settings: Self.settings) { fixture in
            try await fixture.server.makeApplication().test(.router) { client in
                let samples = ByteBuffer(string: ReadRouteTests.samples)
                let ingest = try await client.execute(
                    uri: "/v1/ingest", method: .post, headers: ServerFixture.headers(contentType: "application/x-ndjson"), body: samples)
                #expect(ingest.status == .ok)
                let shoe = try await client.execute(
                    uri: "/v1/shoes", method: .post, headers: ServerFixture.headers(contentType: "application/json"),
                    body: .json(#"{"name": "Pegasus 40", "goalKilometers": 800}"#))
                #expect(shoe.status == .created)
                let rename = try await client.execute(
                    uri: "/v1/shoes/rename", method: .post, headers: ServerFixture.headers(contentType: "application/json"),
                    body: .json(#"{"shoe": "Pegasus 40", "name": "Peg"}"#))
                #expect(rename.status == .ok)
                let missing = try await client.execute(
                    uri: "/v1/shoes/rename", method: .post, headers: ServerFixture.headers(contentType: "application/json"),
                    body: .json(#"{"shoe": "Vaporfly", "name": "Fly"}"#))
                #expect(missing.status == .notFound)
                #expect(
                    try await client.execute(uri: "/v1/daily?from=2024-05-01&to=2024-05-02", method: .get, headers: ServerFixture.headers()).status
                        == .ok)
                #expect(try await client.execute(uri: "/v1/zz-unknown/4711", method: .get, headers: ServerFixture.headers()).status == .notFound)
                #expect(try await client.execute(uri: "/v1/daily", method: .get).status == .unauthorized)

                let text = try await Self.scrape(client).text
                let exposition = try Exposition(text)
                #expect(exposition.types["stride_http_requests_total"] == "counter")
                #expect(exposition.types["stride_http_request_duration_seconds"] == "histogram")
                #expect(exposition.types["stride_ingest_received_bytes_total"] == "counter")
                #expect(exposition.types["stride_ledger_events_appended_total"] == "counter")
                #expect(exposition.types["stride_ledger_size_bytes"] == "gauge")

                let requests = "stride_http_requests_total"
                #expect(exposition.value(requests, ["route": "/v1/ingest", "method": "POST", "status": "200"]) == 1)
                #expect(exposition.value(requests, ["route": "/v1/shoes", "method": "POST", "status": "201"]) == 1)
                #expect(exposition.value(requests, ["route": "/v1/shoes/rename", "method": "POST", "status": "200"]) == 1)
                #expect(exposition.value(requests, ["route": "/v1/shoes/rename", "method": "POST", "status": "404"]) == 1)
                #expect(exposition.value(requests, ["route": "/v1/daily", "method": "GET", "status": "200"]) == 1)
                #expect(exposition.value(requests, ["route": "/v1/daily", "method": "GET", "status": "401"]) == 1)
                #expect(exposition.value(requests, ["route": "unmatched", "method": "GET", "status": "404"]) == 1)
                // Never a raw path, an id or a query.
                #expect(!text.contains("zz-unknown"))
                #expect(!text.contains("4711"))
                #expect(!text.contains("2024-05"))

                let buckets = "stride_http_request_duration_seconds_bucket"
                let renameBuckets = exposition.samples.filter { $0.name == buckets && $0.labels["route"] == "/v1/shoes/rename" }
                #expect(renameBuckets.count == ServerMetrics.latencyBuckets.count + 1)
                #expect(renameBuckets.last?.labels["le"] == "+Inf")
                #expect(renameBuckets.last?.value == 2)
                #expect(renameBuckets.map(\.value) == renameBuckets.map(\.value).sorted())
                #expect(exposition.value("stride_http_request_duration_seconds_count", ["route": "/v1/shoes/rename", "method": "POST"]) == 2)

                #expect(exposition.value("stride_ingest_received_bytes_total", [:]) == Double(samples.readableBytes))
                let runner = URL(fileURLWithPath: fixture.ledger.path).lastPathComponent
                let lastSequence = try fixture.ledger.lastSequence()
                #expect(lastSequence > 0)
                #expect(exposition.value("stride_ledger_events_appended_total", ["runner": runner]) == Double(lastSequence))
                let size = try #require(exposition.value("stride_ledger_size_bytes", ["runner": runner]))
                let attributes = try FileManager.default.attributesOfItem(atPath: fixture.ledger.path + "/data.mdb")
                #expect(size == Double(try #require(attributes[.size] as? Int)))

                // What the ledger holds appears nowhere: no measure, no value, no name — in the
                // names, labels and help (a sample's own value is a count, a time or a size).
                let lowered = text.split(separator: "\n").map { $0.hasPrefix("#") ? $0 : $0.prefix { $0 != " " } }.joined(separator: "\n")
                    .lowercased()
                for word in ["step", "heart", "distance", "kilomet", "km", "sleep", "energy", "point", "pegasus", "strava", "1200", "5.02"] {
                    #expect(!lowered.contains(word), "\(word)")
                }

                // The events counter only grows, by what was appended since the last scrape.
                _ = try await client.execute(
                    uri: "/v1/checkin", method: .post, headers: ServerFixture.headers(contentType: "application/json"), body: .json("{}"))
                let later = try Exposition(try await Self.scrape(client).text)
                #expect(later.value("stride_ledger_events_appended_total", ["runner": runner]) == Double(try fixture.ledger.lastSequence()))
                #expect(later.value(requests, ["route": "/metrics", "method": "GET", "status": "200"]) == 1)
            }
        }
    }

    @Test("two servers in one process keep their own counts")
    func separateRegistries() async throws {
        try await ServerFixture.with(settings: Self.settings) { first in
            try await ServerFixture.with(settings: Self.settings) { second in
                try await first.server.makeApplication().test(.router) { client in
                    let stats = try await client.execute(uri: "/v1/stats", method: .get, headers: ServerFixture.headers())
                    #expect(stats.status == .ok)
                }
                try await second.server.makeApplication().test(.router) { client in
                    let exposition = try Exposition(try await Self.scrape(client).text)
                    #expect(exposition.value("stride_http_requests_total", ["route": "/v1/stats", "method": "GET", "status": "200"]) == nil)
                }
            }
        }
    }

    @Test("over a real socket: the same answer, with the metrics token only")
    func live() async throws {
        try await ServerFixture.with(settings: Self.settings) { fixture in
            try await fixture.server.makeApplication().test(.live) { client in
                #expect(try await Self.scrape(client, token: ServerFixture.token).status == .unauthorized)
                let answer = try await Self.scrape(client)
                #expect(answer.status == .ok)
                #expect(try Exposition(answer.text).types["stride_ledger_size_bytes"] == "gauge")
            }
        }
    }

    @Test("the token file: private, one token of 16 characters or more; anything else refused with what to do")
    func tokenFile() throws {
        try withTemporaryDirectory { folder in
            let path = folder + "/metrics-token"
            try "  \(Self.metricsToken)\n".write(toFile: path, atomically: false, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
            #expect(try MetricsToken.read(fromFile: path) == Self.metricsToken)
            try FileManager.default.setAttributes([.posixPermissions: 0o400], ofItemAtPath: path)
            #expect(try MetricsToken.read(fromFile: path) == Self.metricsToken)

            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
            let exposed = #expect(throws: MetricsToken.FileError.self) { try MetricsToken.read(fromFile: path) }
            #expect(exposed?.description.contains("chmod 600") == true)
            #expect(exposed?.description.contains(Self.metricsToken) == false)

            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
            for text in ["short", "", "two tokens-0123456789abcdef"] {
                try text.write(toFile: path, atomically: false, encoding: .utf8)
                let refused = #expect(throws: MetricsToken.FileError.self) { try MetricsToken.read(fromFile: path) }
                #expect(refused?.description.contains("openssl rand") == true)
            }
            #expect(throws: MetricsToken.FileError.self) { try MetricsToken.read(fromFile: folder + "/missing") }
        }
    }
}

/// Prometheus' text format, read strictly enough to catch a malformed answer: every line is a
/// comment (`# HELP`, `# TYPE`) or a sample of a declared family, `name{labels} value`.
struct Exposition {
    struct Sample {
        var name: String
        var labels: [String: String]
        var value: Double
    }

    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    /// The kind of each family, by its `# TYPE` line.
    var types: [String: String] = [:]
    var samples: [Sample] = []

    init(_ text: String) throws {
        let sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? ([0-9.eE+-]+|NaN|\+Inf|-Inf)$/
        let label = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/
        guard text.hasSuffix("\n") else { throw Malformed(description: "the text does not end with a line feed") }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            if line.hasPrefix("# HELP ") { continue }
            if line.hasPrefix("# TYPE ") {
                let parts = line.split(separator: " ")
                guard parts.count == 4, ["counter", "gauge", "histogram", "summary", "untyped"].contains(parts[3]) else {
                    throw Malformed(description: "a TYPE line of an unknown form: \(line)")
                }
                guard types.updateValue(String(parts[3]), forKey: String(parts[2])) == nil else {
                    throw Malformed(description: "a family typed twice: \(line)")
                }
                continue
            }
            guard let match = try sample.wholeMatch(in: String(line)) else { throw Malformed(description: "not a sample: \(line)") }
            let name = String(match.1)
            let family =
                ["_bucket", "_sum", "_count"].first { name.hasSuffix($0) && types[String(name.dropLast($0.count))] == "histogram" }
                .map { String(name.dropLast($0.count)) } ?? name
            guard types[family] != nil else { throw Malformed(description: "a sample before its TYPE line: \(line)") }
            var labels: [String: String] = [:]
            if let text = match.2 {
                var rest = Substring(text)
                while !rest.isEmpty {
                    guard let pair = try label.prefixMatch(in: rest) else { throw Malformed(description: "bad labels: \(line)") }
                    labels[String(pair.1)] = String(pair.2)
                    rest = rest[pair.range.upperBound...]
                }
            }
            guard let value = Double(match.3) ?? (match.3 == "+Inf" ? .infinity : nil) else {
                throw Malformed(description: "bad value: \(line)")
            }
            samples.append(Sample(name: name, labels: labels, value: value))
        }
    }

    /// The value of the sample of `name` with exactly these labels, or nil.
    func value(_ name: String, _ labels: [String: String]) -> Double? {
        samples.first { $0.name == name && $0.labels == labels }?.value
    }
}
