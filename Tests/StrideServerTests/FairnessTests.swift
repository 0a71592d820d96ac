import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import StrideServer

@Suite("Heavy work has a lane of its own; closed streams free their slots")
struct FairnessTests {
    @Test("while an upload holds the heavy lane, a replay is 503 with Retry-After and token checks and reads answer at once")
    func heavyLane() async throws {
        let settings = ServerSettings(
            port: 0, idleTimeoutSeconds: 30, minimumUploadBytesPerSecond: 1, uploadGraceSeconds: 30, heavyWorkers: 1, heavyAdmitted: 1)
        try await ServerFixture.with(settings: settings) { fixture in
            try await fixture.server.makeApplication().test(.live) { client in
                let port = try #require(client.port)
                let head =
                    "POST /v1/ingest HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(ServerFixture.token)\r\n"
                    + "Content-Type: application/x-ndjson\r\nContent-Length: 100000\r\n\r\n"
                // An upload dribbled for about three seconds, then left open until the client's
                // ten-second receive timeout, holds the lane's one admission for about 13 s.
                let uploadBegan = Date()
                async let upload = SlowClientTests.hold(port: port, sending: head, trickle: String(repeating: " ", count: 12), pause: 0.25)
                try await Task.sleep(for: .milliseconds(500))
                let replay = try await client.execute(uri: "/v1/replay?until=1", method: .get, headers: ServerFixture.headers())
                #expect(replay.status == .serviceUnavailable)
                #expect(replay.headers[.retryAfter] == "5")
                let stats = try await client.execute(uri: "/v1/stats", method: .get, headers: ServerFixture.headers())
                #expect(stats.status == .ok)
                let denied = try await client.execute(uri: "/v1/stats", method: .get, headers: [.authorization: "Bearer wrong"])
                #expect(denied.status == .unauthorized)
                let readsAnswered = Date().timeIntervalSince(uploadBegan)
                let (_, uploadSeconds) = try await upload
                // Reads queued behind the upload would answer only once it had gone. They answered
                // while it still held the lane, seconds before it went (not a fixed bound, which a
                // loaded machine can miss).
                #expect(readsAnswered + 3 < uploadSeconds, "reads answered after \(readsAnswered) s, the upload held on for \(uploadSeconds) s")
                // Once the upload is gone — the server notices the closed connection and frees
                // its place, within a few seconds on a loaded machine — the lane admits the replay.
                let closed = ContinuousClock.now
                var status = HTTPResponse.Status.serviceUnavailable
                while status == .serviceUnavailable, ContinuousClock.now - closed < .seconds(10) {
                    status = try await client.execute(uri: "/v1/replay?until=1", method: .get, headers: ServerFixture.headers()).status
                    if status == .serviceUnavailable { try await Task.sleep(for: .milliseconds(100)) }
                }
                #expect(status == .ok)
            }
        }
    }

    @Test("an event stream whose client went away frees its slot within seconds")
    func streamSlot() async throws {
        try await ServerFixture.with(settings: ServerSettings(port: 0, maxEventStreams: 1)) { fixture in
            try await fixture.server.makeApplication().test(.live) { client in
                let port = try #require(client.port)
                let first = try await EventStreamTests.read(port: port, path: "/v1/events", until: "retry: 2000")
                #expect(first.hasPrefix("HTTP/1.1 200"))
                // The first client has closed its connection; its slot comes back.
                let began = ContinuousClock.now
                var answer = ""
                while ContinuousClock.now - began < .seconds(10) {
                    answer = try await EventStreamTests.read(port: port, path: "/v1/events", until: "\r\n\r\n")
                    if answer.hasPrefix("HTTP/1.1 200") { break }
                    try await Task.sleep(for: .milliseconds(200))
                }
                #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(120))")
                // Far sooner than the idle timeout (60 s) would free it, with room for a loaded machine.
                #expect(ContinuousClock.now - began < .seconds(8), "the slot came back after \(ContinuousClock.now - began)")
            }
        }
    }
}
