/// The 128-bit identity of a sample or workout: its start instant in the high 64 bits and
/// 64 bits of the SHA-256 of its identity material in the low 64.
///
/// Leading with the start time keeps the log's indexes in time order, so appending a batch
/// of samples (which an export lists in time order per type) touches a few neighbouring
/// index pages rather than pages all over the index. Two samples share an identity only if
/// they start at the same millisecond and their identity material shares 64 hash bits.
public enum SampleIdentity {
    /// The identity for a start instant and identity material.
    public static func make(start: Timestamp, material: UnsafeRawBufferPointer) -> UInt128 {
        let digest = Digest128.of(material)
        return make(start: start, hash: UInt64(truncatingIfNeeded: digest >> 64))
    }

    /// The identity for a start instant and a 64-bit hash of the identity material.
    public static func make(start: Timestamp, hash: UInt64) -> UInt128 {
        // Flipping the sign bit keeps instants before 1970 in order too.
        let time = UInt64(bitPattern: start.millisecondsSince1970) ^ (1 << 63)
        return UInt128(time) << 64 | UInt128(hash)
    }

    /// The start instant an identity begins with.
    public static func start(of identity: UInt128) -> Timestamp {
        Timestamp(millisecondsSince1970: Int64(bitPattern: UInt64(truncatingIfNeeded: identity >> 64) ^ (1 << 63)))
    }
}
