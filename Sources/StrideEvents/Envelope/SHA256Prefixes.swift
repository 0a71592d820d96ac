import COpenSSL

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
