import COpenSSL

/// SHA-256 through OpenSSL, with one context reused for every hash: the hot paths (append,
/// verify, ingest identities) hash millions of small inputs, where allocating a context
/// per hash would cost more than hashing.
///
/// Not thread-safe: give each task its own.
public final class SHA256Hasher {
    // EVP_MD is immutable once fetched and safe to share between threads.
    private nonisolated(unsafe) static let algorithm: OpaquePointer? = EVP_MD_fetch(nil, "SHA256", nil)
    private let context: OpaquePointer?

    /// Creates a hasher.
    public init() {
        context = EVP_MD_CTX_new()
    }

    deinit {
        EVP_MD_CTX_free(context)
    }

    /// The SHA-256 of `first` followed by `second`, as its 32 bytes handed to `body`.
    public func digest<R>(_ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0), body: (UnsafeRawBufferPointer) -> R) -> R {
        var digest = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        var length: UInt32 = 0
        // Failure here means OpenSSL itself is broken (no memory for a context); a hash of
        // zeros then makes every check fail loudly rather than pass.
        if EVP_DigestInit_ex2(context, Self.algorithm, nil) == 1 {
            EVP_DigestUpdate(context, first.baseAddress, first.count)
            if second.count > 0 { EVP_DigestUpdate(context, second.baseAddress, second.count) }
            withUnsafeMutableBytes(of: &digest) { _ = EVP_DigestFinal_ex(context, $0.bindMemory(to: UInt8.self).baseAddress, &length) }
        }
        return withUnsafeBytes(of: digest) { body($0) }
    }
}
