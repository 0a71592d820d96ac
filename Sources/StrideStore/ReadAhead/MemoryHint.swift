import CChecksum

/// Hints to the CPU about memory about to be read; they change no result.
enum MemoryHint {
    /// Starts loading the first bytes of `bytes` (up to 256) into the cache.
    @inline(__always)
    static func willRead(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < min(bytes.count, 256) {
            stride_prefetch(base + offset)
            offset += 64
        }
    }
}
