import Foundation
import StrideEvents
import StrideTestSupport
import Testing

@testable import StrideLedger

@Suite("Answering a request once")
struct RequestAnswerTests {
    @Test(
        "answers are kept for what was decided (2xx, 409, 422), never for a malformed, slow, large or mistyped body or a failure",
        arguments: [
            (200, true), (201, true), (204, true), (409, true), (422, true),
            (400, false), (401, false), (404, false), (408, false), (413, false), (415, false), (429, false),
            (500, false), (503, false), (507, false),
        ])
    func keptStatuses(status: Int, kept: Bool) {
        #expect(AnswerKeeping.keeps(status: status) == kept)
    }

    @Test("a kept answer stands for 24 hours: one millisecond less stands, the 24th hour does not")
    func expiry() {
        let answered = Timestamp(millisecondsSince1970: 1_717_243_200_000)
        let day = AnswerKeeping.keptFor
        #expect(AnswerKeeping.stands(answeredAt: answered, at: answered))
        #expect(AnswerKeeping.stands(answeredAt: answered, at: Timestamp(millisecondsSince1970: answered.millisecondsSince1970 + day - 1)))
        #expect(!AnswerKeeping.stands(answeredAt: answered, at: Timestamp(millisecondsSince1970: answered.millisecondsSince1970 + day)))
    }

    func request(_ key: String, body: String, path: String = "/v1/journal") -> KeyedRequest {
        KeyedRequest(device: "phone", key: key, method: "POST", path: path, bodyDigest: SHA256Stream.hex(of: Array(body.utf8)))
    }

    /// Carries out `request` as the server does: a journal entry through the ledger acting for it, its answer kept.
    func carryOut(_ request: KeyedRequest, on ledger: Ledger, text: String) throws -> RequestRecall {
        let recall = try ledger.recall(request)
        if case .carryOut(let stamp) = recall {
            _ = try ledger.acting(for: stamp).addJournalEntry(text, at: nil, sentBy: "phone")
            try ledger.keepAnswer(to: stamp, status: 201, body: #"{"text":"\#(text)"}"#)
        }
        return recall
    }

    @Test("the same request is answered again; another body, path or method with the key is refused; after 24 hours the key is new")
    func recall() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let clock = SettableClock(Timestamp(millisecondsSince1970: 1_717_243_200_000))
            let ledger = try Ledger.create(at: folder + "/ledger", timeZone: "Europe/Paris", clock: clock)
            let first = request("k1", body: #"{"text":"easy 8 km"}"#)
            guard case .carryOut(let stamp) = try carryOut(first, on: ledger, text: "easy 8 km") else {
                Issue.record("a new key is carried out")
                return
            }
            #expect(stamp.round == 0)
            guard case .answered(let kept) = try ledger.recall(first) else {
                Issue.record("the same request is answered again")
                return
            }
            #expect(kept.status == 201 && kept.body == #"{"text":"easy 8 km"}"#)
            for other in [request("k1", body: #"{"text":"tempo"}"#), request("k1", body: #"{"text":"easy 8 km"}"#, path: "/v1/checkin")] {
                guard case .keyUsedForAnother = try ledger.recall(other) else {
                    Issue.record("\(other) is another request")
                    return
                }
            }
            // A day later the key is free: the same body is a new entry, kept as the key's second round.
            clock.set(Timestamp(millisecondsSince1970: 1_717_243_200_000 + AnswerKeeping.keptFor))
            guard case .carryOut(let later) = try carryOut(first, on: ledger, text: "easy 8 km") else {
                Issue.record("an expired key is carried out again")
                return
            }
            #expect(later.round == 1)
            #expect(try ledger.journal().count == 2)
            guard case .answered = try ledger.recall(first) else {
                Issue.record("the second round's answer stands")
                return
            }
        }
    }

    @Test("a refusal that decided nothing is not kept: the retry is carried out")
    func refusalNotKept() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let ledger = try Ledger.create(
                at: folder + "/ledger", timeZone: "Europe/Paris", clock: FixedClock(Timestamp(secondsSince1970: 1_717_243_200)))
            let sent = request("k2", body: "{")
            guard case .carryOut(let stamp) = try ledger.recall(sent) else {
                Issue.record("a new key is carried out")
                return
            }
            let before = try ledger.store.lastSequence()
            #expect(try !ledger.keepAnswer(to: stamp, status: 400, body: #"{"error":"the body is not valid JSON"}"#))
            #expect(try ledger.store.lastSequence() == before)
            guard case .carryOut = try ledger.recall(sent) else {
                Issue.record("the retry is carried out")
                return
            }
        }
    }

    @Test("a request carried out whose answer was lost is known again only by the same body")
    func answerLost() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let ledger = try Ledger.create(
                at: folder + "/ledger", timeZone: "Europe/Paris", clock: FixedClock(Timestamp(secondsSince1970: 1_717_243_200)))
            let sent = request("k3", body: #"{"text":"long run"}"#)
            guard case .carryOut(let stamp) = try ledger.recall(sent) else {
                Issue.record("a new key is carried out")
                return
            }
            _ = try ledger.acting(for: stamp).addJournalEntry("long run", at: nil, sentBy: "phone")
            guard case .carriedOutAnswerLost = try ledger.recall(sent) else {
                Issue.record("the same request is known as carried out")
                return
            }
            guard case .carryOut = try ledger.recall(request("k3", body: #"{"text":"intervals"}"#)) else {
                Issue.record("another body is another request")
                return
            }
        }
    }
}
