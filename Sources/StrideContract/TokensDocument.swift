import AccessTokens
import StrideEvents
import StrideLedger

/// `tokens list --json`: every device's access token, in the order added — its name, when it
/// was added, and whether and when it was revoked. Never a token, never a hash.
public struct TokensDocument: ContractDocument {
    /// The tokens, in the order added.
    public var tokens: [DeviceToken]
    /// Formats the times.
    public var time: LocalTime

    /// The tokens as they stand.
    /// - Throws: a storage failure.
    public init(_ ledger: Ledger) throws {
        tokens = try ledger.tokens()
        time = LocalTime(ledger)
    }

    public var json: JSONValue {
        .object([
            "tokens": .array(
                tokens.map { token in
                    .object([
                        "name": .string(token.name), "addedAt": .string(time.format(token.addedAt)), "isRevoked": .bool(token.isRevoked),
                        "revokedAt": .string(token.revokedAt.map(time.format)),
                    ])
                })
        ])
    }
}
