import Foundation
import Glibc
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import StrideServer

@Suite("Clients that hold a connection")
struct SlowClientTests {
    /// Connects, sends `text`, optionally dribbles `trickle` one byte every `pause`, and reads
    /// until the server answers or closes the connection, or 10 s pass; on a thread of its own.
    static func hold(port: Int, sending text: String, trickle: String = "", pause: Double = 0) async throws -> (String, Double) {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                let began = Date()
                let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                defer { close(socket) }
                var address = sockaddr_in()
                address.sin_family = sa_family_t(AF_INET)
                address.sin_port = in_port_t(UInt16(port).bigEndian)
                address.sin_addr.s_addr = inet_addr("127.0.0.1")
                _ = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
                }
                var timeout = timeval(tv_sec: 10, tv_usec: 0)
                setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                _ = text.withCString { send(socket, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
                for byte in trickle.utf8 {
                    Thread.sleep(forTimeInterval: pause)
                    var value = byte
                    if send(socket, &value, 1, Int32(MSG_NOSIGNAL)) < 0 { break }
                }
                var received = ""
                var buffer = [UInt8](repeating: 0, count: 4096)
                // Until the server closes, or has answered.
                while !received.contains("\r\n\r\n") {
                    let count = recv(socket, &buffer, buffer.count, 0)
                    if count < 0, errno == EINTR { continue }  // a signal (another test's child ending)
                    guard count > 0 else { break }
                    received += String(decoding: buffer[0..<count], as: UTF8.self)
                }
                continuation.resume(returning: (received, Date().timeIntervalSince(began)))
            }.start()
        }
    }

    @Test("a connection that sends half a request and falls silent is closed after the idle timeout")
    func silent() async throws {
        try await ServerFixture.with(settings: ServerSettings(port: 0, idleTimeoutSeconds: 1)) { fixture in
            try await fixture.server.makeApplication().test(.live) { client in
                let port = try #require(client.port)
                let (_, seconds) = try await Self.hold(port: port, sending: "GET /v1/stats HTTP/1.1\r\nHost: x\r\n")
                #expect(seconds < 5, "closed after \(seconds) s")
            }
        }
    }

    @Test("an upload dribbled slower than the minimum rate is cut off with 408 and leaves nothing behind")
    func dribbled() async throws {
        let settings = ServerSettings(port: 0, idleTimeoutSeconds: 30, minimumUploadBytesPerSecond: 1000, uploadGraceSeconds: 1)
        try await ServerFixture.with(settings: settings) { fixture in
            try await fixture.server.makeApplication().test(.live) { client in
                let port = try #require(client.port)
                let head =
                    "POST /v1/ingest HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(ServerFixture.token)\r\n"
                    + "Content-Type: application/x-ndjson\r\nContent-Length: 100000\r\n\r\n"
                let (answer, _) = try await Self.hold(port: port, sending: head, trickle: String(repeating: " ", count: 12), pause: 0.25)
                #expect(answer.hasPrefix("HTTP/1.1 408"), "\(answer.prefix(200))")
                #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.ledger.path + "/uploads").isEmpty)
            }
        }
    }

    @Test("the retry a 408 asks for, with the same Idempotency-Key, is carried out: the data arrives")
    func retryAfterTimeout() async throws {
        let settings = ServerSettings(port: 0, idleTimeoutSeconds: 30, minimumUploadBytesPerSecond: 1000, uploadGraceSeconds: 1)
        try await ServerFixture.with(settings: settings) { fixture in
            try await fixture.server.makeApplication().test(.live) { client in
                let port = try #require(client.port)
                let body = ReadRouteTests.samples
                let head =
                    "POST /v1/ingest HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(ServerFixture.token)\r\nIdempotency-Key: push-408\r\n"
                    + "Content-Type: application/x-ndjson\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
                let (answer, _) = try await Self.hold(port: port, sending: head, trickle: String(body.prefix(12)), pause: 0.25)
                #expect(answer.hasPrefix("HTTP/1.1 408"), "\(answer.prefix(200))")
                let retry = try await client.execute(
                    uri: "/v1/ingest", method: .post,
                    headers: ServerFixture.headers([.idempotencyKey: "push-408"], contentType: "application/x-ndjson"),
                    body: ByteBuffer(string: body))
                #expect(retry.status == .ok, "\(String(buffer: retry.body))")
                #expect(retry.headers[.idempotentReplayed] == nil)
                #expect(retry.object["newEvents"] as? Int == 2)
            }
        }
    }
}
