import StrideEvents
import StrideProjection
import Testing

@testable import AccessTokens

@Suite("Device names")
struct DeviceNamePolicyTests {
    @Test(
        "a plain device name is kept, trimmed",
        arguments: [
            ("marie-iphone", "marie-iphone"), ("  Marie_Watch.2 \n", "Marie_Watch.2"), ("a", "a"),
            (String(repeating: "x", count: 64), String(repeating: "x", count: 64)),
        ])
    func accepted(text: String, kept: String) throws {
        #expect(try DeviceNamePolicy.check(text).get() == kept)
    }

    @Test(
        "other names are refused with what is wrong",
        arguments: [
            ("", "a device needs a name"), ("   ", "a device needs a name"),
            (String(repeating: "x", count: 65), "65 characters long, more than 64"),
            ("marie iphone", "holds a space"), ("émile", "holds \"é\""), ("a/b", "holds \"/\""), ("tab\there", "U+9"),
            ("marie:1", "holds \":\""), ("🏃", "holds \"🏃\""),
        ])
    func refused(text: String, problem: String) {
        guard case .failure(let refusal) = DeviceNamePolicy.check(text) else {
            Issue.record("\"\(text)\" was accepted")
            return
        }
        #expect(refusal.problem.contains(problem), "\(refusal.problem)")
    }
}

@Suite("Access tokens and their hashes")
struct AccessTokenTests {
    @Test("a token is stride_ and 64 lowercase hexadecimal digits of 32 random bytes; two are never alike")
    func form() {
        let token = AccessToken.generate()
        #expect(token.hasPrefix("stride_"))
        let digits = token.dropFirst("stride_".count)
        #expect(digits.count == 64)
        #expect(digits.allSatisfy { "0123456789abcdef".contains($0) })
        #expect(AccessToken.generate() != token)
        #expect(AccessToken.text(from: [0x00, 0x0f, 0xa0, 0xff]) == "stride_000fa0ff")
    }

    @Test("the hash is the SHA-256 of the token's text")
    func sha256() {
        // FIPS 180-2's test vector for "abc".
        #expect(Hex.string(AccessTokenHash(of: "abc").bytes) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(AccessTokenHash(of: "abc").prefix == "ba7816bf")
    }

    @Test("hashes are equal only when all 32 bytes are, wherever they differ", arguments: [0, 1, 15, 16, 30, 31])
    func constantTimeComparison(differingByte index: Int) throws {
        let base = AccessTokenHash(of: "stride_token")
        var bytes = base.bytes
        bytes[index] ^= 0x01
        let other = try #require(AccessTokenHash(bytes: bytes))
        #expect(!base.matches(other))
        #expect(base != other)
        #expect(base.matches(try #require(AccessTokenHash(bytes: base.bytes))))
    }
}

@Suite("The access-tokens projection")
struct AccessTokensProjectionTests {
    let projection = AccessTokensProjection()
    var sequence: UInt64 = 0
    var rows = ProjectionRows<TokenKey, TokenRow>()

    mutating func apply(_ event: LedgerEvent) {
        sequence += 1
        let instant = Timestamp(secondsSince1970: 1_714_543_200 + Int64(sequence) * 60)
        let recorded = RecordedEvent(
            sequence: sequence, recordedAt: instant, occurredAt: instant, entity: .device(named: "x"), idempotencyKey: nil,
            storedSchemaVersion: 1, event: event)
        projection.apply(ProjectionEvent(recorded), to: &rows)
    }

    /// The state the rows hold, read through the projection's own queries.
    func state() -> ProjectionState<AccessTokensProjection> {
        let encoded = rows.present.map { (key: projection.encode(key: $0.key), row: projection.encodedRow($0.value)) }
            .sorted { $0.key.sortsBefore($1.key) }
        return ProjectionState(projection, source: InMemoryRows(encoded))
    }

    mutating func add(_ name: String, _ token: String) {
        apply(.tokenAdded(TokenAdded(name: name, sha256: AccessTokenHash(of: token))))
    }

    @Test("a token names its device until it is revoked; a revoked name may be given a new token")
    mutating func lifecycle() throws {
        add("marie-iphone", "stride_one")
        add("watch", "stride_two")
        #expect(try state().device(presenting: AccessTokenHash(of: "stride_one")) == "marie-iphone")
        #expect(try state().device(presenting: AccessTokenHash(of: "stride_two")) == "watch")
        #expect(try state().device(presenting: AccessTokenHash(of: "stride_three")) == nil)
        #expect(try state().activeToken(named: "MARIE-IPHONE")?.name == "marie-iphone")

        apply(.tokenRevoked(TokenRevoked(name: "marie-iphone")))
        #expect(try state().device(presenting: AccessTokenHash(of: "stride_one")) == nil)
        #expect(try state().activeToken(named: "marie-iphone") == nil)
        let revoked = try #require(try state().token(forHash: AccessTokenHash(of: "stride_one")))
        #expect(revoked.isRevoked && revoked.revokedAt == Timestamp(secondsSince1970: 1_714_543_200 + 3 * 60))

        add("marie-iphone", "stride_four")
        #expect(try state().device(presenting: AccessTokenHash(of: "stride_four")) == "marie-iphone")
        #expect(try state().device(presenting: AccessTokenHash(of: "stride_one")) == nil)
        let listed = try state().tokens()
        #expect(listed.map(\.name) == ["marie-iphone", "watch", "marie-iphone"])
        #expect(listed.map(\.isRevoked) == [true, false, false])
        #expect(listed.map(\.addedSequence) == [1, 2, 4])
    }

    @Test("a revocation leaves no token of the name active, even where the log holds two; a repeated hash adds nothing")
    mutating func oddLogs() throws {
        add("marie-iphone", "stride_one")
        add("Marie-iPhone", "stride_two")
        add("other", "stride_one")
        #expect(try state().tokens().count == 2)
        #expect(try state().device(presenting: AccessTokenHash(of: "stride_one")) == "marie-iphone")
        apply(.tokenRevoked(TokenRevoked(name: "marie-iphone")))
        #expect(try state().tokens().allSatisfy(\.isRevoked))
        apply(.tokenRevoked(TokenRevoked(name: "nobody")))
        #expect(try state().tokens().count == 2)
    }

    @Test("keys and rows read back as written")
    mutating func encoding() throws {
        add("marie-iphone", "stride_one")
        apply(.tokenRevoked(TokenRevoked(name: "marie-iphone")))
        for (key, row) in rows.present {
            let decodedKey = try projection.encode(key: key).withUnsafeBytes { try projection.decodeKey($0) }
            let decodedRow = try projection.encodedRow(row).withUnsafeBytes { try projection.decodeRow($0) }
            #expect(decodedKey == key)
            #expect(decodedRow == row)
        }
    }
}
