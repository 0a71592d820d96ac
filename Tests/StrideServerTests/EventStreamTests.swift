import Foundation
import Glibc
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import StrideEvents
import StrideLedger
import Testing

@testable import StrideServer

@Suite("Committed events as Server-Sent Events")
struct EventStreamTests {
    /// Sends a GET over a plain socket and reads until `expected` has arrived (or 5 s pass), on
    /// a thread of its own: blocking a thread of Swift's small cooperative pool would starve the
    /// in-process server that must answer.
    static func read(
        port: Int, path: String, method: String = "GET", headers: [String] = [], body: String = "", until expected: String,
        endsSending: Bool = false
    ) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(
                    with: Result {
                        try readBlocking(
                            port: port, path: path, method: method, headers: headers, body: body, until: expected, endsSending: endsSending)
                    })
            }.start()
        }
    }

    /// A TCP socket connected to the server on loopback at `port`, its reads timing out after
    /// 5 s; the caller closes it.
    static func connectedSocket(port: Int) throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        // A signal (a child process of another test ending: SIGCHLD) may interrupt the call; the
        // connection goes on, and is waited for.
        guard connected == 0 || (errno == EINTR && Self.waitUntilConnected(socket)) else {
            close(socket)
            throw POSIXError(.ECONNREFUSED)
        }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return socket
    }

    /// Waits for a connection a signal interrupted; whether it was made.
    private static func waitUntilConnected(_ socket: Int32) -> Bool {
        var descriptor = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
        while poll(&descriptor, 1, 5_000) < 0 { guard errno == EINTR else { return false } }
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(socket, SOL_SOCKET, SO_ERROR, &error, &length) == 0 && error == 0
    }

    private static func readBlocking(
        port: Int, path: String, method: String, headers: [String], body: String, until expected: String, endsSending: Bool
    ) throws -> String {
        let socket = try connectedSocket(port: port)
        defer { close(socket) }
        let authorization = headers.contains { $0.hasPrefix("Authorization:") } ? [] : ["Authorization: Bearer \(ServerFixture.token)"]
        let request = (["\(method) \(path) HTTP/1.1", "Host: 127.0.0.1"] + authorization + headers + ["", ""]).joined(separator: "\r\n") + body
        _ = request.withCString { text in
            var sent = 0
            let length = strlen(text)
            while sent < length {
                let count = send(socket, text + sent, length - sent, 0)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                sent += count
            }
        }
        // A client that says it has sent all it will: a body shorter than its Content-Length ends here.
        if endsSending { shutdown(socket, Int32(SHUT_WR)) }
        var received = ""
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !received.contains(expected) {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            received += String(decoding: buffer[0..<count], as: UTF8.self)
        }
        return received
    }

    @Test("a stream from a sequence gets the events after it, each with its sequence as id; Last-Event-ID resumes after it")
    func resumable() async throws {
        try await ServerFixture.with { fixture in
            for day in 1...3 {
                _ = try fixture.ledger.addJournalEntry("day \(day)", at: Timestamp(secondsSince1970: 1_714_550_400 + Int64(day) * 86_400))
            }
            let last = try fixture.ledger.store.lastSequence()
            try await fixture.server.makeApplication().test(.live) { client in
                let port = try #require(client.port)
                let all = try await Self.read(port: port, path: "/v1/events?after=0", until: "id: \(last)\n")
                #expect(all.hasPrefix("HTTP/1.1 200"))
                #expect(all.contains("content-type: text/event-stream") || all.contains("Content-Type: text/event-stream"))
                #expect(all.contains("id: 1\nevent: ledger.created\ndata: {\"sequence\":1,"))
                #expect(all.contains("id: \(last)\n"))
                let resumed = try await Self.read(port: port, path: "/v1/events", headers: ["Last-Event-ID: \(last - 1)"], until: "id: \(last)\n")
                #expect(resumed.contains("id: \(last)\n"))
                #expect(!resumed.contains("id: \(last - 1)\n"))
            }
        }
    }

    @Test("an event appended while the stream is open arrives on it")
    func live() async throws {
        try await ServerFixture.with { fixture in
            let last = try fixture.ledger.store.lastSequence()
            try await fixture.server.makeApplication().test(.live) { client in
                let port = try #require(client.port)
                let ledger = fixture.ledger
                async let appended: Void = {
                    try await Task.sleep(for: .milliseconds(400))
                    _ = try ledger.registerShoe(name: "Peg", brand: nil, startKilometers: 0, goalKilometers: nil, makeDefault: false, at: nil)
                }()
                let text = try await Self.read(port: port, path: "/v1/events?after=\(last)", until: "event: shoe.registered")
                try await appended
                #expect(text.contains("event: shoe.registered\ndata: "))
            }
        }
    }
}
