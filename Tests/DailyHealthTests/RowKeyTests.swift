import StrideEvents
import Testing

@testable import DailyHealth
@testable import StrideProjection

/// Row keys hash through their word (``RowKey/hashWord``) and ``RowKeyHash/mix(_:seed:)``
/// inside the fold's dictionaries (``WordHashedKey``) rather than SipHash: what must hold is
/// what any dictionary needs — equal keys hash alike, different keys stay apart, the seed
/// counts, and the low bits that pick a bucket spread.
@Suite("Daily-health row keys")
struct RowKeyTests {
    /// A year of hour rows for every measure, and a thousand synced samples.
    static let keys: [DailyHealthKey] = {
        var keys: [DailyHealthKey] = []
        var day = CivilDate(year: 2024, month: 1, day: 1)
        for _ in 0..<366 {
            for measure in Measure.allCases {
                for hour in 0..<25 { keys.append(.facts(day: day, measure: measure, hour: UInt8(hour))) }
            }
            day = day.adding(days: 1)
        }
        for index in 0..<1_000 { keys.append(.synced(UInt128(index) << 64 | UInt128(index &* 7919))) }
        return keys
    }()

    @Test("different keys have different words: a year of hour rows and a thousand synced samples collide nowhere")
    func words() {
        #expect(Set(Self.keys.map(\.hashWord)).count == Self.keys.count)
    }

    @Test("every key is found again, once, in the fold's dictionary, and its row is its own")
    func dictionaryFindsEveryKey() {
        var rows: [WordHashedKey<DailyHealthKey>: Int] = [:]
        for (index, key) in Self.keys.enumerated() { rows[WordHashedKey(key)] = index }
        #expect(rows.count == Self.keys.count)
        for (index, key) in Self.keys.enumerated() { #expect(rows[WordHashedKey(key)] == index) }
    }

    @Test("equal words mix alike under any seed; the seed changes the mix; one bit of the word changes about half the bits")
    func mix() {
        let word = DailyHealthKey.facts(day: CivilDate(year: 2024, month: 3, day: 31), measure: .steps, hour: 2).hashWord
        for seed in [0, 1, -1, 0x5EED] { #expect(RowKeyHash.mix(word, seed: seed) == RowKeyHash.mix(word, seed: seed)) }
        #expect(RowKeyHash.mix(word, seed: 1) != RowKeyHash.mix(word, seed: 2))
        #expect(WordHashedKey(DailyHealthKey.synced(7))._rawHashValue(seed: 9) == RowKeyHash.mix(DailyHealthKey.synced(7).hashWord, seed: 9))
        // Avalanche: flipping any one input bit flips between a quarter and three quarters of the output.
        for bit in 0..<64 {
            let flipped = (RowKeyHash.mix(word, seed: 42) ^ RowKeyHash.mix(word ^ (1 << UInt64(bit)), seed: 42)).nonzeroBitCount
            #expect((16...48).contains(flipped), "bit \(bit): \(flipped) bits changed")
        }
    }

    @Test("the low bits that pick a bucket spread: a year of keys fills most of 2^15 buckets")
    func lowBitsSpread() {
        let buckets = Set(Self.keys.map { RowKeyHash.mix($0.hashWord, seed: 42) & (1 << 15 - 1) })
        // 55,900 keys into 32,768 buckets fill about 82 % when the mix is uniform; a mix whose
        // low bits ignored the day or the hour would fill a small fraction.
        #expect(buckets.count > 25_000)
    }
}
