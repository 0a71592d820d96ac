/// A quick hash of a one-word row key, for the dictionaries a fold looks rows up in.
///
/// A fold looks a row up for every event, and Swift's default hashing (SipHash, seeded per
/// dictionary) cost about as much as the rest of the lookup: 7 % of a rebuild. Keys that
/// reduce to one word implement `_rawHashValue(seed:)` — the hook `Dictionary` calls — with
/// this mix instead (a multiply–xorshift finalizer: every input bit reaches the low bits that
/// pick a bucket). Row keys come from the ledger's own events and live only in memory, so a
/// seeded cryptographic hash buys nothing here.
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
