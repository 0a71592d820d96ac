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

/// SHA-256 states after a few recently hashed prefixes: an export hashes one record after
/// another whose identity material starts with the same 128 or 192 bytes (type, source,
/// device), and resuming from the state after them skips most of the hashing.
///
/// Prefixes and states live in memory of their own (no reference counting on a lookup).
/// Not thread-safe: one per reading thread.
public final class SHA256Prefixes {
    /// The longest prefix kept; a longer one is hashed up to this length and resumed from there.
    public static let longestPrefix = 256

    private let capacity: Int
    private let prefixes: UnsafeMutableRawPointer
    private let lengths: UnsafeMutablePointer<Int>
    private let states: UnsafeMutablePointer<SHA256_CTX>
    private var count = 0
    private var next = 0
    private var lastHit = 0

    /// Creates a cache of `capacity` prefixes (the oldest is replaced first).
    public init(capacity: Int = 8) {
        self.capacity = capacity
        prefixes = UnsafeMutableRawPointer.allocate(byteCount: capacity * Self.longestPrefix, alignment: 16)
        lengths = UnsafeMutablePointer<Int>.allocate(capacity: capacity)
        states = UnsafeMutablePointer<SHA256_CTX>.allocate(capacity: capacity)
    }

    deinit {
        prefixes.deallocate()
        lengths.deallocate()
        states.deallocate()
    }

    /// Calls `body` with the state after `prefix` (at most ``longestPrefix`` bytes), computing
    /// and keeping it when not held.
    func withState(after prefix: UnsafeRawBufferPointer, _ body: (UnsafePointer<SHA256_CTX>) -> Void) {
        precondition(prefix.count <= Self.longestPrefix)
        // The prefix hit last time first: records of one source tend to come in runs.
        if let index = find(prefix) {
            lastHit = index
            body(states + index)
            return
        }
        let index: Int
        if count < capacity {
            index = count
            count += 1
        } else {
            index = next
            next = (next + 1) % capacity
        }
        if let base = prefix.baseAddress { (prefixes + index * Self.longestPrefix).copyMemory(from: base, byteCount: prefix.count) }
        lengths[index] = prefix.count
        stride_sha256_prefix(prefix.baseAddress, prefix.count, states + index)
        lastHit = index
        body(states + index)
    }

    private func find(_ prefix: UnsafeRawBufferPointer) -> Int? {
        if lastHit < count, holds(prefix, at: lastHit) { return lastHit }
        for index in 0..<count where index != lastHit && holds(prefix, at: index) { return index }
        return nil
    }

    private func holds(_ prefix: UnsafeRawBufferPointer, at index: Int) -> Bool {
        lengths[index] == prefix.count
            && WordHash.sameBytes(
                UnsafeRawBufferPointer(start: prefixes + index * Self.longestPrefix, count: prefix.count), prefix)
    }
}
