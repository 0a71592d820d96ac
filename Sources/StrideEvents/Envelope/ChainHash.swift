/// The SHA-256 link of the hash chain: each event's hash covers the previous event's hash
/// and this event's bytes, so editing, removing or reordering any stored event changes every
/// hash after it.
public struct ChainHash: Hashable, Sendable, CustomStringConvertible {
    /// The 32 bytes, as four words in storage order.
    private var words: (UInt64, UInt64, UInt64, UInt64)

    /// The hash before the first event: 32 zero bytes.
    public static let genesis = ChainHash(words: (0, 0, 0, 0))

    private init(words: (UInt64, UInt64, UInt64, UInt64)) {
        self.words = words
    }

    /// Reads a hash from 32 bytes; nil when there are not exactly 32.
    public init?(bytes: UnsafeRawBufferPointer) {
        guard bytes.count == 32 else { return nil }
        words = (
            bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self),
            bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
            bytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self),
            bytes.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
        )
    }

    /// The hash following `previous` for an event's bytes.
    public static func link(previous: ChainHash, event bytes: UnsafeRawBufferPointer, hasher: SHA256Hasher) -> ChainHash {
        previous.withUnsafeBytes { previousBytes in
            hasher.digest(previousBytes, bytes) { ChainHash(bytes: $0) ?? .genesis }
        }
    }

    /// Calls `body` with the 32 bytes.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try Swift.withUnsafeBytes(of: words, body)
    }

    public static func == (lhs: ChainHash, rhs: ChainHash) -> Bool {
        lhs.words == rhs.words
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
    }

    /// 64 lowercase hexadecimal digits.
    public var description: String { withUnsafeBytes { Hex.string($0) } }
}

/// The first 128 bits of a SHA-256 digest.
public enum Digest128 {
    /// The first 16 bytes of the SHA-256 of `bytes`, as a big-endian number.
    public static func of(_ bytes: UnsafeRawBufferPointer, hasher: SHA256Hasher = SHA256Hasher()) -> UInt128 {
        hasher.digest(bytes) { digest in
            var value: UInt128 = 0
            for index in 0..<16 { value = value << 8 | UInt128(digest[index]) }
            return value
        }
    }

    /// The first 16 bytes of the SHA-256 of `bytes`, as a big-endian number.
    public static func of(_ bytes: [UInt8]) -> UInt128 {
        bytes.withUnsafeBytes { of($0) }
    }
}
