import AccessTokens
import Foundation
import StrideEvents
import StrideTestSupport
import Testing

@testable import StrideLedger

@Suite("Access tokens on a ledger")
struct TokenLedgerTests {
    static let now = ISO8601.parse("2024-05-10T12:00:00+02:00") ?? Timestamp(millisecondsSince1970: 0)

    func ledger(_ folder: String) throws -> Ledger {
        try Ledger.create(at: folder + "/ledger", timeZone: "Europe/Paris", clock: FixedClock(Self.now))
    }

    @Test("a new token authenticates its device; the ledger keeps its hash, never the token")
    func addAndAuthenticate() throws {
        try withTemporaryDirectory { folder in
            let ledger = try ledger(folder)
            let token = try ledger.addToken(name: "  marie-iphone ", at: nil)
            #expect(token.hasPrefix(AccessToken.prefix) && token.count == AccessToken.prefix.count + 64)
            #expect(try ledger.device(authenticating: token) == "marie-iphone")
            #expect(try ledger.device(authenticating: token + "0") == nil)
            #expect(try ledger.device(authenticating: "") == nil)
            #expect(try ledger.device(authenticating: AccessToken.generate()) == nil)

            let event = try #require(try ledger.events(from: 1, limit: 10, type: .tokenAdded).first)
            guard case .tokenAdded(let added) = event.event else {
                Issue.record("not a token.added: \(event.event)")
                return
            }
            #expect(added.name == "marie-iphone")
            #expect(added.sha256 == AccessTokenHash(of: token))
            #expect(event.entity == .device(named: "marie-iphone"))
            #expect(event.occurredAt == Self.now)
            // Nowhere in the ledger's files: not the token, not its hexadecimal digits.
            for file in try FileManager.default.contentsOfDirectory(atPath: folder + "/ledger") {
                let bytes = try Data(contentsOf: URL(fileURLWithPath: folder + "/ledger/" + file))
                #expect(bytes.range(of: Data(token.dropFirst(AccessToken.prefix.count).utf8)) == nil, "\(file) holds the token")
            }
            let listed = try ledger.tokens()
            #expect(listed.map(\.name) == ["marie-iphone"])
            #expect(listed.first?.isRevoked == false)
        }
    }

    @Test("revoking shuts a token out; the name may then be given a new one, which alone authenticates")
    func revokeAndReAdd() throws {
        try withTemporaryDirectory { folder in
            let ledger = try ledger(folder)
            let first = try ledger.addToken(name: "marie-iphone", at: nil)
            let watch = try ledger.addToken(name: "marie-watch", at: nil)
            try ledger.revokeToken(name: "Marie-iPhone", at: Self.now.adding(milliseconds: 1000))
            #expect(try ledger.device(authenticating: first) == nil)
            #expect(try ledger.device(authenticating: watch) == "marie-watch")
            let second = try ledger.addToken(name: "marie-iphone", at: nil)
            #expect(second != first)
            #expect(try ledger.device(authenticating: second) == "marie-iphone")
            #expect(try ledger.device(authenticating: first) == nil)
            let listed = try ledger.tokens()
            #expect(listed.map(\.name) == ["marie-iphone", "marie-watch", "marie-iphone"])
            #expect(listed.map(\.isRevoked) == [true, false, false])
            #expect(listed.first?.revokedAt == Self.now.adding(milliseconds: 1000))
            // The same after a rebuild from the log.
            _ = try ledger.rebuild(["tokens"])
            #expect(try ledger.tokens() == listed)
            #expect(try ledger.device(authenticating: second) == "marie-iphone")
        }
    }

    @Test("refusals say what to do and append nothing")
    func refusals() throws {
        try withTemporaryDirectory { folder in
            let ledger = try ledger(folder)
            _ = try ledger.addToken(name: "marie-iphone", at: nil)
            let before = try ledger.store.lastSequence()
            #expect(throws: TokenError.nameActive("marie-iphone")) { try ledger.addToken(name: "MARIE-IPHONE", at: nil) }
            #expect("\(TokenError.nameActive("marie-iphone"))".contains("revoke it first"))
            #expect(throws: TokenError.self) { try ledger.addToken(name: "marie iphone", at: nil) }
            #expect(throws: TokenError.self) { try ledger.addToken(name: "", at: nil) }
            #expect(throws: TokenError.self) { try ledger.addToken(name: String(repeating: "a", count: 65), at: nil) }
            #expect(throws: TokenError.noActiveToken("watch", active: ["marie-iphone"])) { try ledger.revokeToken(name: "watch", at: nil) }
            #expect(throws: LedgerError.self) { try ledger.addToken(name: "watch", at: Self.now.adding(milliseconds: 3_600_000)) }
            #expect(throws: LedgerError.self) { try ledger.revokeToken(name: "marie-iphone", at: Self.now.adding(milliseconds: 3_600_000)) }
            #expect(try ledger.store.lastSequence() == before)
            try ledger.revokeToken(name: "marie-iphone", at: nil)
            #expect(throws: TokenError.noActiveToken("marie-iphone", active: [])) { try ledger.revokeToken(name: "marie-iphone", at: nil) }
        }
    }

    @Test("a token dated in the past is listed with that time")
    func backDated() throws {
        try withTemporaryDirectory { folder in
            let ledger = try ledger(folder)
            let past = Self.now.adding(milliseconds: -86_400_000)
            _ = try ledger.addToken(name: "old-phone", at: past)
            #expect(try ledger.tokens().first?.addedAt == past)
        }
    }
}
