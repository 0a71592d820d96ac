/// The SHA-256 of an access token: all the ledger keeps of a token, so that reading the log
/// (or a backup of it) never gives anyone a token to present.
///
/// Two hashes are compared in constant time: every one of the 32 bytes is compared, their
/// differences accumulated, and nothing returns early, so the time a comparison takes says
/// nothing about how many leading bytes matched.
public struct AccessTokenHash: Hashable, Sendable {
    /// The 32 bytes of the digest.
    public let bytes: [UInt8]

    /// The length of a SHA-256 digest.
    public static let byteCount = 32

    /// A hash from its 32 bytes; nil for any other length.
    public init?(bytes: [UInt8]) {
        guard bytes.count == Self.byteCount else { return nil }
        self.bytes = bytes
    }

    /// The SHA-256 of a token's text (its UTF-8 bytes), as presented.
    public init(of token: String) {
        let text = Array(token.utf8)
        bytes = text.withUnsafeBytes { SHA256Hasher().digest($0) { Array($0) } }
    }

    /// Whether two hashes are equal, in constant time (see the type's summary).
    public func matches(_ other: AccessTokenHash) -> Bool {
        var difference: UInt8 = 0
        for index in 0..<Self.byteCount {
            difference |= bytes[index] ^ other.bytes[index]
        }
        return difference == 0
    }

    /// Equal in constant time: `==` is what collections use, so it must not leak either.
    public static func == (lhs: AccessTokenHash, rhs: AccessTokenHash) -> Bool { lhs.matches(rhs) }

    public func hash(into hasher: inout Hasher) { hasher.combine(bytes) }

    /// The first 8 hexadecimal digits: enough to tell tokens apart in `stride log`, too few to
    /// look one up by.
    public var prefix: String { Hex.string(bytes.prefix(4)) }
}
