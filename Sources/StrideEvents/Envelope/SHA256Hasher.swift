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

    /// The SHA-256 of `bytes`, whose first `reusable` bytes (a multiple of 64) are often the
    /// same from one call to the next: the state after them is taken from `prefixes` when it
    /// holds it, so only the rest is hashed. The digest is the plain SHA-256 of `bytes`.
    public func digest<R>(
        _ bytes: UnsafeRawBufferPointer, reusing reusable: Int, from prefixes: SHA256Prefixes,
        body: (UnsafeRawBufferPointer) -> R
    ) -> R {
        precondition(reusable % 64 == 0 && reusable <= bytes.count, "a reusable prefix is whole 64-byte blocks")
        let reusable = min(reusable, SHA256Prefixes.longestPrefix)
        guard reusable > 0 else { return digest(bytes, body: body) }
        let prefix = UnsafeRawBufferPointer(rebasing: bytes[0..<reusable])
        let rest = UnsafeRawBufferPointer(rebasing: bytes[reusable...])
        var digest = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        prefixes.withState(after: prefix) { state in
            withUnsafeMutableBytes(of: &digest) { output in
                stride_sha256_resume(state, rest.baseAddress, rest.count, output.baseAddress?.assumingMemoryBound(to: UInt8.self))
            }
        }
        return withUnsafeBytes(of: digest) { body($0) }
    }
}
