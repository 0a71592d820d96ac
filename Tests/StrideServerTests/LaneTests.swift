import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import StrideEvents
import StrideLedger
import StrideTestSupport
import Testing

@testable import StrideServer

/// Every read that replays the log takes the heavy lane, whichever route asks — the API's, the
/// pages' — decided by the route table, not by a handler.
@Suite("The lane of a request")
struct LaneTests {
    static func request(_ path: String) -> Request {
        Request(
            head: HTTPRequest(method: .get, scheme: nil, authority: nil, path: path, headerFields: [:]),
            body: RequestBody(buffer: ByteBuffer()))
    }

    @Test("the route table: uploads and replays always heavy; a read that takes asRecorded heavy when given it, else quick")
    func table() {
        var asRecorded: [String] = []
        for endpoint in StrideAPI.endpoints {
            let plain = endpoint.lane(of: Self.request(endpoint.path))
            let recorded = endpoint.lane(of: Self.request(endpoint.path + "?asRecorded=5"))
            if case .upload = endpoint.body {
                #expect(plain == .heavy && recorded == .heavy, "\(endpoint.path)")
            } else if endpoint.path == "/v1/replay" {
                #expect(plain == .heavy, "\(endpoint.path)")
            } else if endpoint.query.contains(where: { $0.name == "asRecorded" }) {
                asRecorded.append(endpoint.path)
                #expect(plain == .quick && recorded == .heavy, "\(endpoint.path)")
                #expect(endpoint.lane(of: Self.request(endpoint.path + "?asOf=2024-05-01T00:00:00Z")) == .quick, "\(endpoint.path)")
            } else {
                // A parameter a route does not take changes nothing.
                #expect(plain == .quick && recorded == .quick, "\(endpoint.path)")
            }
        }
        // The mileage and every training read.
        #expect(asRecorded.contains("/v1/mileage") && asRecorded.contains("/v1/training/weeks") && asRecorded.contains("/v1/training/explain"))
        #expect(Lane.of(Self.request("/training?asRecorded=2024-05-01T00:00:00Z")) == .heavy)
        #expect(Lane.of(Self.request("/training?asOf=2024-05-01T00:00:00Z")) == .quick)
    }

    @Test("with the heavy lane full, reads as recorded (API and pages) are 503 with Retry-After; the present answers")
    func fullLane() async throws {
        try await ServerFixture.with(settings: ServerSettings(host: "127.0.0.1", port: 0, heavyWorkers: 1, heavyAdmitted: 1)) { fixture in
            let worker = try #require(fixture.server.sites.openSites.first?.api.worker)
            let gate = HeavyShareTests.Gate()
            let holder = gate.hold(worker)
            try await gate.waitUntilHeld(1)
            try await fixture.server.makeApplication().test(.router) { client in
                for uri in [
                    "/v1/training/weeks?asRecorded=1", "/v1/training/explain?kind=week&name=2024-W10&asRecorded=1", "/v1/mileage?asRecorded=1",
                ] {
                    let refused = try await client.execute(uri: uri, method: .get, headers: ServerFixture.headers())
                    #expect(refused.status == .serviceUnavailable, "\(uri)")
                    #expect(refused.headers[.retryAfter] == "5", "\(uri)")
                }
                for uri in ["/v1/training/weeks", "/v1/mileage", "/v1/training/weeks?asOf=2024-05-01T00:00:00Z"] {
                    #expect(try await client.execute(uri: uri, method: .get, headers: ServerFixture.headers()).status == .ok, "\(uri)")
                }
                let cookie = try await DashboardSiteTests.signIn(client, token: ServerFixture.token)
                let page = try await client.execute(uri: "/training?asRecorded=1", method: .get, headers: [.cookie: cookie])
                #expect(page.status == .serviceUnavailable)
                #expect(try await client.execute(uri: "/training", method: .get, headers: [.cookie: cookie]).status == .ok)
            }
            gate.open()
            try await holder.value
        }
    }
}
