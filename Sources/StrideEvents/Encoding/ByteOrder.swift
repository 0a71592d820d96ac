import Glibc

extension UnsafeRawBufferPointer {
    /// Whether these bytes sort before `other` as LMDB sorts keys (byte by byte, a prefix
    /// first): `lexicographicallyPrecedes` with one `memcmp`, for sorting a rebuild's
    /// hundreds of thousands of row keys.
    @inlinable
    public func sortsBefore(_ other: UnsafeRawBufferPointer) -> Bool {
        let common = Swift.min(count, other.count)
        guard common > 0, let leftBase = baseAddress, let rightBase = other.baseAddress else { return count < other.count }
        let order = memcmp(leftBase, rightBase, common)
        return order != 0 ? order < 0 : count < other.count
    }
}

extension Array where Element == UInt8 {
    /// Whether these bytes sort before `other` as LMDB sorts keys (see the raw buffer's).
    public func sortsBefore(_ other: [UInt8]) -> Bool {
        withUnsafeBytes { left in other.withUnsafeBytes { right in left.sortsBefore(right) } }
    }
}
