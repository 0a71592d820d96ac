import COpenSSL

/// SHA-256 through OpenSSL's direct SHA-256 calls: the hot paths (append, verify, ingest
/// identities) hash millions of small inputs, where EVP's per-hash set-up would cost
/// almost half as much as the hashing (see `Sources/COpenSSL/shim.h`).
///
/// The hasher holds no state between hashes; it stays a type so that callers keep one
/// value to pass around and a later implementation may keep a context again.
public final class SHA256Hasher: Sendable {
    /// Creates a hasher.
    public init() {}

    /// The SHA-256 of `first` followed by `second`, as its 32 bytes handed to `body`.
    public func digest<R>(
        _ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0),
        body: (UnsafeRawBufferPointer) -> R
    ) -> R {
        var digest = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        withUnsafeMutableBytes(of: &digest) { output in
            stride_sha256_two(
                first.baseAddress, first.count, second.baseAddress, second.count,
                output.baseAddress?.assumingMemoryBound(to: UInt8.self))
        }
        return withUnsafeBytes(of: digest) { body($0) }
    }
}
