import StrideEvents
import StrideProjection

/// A row's key in the access-tokens projection.
public enum TokenKey: RowKey {
    /// A token, by its SHA-256.
    case token(AccessTokenHash)
    /// A device's tokens, by its name in lower case (names are told apart in any case).
    case device(String)
}

/// A row of the access-tokens projection.
public enum TokenRow: Hashable, Sendable {
    /// A token: whose it is, when it was added and revoked.
    case token(DeviceToken)
    /// The hashes of every token a device was given, oldest first: the last is its current one.
    case device(tokens: [AccessTokenHash])
}

/// A device's access token as the ledger keeps it: the device's name and the token's SHA-256,
/// never the token.
public struct DeviceToken: Hashable, Sendable {
    /// The device's name, as given when the token was added.
    public var name: String
    /// The token's SHA-256.
    public var sha256: AccessTokenHash
    /// The sequence of the event that added it.
    public var addedSequence: UInt64
    /// When it was added.
    public var addedAt: Timestamp
    /// When it was revoked; nil while it is active.
    public var revokedAt: Timestamp?

    /// Creates a token's row.
    public init(name: String, sha256: AccessTokenHash, addedSequence: UInt64, addedAt: Timestamp, revokedAt: Timestamp? = nil) {
        self.name = name
        self.sha256 = sha256
        self.addedSequence = addedSequence
        self.addedAt = addedAt
        self.revokedAt = revokedAt
    }

    /// Whether it was revoked: the server refuses it.
    public var isRevoked: Bool { revokedAt != nil }
}
