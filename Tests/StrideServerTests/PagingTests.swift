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

/// The points history and the log a page at a time, from the latest back: the same documents
/// from the ledger, the command line's options and the API.
@Suite("Paging back through the points history and the log")
struct PagingTests {
    /// A ledger created on 2024-06-01 whose steps earned every tier on four days: the first-use
    /// award and three tiers a day, 13 lines of history.
    static func ledgerWithAwards(in folder: String) throws -> Ledger {
        _ = try Ledger.create(at: folder + "/ledger", timeZone: "UTC", clock: FixedClock(Timestamp(secondsSince1970: 1_717_228_800)))
        let ledger = try Ledger.open(at: folder + "/ledger", clock: FixedClock(Timestamp(secondsSince1970: 1_717_588_800)))
        let lines = (1...4).map { day in
            #"{"type":"HKQuantityTypeIdentifierStepCount","start":"2024-06-0\#(day)T08:00:00Z","end":"2024-06-0\#(day)T10:00:00Z","value":12000,"unit":"count","device":"phone","id":"steps-\#(day)"}"#
        }
        let file = folder + "/steps.ndjson"
        try lines.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
        _ = try ledger.ingest(file: file)
        return ledger
    }

    @Test("pages of 4 from the latest: 4, 4, 4, 1 lines, each naming the page before it, together the whole history")
    func pointsPages() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Self.ledgerWithAwards(in: folder)
            let whole = try ledger.pointsStatement()
            #expect(whole.history.count == 13, "\(whole.history.map(\.rule))")
            var pages: [[UInt64]] = []
            var before: UInt64?
            repeat {
                let page = try ledger.pointsStatement(limit: 4, before: before)
                #expect(page.statement.account == whole.account)
                pages.append(page.statement.history.map(\.sequence))
                before = page.earlier
                if let earlier = page.earlier { #expect(earlier == page.statement.history.first?.sequence) }
            } while before != nil && pages.count < 10
            #expect(pages.map(\.count) == [4, 4, 4, 1])
            #expect(pages.reversed().flatMap { $0 } == whole.history.map(\.sequence))
            let past = try #require(whole.history.last?.sequence)
            #expect(try ledger.pointsStatement(limit: 1000, before: past + 1).earlier == nil)
            #expect(try ledger.pointsStatement(limit: 5, before: 1).statement.history.isEmpty)
        }
    }

    @Test("the log's page before a sequence: the events just before it, at most limit, never before 1")
    func logPages() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Self.ledgerWithAwards(in: folder)
            #expect(try ledger.events(before: 5, limit: 3).map(\.sequence) == [2, 3, 4])
            #expect(try ledger.events(before: 3, limit: 10).map(\.sequence) == [1, 2])
            #expect(try ledger.events(before: 1, limit: 10).isEmpty)
            #expect(try ledger.events(before: 5, limit: 0).isEmpty)
            let last = try ledger.lastSequence()
            #expect(try ledger.events(before: last + 1, limit: 2).map(\.sequence) == [last - 1, last])
        }
    }

    @Test("GET /v1/points?limit= and /v1/log?before= answer the same documents; odd combinations are 400s that name the parameter")
    func api() async throws {
        try await withTemporaryDirectory { folder in
            let ledger = try Self.ledgerWithAwards(in: folder)
            let token = try ledger.addToken(name: "phone", at: nil)
            let server = try StrideServer(ledger: ledger, settings: ServerSettings(host: "127.0.0.1", port: 0), logger: Logger(label: "test"))
            let page = try PointsDocument(ledger, limit: 4, before: nil)
            let earlier = try #require(page.page?.earlier)
            try await server.makeApplication().test(.router) { client in
                let headers: HTTPFields = [.authorization: "Bearer \(token)"]
                for (uri, document) in [
                    ("/v1/points?limit=4", page.json.text),
                    ("/v1/points/history?limit=4&before=\(earlier)", try PointsDocument(ledger, limit: 4, before: earlier).json.text),
                    ("/v1/points/history", try PointsDocument(ledger).json.text),
                    ("/v1/log?before=5&limit=3", try LogDocument(ledger, before: 5, limit: 3).json.text),
                ] {
                    let answer = try await client.execute(uri: uri, method: .get, headers: headers)
                    #expect(answer.status == .ok, "\(uri)")
                    #expect(answer.text == document + "\n", "\(uri)")
                }
                #expect(page.json.text.contains(#""page":{"limit":4,"before":null,"earlier":\#(earlier)}"#))
                for (uri, field) in [
                    ("/v1/points?before=9", "before"), ("/v1/points?limit=0", "limit"), ("/v1/log?before=5&from=2", "before"),
                    ("/v1/log?before=5&type=shoe.registered", "before"), ("/v1/log?before=0", "before"),
                ] {
                    let answer = try await client.execute(uri: uri, method: .get, headers: headers)
                    #expect(answer.status == .badRequest, "\(uri)")
                    #expect((answer.object["error"] as? String)?.contains(field) == true, "\(uri): \(answer.text)")
                }
            }
        }
    }
}
