import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import StrideContract
import StrideEvents
import StrideLedger
import Testing

@testable import StrideServer

@Suite("Writes mirror the command line's actions")
struct ActionRouteTests {
    func post(_ client: some TestClientProtocol, _ uri: String, _ body: String, headers: HTTPFields = [:]) async throws -> TestResponse {
        try await client.execute(uri: uri, method: .post, headers: ServerFixture.headers(headers, contentType: "application/json"), body: .json(body))
    }

    @Test("a shoe added, renamed, made the default and retired through the API stands on the rack as the CLI would leave it")
    func shoes() async throws {
        try await ServerFixture.with { fixture in
            try await fixture.server.makeApplication().test(.router) { client in
                let added = try await post(client, "/v1/shoes", #"{"name": "Pegasus 40", "brand": "Nike", "goalKilometers": 800, "isDefault": true}"#)
                #expect(added.status == .created)
                let id = try #require(added.object["shoe"] as? String)
                #expect(added.object["message"] as? String == "Added Pegasus 40 (id \(id)), the default shoe.")
                #expect(try await post(client, "/v1/shoes/rename", #"{"shoe": "pegasus 40", "name": "Peg"}"#).status == .ok)
                #expect(try await post(client, "/v1/shoes/default", #"{"shoe": null}"#).status == .ok)
                #expect(try await post(client, "/v1/shoes/retire", #"{"shoe": "Peg"}"#).status == .ok)
                let shoe = try #require(try fixture.ledger.shoes().first)
                #expect(shoe.shoe.name == "Peg")
                #expect(shoe.shoe.goalKilometers == 800)
                #expect(shoe.shoe.isRetired)
                #expect(!shoe.isDefault)
            }
        }
    }

    @Test("a refused action is 409 or 422 with the CLI's sentence, and appends nothing")
    func refusals() async throws {
        try await ServerFixture.with { fixture in
            _ = try fixture.ledger.registerShoe(name: "Peg", brand: nil, startKilometers: 0, goalKilometers: nil, makeDefault: false, at: nil)
            try fixture.ledger.setRetired("Peg", true, at: nil)
            try await fixture.server.makeApplication().test(.router) { client in
                let before = try fixture.ledger.store.lastSequence()
                let taken = try await post(client, "/v1/shoes", #"{"name": "peg"}"#)
                #expect(taken.status == .conflict)
                #expect(taken.object["error"] as? String == ShoeError.nameTaken("peg").description)
                let retired = try await post(client, "/v1/shoes/default", #"{"shoe": "Peg"}"#)
                #expect(retired.status == .unprocessableContent)
                #expect(retired.object["error"] as? String == ShoeError.retired("Peg").description)
                let overdraw = try await post(client, "/v1/points/spend", #"{"points": 500, "reason": "a new watch"}"#)
                #expect(overdraw.status == .unprocessableContent)
                #expect((overdraw.object["error"] as? String)?.hasPrefix("the balance is 10 points") == true)
                let future = try await post(client, "/v1/checkin", #"{"at": "2030-01-01T00:00:00Z"}"#)
                #expect(future.status == .unprocessableContent)
                let unknown = try await post(client, "/v1/assign", #"{"workout": "ffff", "shoe": "Peg"}"#)
                #expect(unknown.status == .notFound)
                #expect(try fixture.ledger.store.lastSequence() == before)
            }
        }
    }

    @Test("a malformed body names its line and column; a field of the wrong kind is named; both 400")
    func malformed() async throws {
        try await ServerFixture.with { fixture in
            try await fixture.server.makeApplication().test(.router) { client in
                let broken = try await post(client, "/v1/shoes", "{\n  \"name\": \"Peg\",\n  \"brand\": \n}")
                #expect(broken.status == .badRequest)
                #expect((broken.object["error"] as? String)?.hasPrefix("the body is not valid JSON: line 4, column 1") == true, "\(broken.text)")
                let wrongKind = try await post(client, "/v1/shoes", #"{"name": "Peg", "goalKilometers": "far"}"#)
                #expect(wrongKind.status == .badRequest)
                #expect(wrongKind.object["error"] as? String == "goalKilometers: expected a number")
                let missing = try await post(client, "/v1/journal", #"{"at": "2024-05-01T08:00:00+02:00"}"#)
                #expect(missing.object["error"] as? String == "text: this field is required")
                let notObject = try await post(client, "/v1/checkin", "[1, 2]")
                #expect(notObject.object["error"] as? String == "the body must be a JSON object")
                #expect(try fixture.ledger.shoes().isEmpty)
            }
        }
    }

    @Test("another content type is 415; a body past the limit is 413; neither appends anything")
    func mediaAndSize() async throws {
        try await ServerFixture.with(settings: ServerSettings(port: 0, maxActionBytes: 64)) { fixture in
            try await fixture.server.makeApplication().test(.router) { client in
                let before = try fixture.ledger.store.lastSequence()
                let form = try await client.execute(
                    uri: "/v1/journal", method: .post, headers: ServerFixture.headers(contentType: "application/x-www-form-urlencoded"),
                    body: ByteBuffer(string: "text=hello"))
                #expect(form.status == .unsupportedMediaType)
                let large = try await post(client, "/v1/journal", "{\"text\": \"\(String(repeating: "a", count: 200))\"}")
                #expect(large.status == .contentTooLarge)
                #expect(try fixture.ledger.store.lastSequence() == before)
            }
        }
    }

    @Test("a retried request with the same Idempotency-Key appends nothing and gets the first answer; the key on another route is refused")
    func idempotency() async throws {
        try await ServerFixture.with { fixture in
            try await fixture.server.makeApplication().test(.router) { client in
                let key: HTTPFields = [.idempotencyKey: "5B0F7C52-journal-1"]
                let first = try await post(client, "/v1/journal", #"{"text": "easy 8 km", "at": "2024-06-01T09:00:00+02:00"}"#, headers: key)
                #expect(first.status == .created)
                #expect(first.object["pointsAwarded"] as? Int == 3)
                let afterFirst = try fixture.ledger.store.lastSequence()
                let again = try await post(client, "/v1/journal", #"{"text": "easy 8 km", "at": "2024-06-01T09:00:00+02:00"}"#, headers: key)
                #expect(again.status == .created)
                #expect(again.text == first.text)
                #expect(again.headers[.idempotentReplayed] == "true")
                #expect(try fixture.ledger.store.lastSequence() == afterFirst)
                #expect(try fixture.ledger.journal().count == 1)
                let elsewhere = try await post(client, "/v1/checkin", "{}", headers: key)
                #expect(elsewhere.status == .unprocessableContent)
                // A refusal is an answer too: the same refused request gets the same refusal.
                let spendKey: HTTPFields = [.idempotencyKey: "spend-1"]
                let refused = try await post(client, "/v1/points/spend", #"{"points": 99, "reason": "x"}"#, headers: spendKey)
                #expect(refused.status == .unprocessableContent)
                #expect(try await post(client, "/v1/points/spend", #"{"points": 99, "reason": "x"}"#, headers: spendKey).text == refused.text)
            }
        }
    }

    @Test("a request whose events were appended but whose answer was lost (a crash between) is not carried out again")
    func answerLost() async throws {
        try await ServerFixture.with { fixture in
            // The first attempt: the entry appended through the ledger acting for the request, no answer kept.
            let body = #"{"text": "long run"}"#
            let sent = KeyedRequest(
                device: ServerFixture.device, key: "lost-1", method: "POST", path: "/v1/journal", bodyDigest: SHA256Stream.hex(of: Array(body.utf8)))
            guard case .carryOut(let stamp) = try fixture.ledger.recall(sent) else {
                Issue.record("a new key is carried out")
                return
            }
            _ = try fixture.ledger.acting(for: stamp).addJournalEntry("long run", at: nil, sentBy: ServerFixture.device)
            try await fixture.server.makeApplication().test(.router) { client in
                let retry = try await post(client, "/v1/journal", #"{"text": "long run"}"#, headers: [.idempotencyKey: "lost-1"])
                #expect(retry.status == .ok)
                #expect((retry.object["message"] as? String)?.contains("carried out already") == true)
                #expect(try fixture.ledger.journal().count == 1)
                // And from now on that answer is the kept one.
                #expect(try await post(client, "/v1/journal", #"{"text": "long run"}"#, headers: [.idempotencyKey: "lost-1"]).text == retry.text)
            }
        }
    }

    @Test("the same key with another body is refused with 422 and appends nothing; a retry after a 400 is carried out")
    func keyWithAnotherBody() async throws {
        try await ServerFixture.with { fixture in
            try await fixture.server.makeApplication().test(.router) { client in
                let key: HTTPFields = [.idempotencyKey: "entry-7"]
                #expect(try await post(client, "/v1/journal", #"{"text": "easy 8 km"}"#, headers: key).status == .created)
                let before = try fixture.ledger.store.lastSequence()
                let other = try await post(client, "/v1/journal", #"{"text": "tempo 10 km"}"#, headers: key)
                #expect(other.status == .unprocessableContent)
                #expect((other.object["error"] as? String)?.contains("was used for another request (with another body)") == true, "\(other.text)")
                #expect(try fixture.ledger.store.lastSequence() == before)
                // On another route, the route is the difference named, whatever the body.
                let elsewhere = try await post(client, "/v1/checkin", #"{"text": "easy 8 km"}"#, headers: key)
                #expect(elsewhere.status == .unprocessableContent)
                #expect((elsewhere.object["error"] as? String)?.contains("(to POST /v1/journal)") == true, "\(elsewhere.text)")
                #expect(try fixture.ledger.store.lastSequence() == before)
                #expect(try fixture.ledger.journal().map(\.text) == ["easy 8 km"])
                // A malformed body decided nothing: its corrected retry with the same key is carried out.
                let fixKey: HTTPFields = [.idempotencyKey: "entry-8"]
                #expect(try await post(client, "/v1/journal", #"{"text": "hills"#, headers: fixKey).status == .badRequest)
                #expect(try await post(client, "/v1/journal", #"{"text": 5}"#, headers: fixKey).status == .badRequest)
                let fixed = try await post(client, "/v1/journal", #"{"text": "hills"}"#, headers: fixKey)
                #expect(fixed.status == .created)
                #expect(fixed.headers[.idempotentReplayed] == nil)
                #expect(try fixture.ledger.journal().map(\.text) == ["easy 8 km", "hills"])
            }
        }
    }

    @Test("retries racing each other with one key act once")
    func racingRetries() async throws {
        try await ServerFixture.with { fixture in
            try await fixture.server.makeApplication().test(.router) { client in
                let answers = try await withThrowingTaskGroup(of: String.self) { group in
                    for _ in 0..<6 {
                        group.addTask {
                            try await post(client, "/v1/journal", #"{"text": "tempo"}"#, headers: [.idempotencyKey: "race"]).text
                        }
                    }
                    return try await group.reduce(into: [String]()) { $0.append($1) }
                }
                #expect(Set(answers).count == 1)
                #expect(try fixture.ledger.journal().count == 1)
            }
        }
    }
}
