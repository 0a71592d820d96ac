import Glibc

extension Array where Element == UInt8 {
    /// Whether these bytes sort before `other` as LMDB sorts keys (byte by byte, a prefix
    /// first): `lexicographicallyPrecedes` with one `memcmp`, for sorting a rebuild's
    /// hundreds of thousands of row keys.
    public func sortsBefore(_ other: [UInt8]) -> Bool {
        let common = Swift.min(count, other.count)
        let order = withUnsafeBufferPointer { left in
            other.withUnsafeBufferPointer { right -> Int32 in
                guard common > 0, let leftBase = left.baseAddress, let rightBase = right.baseAddress else { return 0 }
                return memcmp(leftBase, rightBase, common)
            }
        }
        return order != 0 ? order < 0 : count < other.count
    }
}
