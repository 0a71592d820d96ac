import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import StrideContract
import StrideEvents
import StrideLedger
import StrideTestSupport
import Testing

@testable import StrideServer

@Suite("Reads answer the command line's documents")
struct ReadRouteTests {
    static let samples = [
        #"{"type":"HKQuantityTypeIdentifierStepCount","start":"2024-05-01T08:00:00+02:00","end":"2024-05-01T08:10:00+02:00","value":1200,"unit":"count","device":"phone","id":"s-1"}"#,
        #"{"activity":"HKWorkoutActivityTypeRunning","start":"2024-05-01T07:00:00+02:00","end":"2024-05-01T07:30:00+02:00","distance":5.02,"distanceUnit":"km","source":"Strava"}"#,
    ].joined(separator: "\n")

    /// Ingests the samples above into the fixture's ledger.
    static func fill(_ ledger: Ledger) throws {
        let file = NSTemporaryDirectory() + "stride-read-" + UUID().uuidString + ".ndjson"
        try samples.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        _ = try ledger.ingest(file: file)
        _ = try ledger.registerShoe(name: "Pegasus 40", brand: "Nike", startKilometers: 10, goalKilometers: 800, makeDefault: false, at: nil)
    }

    @Test("each read's body is its contract document byte for byte, as `stride … --json` prints it")
    func documents() async throws {
        try await ServerFixture.with { fixture in
            try Self.fill(fixture.ledger)
            let ledger = fixture.ledger
            let expected: [(String, String)] = [
                (
                    "/v1/daily?from=2024-05-01&to=2024-05-01",
                    try DailyDocument(ledger, from: CivilDate("2024-05-01"), through: CivilDate("2024-05-01")).json.text
                ),
                ("/v1/workouts", try WorkoutsDocument(ledger).json.text),
                ("/v1/shoes", try ShoesDocument(ledger).json.text),
                ("/v1/mileage?shoe=pegasus%2040", try ShoesDocument(ledger, shoe: "pegasus 40").json.text),
                ("/v1/mileage/explain?shoe=Pegasus%2040", try ShoeAuditDocument(ledger, shoe: "Pegasus 40").json.text),
                ("/v1/notifications", try NotificationsDocument(ledger).json.text),
                ("/v1/points", try PointsDocument(ledger).json.text),
                ("/v1/journal", try JournalDocument(ledger).json.text),
                ("/v1/log?from=2&limit=3", try LogDocument(ledger, from: 2, limit: 3).json.text),
                ("/v1/log?type=shoe.registered", try LogDocument(ledger, limit: 100, type: .shoeRegistered).json.text),
                ("/v1/stats", try StatsDocument(ledger).json.text),
                ("/v1/replay?until=3", try ReplayDocument(ledger, through: 3).json.text),
                ("/v1/training/weeks", try TrainingVolumeDocument(ledger, per: .week, TrainingQuery()).json.text),
                (
                    "/v1/training/months?from=2024-01-01",
                    try TrainingVolumeDocument(ledger, per: .month, TrainingQuery(from: CivilDate("2024-01-01"))).json.text
                ),
                ("/v1/training/efforts", try TrainingEffortsDocument(ledger, TrainingQuery()).json.text),
                ("/v1/training/zones", try TrainingZonesDocument(ledger, TrainingQuery()).json.text),
                (
                    "/v1/training/load?from=2024-05-01&to=2024-05-03",
                    try TrainingLoadDocument(ledger, TrainingQuery(from: CivilDate("2024-05-01"), to: CivilDate("2024-05-03"))).json.text
                ),
                ("/v1/training/shoes", try TrainingShoesDocument(ledger, TrainingQuery()).json.text),
                (
                    "/v1/training/load?asOf=2024-05-02T12:00:00Z",
                    try TrainingLoadDocument(ledger, TrainingQuery(asOf: ISO8601.parse("2024-05-02T12:00:00Z"))).json.text
                ),
                ("/v1/athlete", try AthleteDocument(ledger).json.text),
            ]
            try await fixture.server.makeApplication().test(.router) { client in
                for (uri, document) in expected {
                    let response = try await client.execute(uri: uri, method: .get, headers: ServerFixture.headers())
                    #expect(response.status == .ok, "\(uri)")
                    #expect(response.text == document + "\n", "\(uri)")
                    #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                }
            }
        }
    }

    @Test(
        "training explain: a well-formed subject with nothing behind it is 404; a malformed one is 400 naming what is known, as the command line's usage error"
    )
    func trainingExplainRefusals() async throws {
        let long = String(repeating: "x", count: 5_000)
        try await ServerFixture.with { fixture in
            try Self.fill(fixture.ledger)
            try await fixture.server.makeApplication().test(.router) { client in
                for (uri, status, words) in [
                    ("/v1/training/explain?kind=week&name=2019-W01", HTTPResponse.Status.notFound, "no run in week 2019-W01"),
                    ("/v1/training/explain?kind=day&name=9999-12-31", .notFound, "after"),
                    ("/v1/training/explain?kind=effort&name=1k", .notFound, "has a stream covering 1k"),
                    ("/v1/training/explain?kind=effort&name=3k", .badRequest, "name: \"3k\" is no effort distance; give one of 400m, 1k, 1mi, 5k"),
                    ("/v1/training/explain?kind=week&name=2024-W60", .badRequest, "is not a week like 2024-W03"),
                    ("/v1/training/explain?kind=week&name=2022-W53", .badRequest, "is not a week like 2024-W03"),
                    ("/v1/training/explain?kind=month&name=2024-13", .badRequest, "is not a month"),
                    ("/v1/training/explain?kind=week&name=2024-W18&year=2024", .badRequest, "year: only an effort"),
                    ("/v1/training/explain?kind=effort&name=5k&year=1900", .badRequest, "year: 1900 is not a year"),
                    ("/v1/training/explain?kind=lap&name=1", .badRequest, "kind"),
                    ("/v1/training/explain?kind=day&name=yesterday", .badRequest, "not a day"),
                    ("/v1/training/explain?kind=effort&name=\(long)", .badRequest, "xxxxxxxxxx… (5,000 characters)\" is no effort distance"),
                    ("/v1/training/weeks?from=\(long)", .badRequest, "xxxxxxxxxx… (5,000 characters)\" is not a date like 2024-05-01"),
                    ("/v1/training/weeks?asOf=1200", .badRequest, "asOf: \"1200\" is a sequence number"),
                    ("/v1/training/weeks?from=2024-05-02&to=2024-05-01", .badRequest, "to: 2024-05-01 comes before from 2024-05-02"),
                ] {
                    let response = try await client.execute(uri: uri, method: .get, headers: ServerFixture.headers())
                    let body = try JSONSerialization.jsonObject(with: Data(response.text.utf8)) as? [String: Any]
                    let message = try #require(body?["error"] as? String, "\(uri.prefix(80))")
                    #expect(response.status == status, "\(uri.prefix(80))")
                    #expect(message.contains(words), "\(uri.prefix(80)): \(message)")
                    #expect(response.text.utf8.count < 600, "\(uri.prefix(80)): \(response.text.utf8.count) bytes")
                }
            }
        }
    }

    @Test("the same bytes as the `stride` binary prints, for the daily records and the shoes")
    func sameAsTheCommandLine() async throws {
        try await ServerFixture.with { fixture in
            try Self.fill(fixture.ledger)
            let stride = builtExecutable("stride")
            try await fixture.server.makeApplication().test(.router) { client in
                for (uri, arguments) in [("/v1/daily", ["daily"]), ("/v1/shoes", ["shoes", "list"]), ("/v1/workouts", ["workouts"])] {
                    let cli = try runProcess(stride, ["--ledger", fixture.ledger.path] + arguments + ["--json"])
                    let response = try await client.execute(uri: uri, method: .get, headers: ServerFixture.headers())
                    #expect(response.text == cli.standardOutput, "\(uri)")
                }
            }
        }
    }

    @Test("an unchanged ledger answers 304 to the ETag of its last answer; one more event changes it")
    func etags() async throws {
        try await ServerFixture.with { fixture in
            try await fixture.server.makeApplication().test(.router) { client in
                let first = try await client.execute(uri: "/v1/points", method: .get, headers: ServerFixture.headers())
                let tag = try #require(first.headers[.eTag])
                #expect(tag == "\"\(try fixture.ledger.store.lastSequence())\"")
                let again = try await client.execute(uri: "/v1/points", method: .get, headers: ServerFixture.headers([.ifNoneMatch: tag]))
                #expect(again.status == .notModified)
                #expect(again.body.readableBytes == 0)
                _ = try fixture.ledger.checkIn(at: nil)
                let changed = try await client.execute(uri: "/v1/points", method: .get, headers: ServerFixture.headers([.ifNoneMatch: tag]))
                #expect(changed.status == .ok)
                #expect(changed.headers[.eTag] != tag)
            }
        }
    }

    @Test(
        "a bad parameter is a 400 that names it",
        arguments: [
            ("/v1/daily?from=May", "from: \"May\" is not a date like 2024-05-01"),
            ("/v1/daily?from=2024-05-02&to=2024-05-01", "to: 2024-05-01 comes before from 2024-05-02"),
            ("/v1/log?limit=100000", "limit: \"100000\" is not a whole number from 0 to 10000"),
            ("/v1/log?type=shoe.eaten", "type: unknown event type \"shoe.eaten\""),
            ("/v1/mileage/explain", "shoe: this parameter is required"),
            ("/v1/replay?until=yesterday", "until: \"yesterday\" is neither a sequence number nor an instant"),
            ("/v1/workouts?unassigned=maybe", "unassigned: \"maybe\" is not true or false"),
        ])
    func badParameters(_ uri: String, _ message: String) async throws {
        try await ServerFixture.with { fixture in
            try await fixture.server.makeApplication().test(.router) { client in
                let response = try await client.execute(uri: uri, method: .get, headers: ServerFixture.headers())
                #expect(response.status == .badRequest)
                #expect((response.object["error"] as? String)?.hasPrefix(message) == true, "\(response.text)")
            }
        }
    }

    @Test("an unknown shoe is a 404 with the command line's sentence")
    func unknownShoe() async throws {
        try await ServerFixture.with { fixture in
            try await fixture.server.makeApplication().test(.router) { client in
                let response = try await client.execute(uri: "/v1/mileage/explain?shoe=Nope", method: .get, headers: ServerFixture.headers())
                #expect(response.status == .notFound)
                #expect(response.object["error"] as? String == ShoeError.unknownShoe("Nope", known: []).description)
            }
        }
    }
}
