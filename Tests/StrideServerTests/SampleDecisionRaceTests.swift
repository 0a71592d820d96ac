import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import StrideEvents
import StrideLedger
import Testing

@testable import StrideServer

/// Withdrawals and restorations sent at once, and lists no client should send: each sample
/// decision takes effect once, and a list is bounded, de-duplicated and found by index.
@Suite("Sample decisions under a hostile client")
struct SampleDecisionRaceTests {
    static func post(_ client: some TestClientProtocol, _ uri: String, _ body: String) async throws -> TestResponse {
        try await client.execute(uri: uri, method: .post, headers: ServerFixture.headers(contentType: "application/json"), body: .json(body))
    }

    /// The id of the 48,000 steps an app wrote on the Sunday.
    static func bogusSample(of ledger: Ledger) throws -> String {
        let events = try ledger.store.events(ofType: .sampleRecorded, from: 1, limit: 10)
        let bogus = try #require(
            events.first { event in
                if case .sampleRecorded(let sample) = event.event, case .number(let value) = sample.value { return value == 48_000 }
                return false
            })
        return bogus.entity.shortID
    }

    /// The number of events of `type` in the ledger.
    static func count(_ type: EventType, in ledger: Ledger) throws -> Int {
        try ledger.store.events(ofType: type, from: 1, limit: 1_000).count
    }

    @Test("20 withdrawals of one sample at once: one 200, nineteen 422 saying it is withdrawn already, one event; then 20 restorations the same")
    func twentyAtOnce() async throws {
        try await ServerFixture.with { fixture in
            try SampleRouteTests.ingestSunday(into: fixture.ledger)
            let id = try Self.bogusSample(of: fixture.ledger)
            try await fixture.server.makeApplication().test(.live) { client in
                for (path, body, refusal, type) in [
                    ("/v1/samples/withdraw", #"{"samples": ["\#(id)"], "reason": "car rides"}"#, "is withdrawn already", EventType.sampleWithdrawn),
                    ("/v1/samples/restore", #"{"samples": ["\#(id)"]}"#, "is not withdrawn", EventType.sampleRestored),
                ] {
                    let answers = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                        for _ in 0..<20 { group.addTask { try await Self.post(client, path, body) } }
                        return try await group.reduce(into: []) { $0.append($1) }
                    }
                    let taken = answers.filter { $0.status == .ok }
                    let refused = answers.filter { $0.status == .unprocessableContent }
                    #expect(taken.count == 1, "\(answers.map(\.status.code))")
                    #expect(refused.count == 19, "\(answers.map(\.status.code))")
                    #expect(refused.allSatisfy { ($0.object["error"] as? String)?.contains(refusal) == true })
                    #expect(try Self.count(type, in: fixture.ledger) == 1)
                }
                #expect(try fixture.ledger.dailyRecords(from: nil, through: nil).first?.steps?.value == 51_000)
            }
        }
    }

    @Test("one sample named 600 times, by its id, a prefix and its whole id: one withdrawal event")
    func repeatedIDs() async throws {
        try await ServerFixture.with { fixture in
            try SampleRouteTests.ingestSunday(into: fixture.ledger)
            let id = try Self.bogusSample(of: fixture.ledger)
            let whole = try #require(try fixture.ledger.store.events(ofType: .sampleRecorded, from: 1, limit: 10).first { $0.entity.shortID == id })
                .entity.idText
            try await fixture.server.makeApplication().test(.router) { client in
                let names =
                    Array(repeating: "\"\(id)\"", count: 200) + Array(repeating: "\"\(id.prefix(8))\"", count: 200)
                    + Array(repeating: "\"sample:\(whole)\"", count: 200)
                let answer = try await Self.post(
                    client, "/v1/samples/withdraw", #"{"samples": [\#(names.joined(separator: ","))], "reason": "car rides"}"#)
                #expect(answer.status == .ok, "\(answer.text)")
                #expect(answer.object["samples"] as? [String] == [id])
                #expect(try Self.count(.sampleWithdrawn, in: fixture.ledger) == 1)
            }
        }
    }

    @Test("1,001 samples named at once are refused naming the bound; nothing is appended")
    func tooMany() async throws {
        try await ServerFixture.with { fixture in
            try SampleRouteTests.ingestSunday(into: fixture.ledger)
            let before = try fixture.ledger.store.lastSequence()
            try await fixture.server.makeApplication().test(.router) { client in
                let names = (0..<1_001).map { "\"\(String($0, radix: 16))\"" }.joined(separator: ",")
                let answer = try await Self.post(client, "/v1/samples/withdraw", #"{"samples": [\#(names)], "reason": "spam"}"#)
                #expect(answer.status == .unprocessableContent)
                #expect((answer.object["error"] as? String)?.contains("name at most 1,000 a time") == true, "\(answer.text)")
                #expect(try fixture.ledger.store.lastSequence() == before)
            }
        }
    }

    @Test("a prefix is found through the index on a ledger whose index is behind, ambiguous prefixes list the matches, unknown ones are 404")
    func prefixes() async throws {
        try await ServerFixture.with { fixture in
            try SampleRouteTests.ingestSunday(into: fixture.ledger)
            let ids = try fixture.ledger.store.events(ofType: .sampleRecorded, from: 1, limit: 10).map(\.entity)
            #expect(ids.count == 2)
            for entity in ids {
                for length in [1, 5, 16] {
                    let prefix = String(entity.shortID.prefix(length))
                    let found = try fixture.ledger.store.entities(of: .sample, shortIDPrefix: prefix, limit: 6)
                    #expect(found.contains(entity), "\(prefix)")
                    let expected = ids.filter { $0.shortID.hasPrefix(prefix) }
                    #expect(Set(found) == Set(expected), "\(prefix)")
                }
                #expect(try fixture.ledger.store.entities(of: .sample, shortIDPrefix: entity.idText, limit: 6) == [entity])
                #expect(try fixture.ledger.store.entities(of: .workout, shortIDPrefix: entity.shortID, limit: 6).isEmpty)
            }
            #expect(try fixture.ledger.store.entities(of: .sample, shortIDPrefix: String(repeating: "0", count: 20), limit: 6).isEmpty)
            // A sample recorded after the index was brought up is found too.
            try fixture.ledger.ingestSecondSunday()
            let later = try fixture.ledger.store.events(ofType: .sampleRecorded, from: 1, limit: 10).map(\.entity)
            #expect(later.count == 3)
            for entity in later {
                #expect(try fixture.ledger.store.entities(of: .sample, shortIDPrefix: entity.shortID, limit: 6) == [entity])
            }
            try await fixture.server.makeApplication().test(.router) { client in
                let unknown = try await Self.post(client, "/v1/samples/withdraw", #"{"samples": ["ffffffffffffffff"], "reason": "no"}"#)
                #expect(unknown.status == .notFound || ids.contains { $0.shortID == "ffffffffffffffff" })
            }
        }
    }
}

extension Ledger {
    /// Steps of a second Sunday, a week after the first.
    fileprivate func ingestSecondSunday() throws {
        let file = NSTemporaryDirectory() + "second-sunday-" + UUID().uuidString + ".xml"
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <ExportDate value="2024-05-13 20:00:00 +0200"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="iPhone" sourceVersion="17.4" unit="count" creationDate="2024-05-12 09:30:00 +0200" startDate="2024-05-12 09:00:00 +0200" endDate="2024-05-12 09:30:00 +0200" value="4000"/>
        </HealthData>

        """.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        _ = try ingest(file: file)
    }
}
