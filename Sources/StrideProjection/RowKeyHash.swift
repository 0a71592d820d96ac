/// A projection's row key: hashable, and reducible to one word that equal keys share, so the
/// fold's dictionaries hash it with a quick mix (``RowKeyHash``) instead of SipHash.
public protocol RowKey: Hashable, Sendable {
    /// A word equal keys share and different keys rarely do.
    var hashWord: UInt64 { get }
}

extension RowKey {
    /// The key's standard hash as the word: for keys that have no cheaper one.
    public var hashWord: UInt64 { UInt64(bitPattern: Int64(hashValue)) }
}

extension String: RowKey {}

extension UInt64: RowKey {
    /// The number itself.
    public var hashWord: UInt64 { self }
}

/// A quick hash of a row key's word, for the dictionaries a fold looks rows up in.
///
/// A fold looks a row up for every event, and Swift's default hashing (SipHash, seeded per
/// dictionary) cost about as much as the rest of the lookup. Row keys come from the ledger's
/// own events and live only in memory, so a seeded cryptographic hash buys nothing here: a
/// multiply–xorshift finalizer carries every input bit to the low bits that pick a bucket.
public enum RowKeyHash {
    /// The hash of `word` under a dictionary's `seed`.
    @inlinable @inline(__always)
    public static func mix(_ word: UInt64, seed: Int) -> Int {
        var x = word ^ UInt64(bitPattern: Int64(seed))
        x = (x ^ (x &>> 32)) &* 0xD6E8_FEB8_6659_FD93
        x = (x ^ (x &>> 32)) &* 0xD6E8_FEB8_6659_FD93
        return Int(bitPattern: UInt(x ^ (x &>> 32)))
    }
}

/// A row key as the fold's dictionaries hold it: hashed through its word with ``RowKeyHash``.
/// The standard library's hook for that (`_rawHashValue(seed:)`) stays in this one type.
@usableFromInline
struct WordHashedKey<Key: RowKey>: Hashable {
    @usableFromInline let key: Key

    @inlinable init(_ key: Key) {
        self.key = key
    }

    @inlinable static func == (lhs: Self, rhs: Self) -> Bool { lhs.key == rhs.key }

    @inlinable func hash(into hasher: inout Hasher) { hasher.combine(key.hashWord) }

    @inlinable func _rawHashValue(seed: Int) -> Int { RowKeyHash.mix(key.hashWord, seed: seed) }
}
