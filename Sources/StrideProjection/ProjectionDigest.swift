import StrideEvents

/// A projection's state reduced to 32 bytes: SHA-256 over its rows in key order, each key
/// and row length-prefixed. Equal state, equal digest.
public struct ProjectionDigest {
    private let hasher = SHA256Hasher()
    private var material: [UInt8] = []
    private var running = ChainHash.genesis

    /// Starts a digest.
    public init() {}

    /// Adds one row; rows must come in key-byte order.
    public mutating func add(key: UnsafeRawBufferPointer, row: UnsafeRawBufferPointer) {
        material.removeAll(keepingCapacity: true)
        withUnsafeBytes(of: UInt32(key.count).littleEndian) { material.append(contentsOf: $0) }
        material.append(contentsOf: key)
        withUnsafeBytes(of: UInt32(row.count).littleEndian) { material.append(contentsOf: $0) }
        material.append(contentsOf: row)
        running = material.withUnsafeBytes { ChainHash.link(previous: running, event: $0, hasher: hasher) }
    }

    /// The digest of the rows added.
    public var value: ChainHash { running }

    /// The digest of encoded rows.
    public static func of(_ rows: EncodedRows) -> ChainHash {
        var digest = ProjectionDigest()
        for entry in rows {
            entry.key.withUnsafeBytes { key in entry.row.withUnsafeBytes { digest.add(key: key, row: $0) } }
        }
        return digest.value
    }
}
