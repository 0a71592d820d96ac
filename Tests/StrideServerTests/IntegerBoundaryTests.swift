import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import StrideEvents
import StrideLedger
import Testing

@testable import StrideServer

/// Every number the server reads from a request — headers, query parameters, the body's
/// length — sent at the integer boundaries over a real socket: each is answered (a 2xx, 304 or
/// a 400 naming it), the server never traps, and it answers the next request.
@Suite("Numbers at the integer boundaries")
struct IntegerBoundaryTests {
    /// Around 0, `Int.max`, `UInt64.max` and beyond, and texts that only look like numbers.
    static let boundaries = [
        "0", "1", "-1", "-9223372036854775808", "-9223372036854775809", "9223372036854775806", "9223372036854775807",
        "9223372036854775808", "18446744073709551615", "18446744073709551616", String(repeating: "9", count: 400), "1e3", "0x10", " 7",
        "+3", "٣",
    ]

    /// The status line's code of a raw answer (0 when none came).
    static func status(of answer: String) -> Int {
        guard answer.hasPrefix("HTTP/1.1 ") else { return 0 }
        return Int(answer.dropFirst(9).prefix(3)) ?? 0
    }

    @Test("Last-Event-ID and after at every boundary: a stream from a sequence up to Int.max, a 400 naming the header beyond; the server lives on")
    func eventStreamPositions() async throws {
        try await ServerFixture.with { fixture in
            try await fixture.server.makeApplication().test(.live) { client in
                let port = try #require(client.port)
                for value in Self.boundaries {
                    // A header's and a parameter's spaces around a number are no part of it.
                    let number = Int(value.trimmingCharacters(in: .whitespaces))
                    let isSequence = number.map { $0 >= 0 } ?? false
                    let until = isSequence ? "retry: 2000" : "}"
                    let resumed = try await EventStreamTests.read(port: port, path: "/v1/events", headers: ["Last-Event-ID: \(value)"], until: until)
                    let given = try await EventStreamTests.read(
                        port: port, path: "/v1/events?after=\(value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")", until: until
                    )
                    for (answer, name) in [(resumed, "Last-Event-ID"), (given, "after")] {
                        if isSequence {
                            #expect(Self.status(of: answer) == 200, "\(name): \(value) → \(answer.prefix(200))")
                        } else {
                            #expect(Self.status(of: answer) == 400, "\(name): \(value) → \(answer.prefix(200))")
                            #expect(answer.contains(name), "\(answer.prefix(400))")
                        }
                    }
                }
                let alive = try await EventStreamTests.read(port: port, path: "/v1/stats", until: "}")
                #expect(Self.status(of: alive) == 200)
            }
        }
    }

    @Test("every integer parameter, Idempotency-Key and Content-Length at every boundary: answered, never a 5xx; the server lives on")
    func parametersAndHeaders() async throws {
        try await ServerFixture.with { fixture in
            _ = try fixture.ledger.addJournalEntry("a day", at: nil)
            try await fixture.server.makeApplication().test(.live) { client in
                let port = try #require(client.port)
                let targets = [
                    "/v1/log?from=", "/v1/log?before=", "/v1/log?limit=", "/v1/points/history?limit=", "/v1/points/history?limit=5&before=",
                    "/v1/daily/explain?date=2024-05-01&limit=", "/v1/daily/explain?date=2024-05-01&offset=", "/v1/replay?until=",
                    "/v1/mileage?asRecorded=", "/v1/shoes?asRecorded=",
                ]
                for target in targets {
                    for value in Self.boundaries {
                        let path = target + (value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
                        let answer = try await EventStreamTests.read(port: port, path: path, until: "\r\n\r\n")
                        let code = Self.status(of: answer)
                        #expect([200, 304, 400].contains(code), "\(path) → \(answer.prefix(300))")
                    }
                }
                for value in Self.boundaries + [String(repeating: "k", count: 256), String(repeating: "k", count: 10_000)] {
                    let answer = try await EventStreamTests.read(
                        port: port, path: "/v1/journal", method: "POST",
                        headers: ["Content-Type: application/json", "Content-Length: 14", "Idempotency-Key: \(value)"],
                        body: #"{"text": "hi"}"#, until: "}")
                    #expect([200, 201, 400, 422].contains(Self.status(of: answer)), "Idempotency-Key \(value.prefix(40)) → \(answer.prefix(300))")
                }
                for value in Self.boundaries {
                    let answer = try await EventStreamTests.read(
                        port: port, path: "/v1/journal", method: "POST", headers: ["Content-Type: application/json", "Content-Length: \(value)"],
                        body: #"{"text": "hi"}"#, until: "\r\n\r\n", endsSending: true)
                    // A length the parser refuses closes the connection (no answer) or is 400;
                    // one it takes is answered or waits for the body, never a 5xx.
                    #expect(!(500...599).contains(Self.status(of: answer)), "Content-Length \(value) → \(answer.prefix(300))")
                }
                let alive = try await EventStreamTests.read(port: port, path: "/v1/stats", until: "}")
                #expect(Self.status(of: alive) == 200)
            }
        }
    }
}
