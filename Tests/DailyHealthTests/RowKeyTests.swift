import StrideEvents
import StrideProjection
import Testing

@testable import DailyHealth

/// Row keys hash through ``RowKeyHash`` rather than SipHash: what must hold is what any
/// dictionary needs — equal keys hash alike, different keys stay apart, and the seed counts.
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

    @Test("every key is found again, once, and its row is its own")
    func dictionaryFindsEveryKey() {
        var rows: [DailyHealthKey: Int] = [:]
        for (index, key) in Self.keys.enumerated() { rows[key] = index }
        #expect(rows.count == Self.keys.count)
        for (index, key) in Self.keys.enumerated() { #expect(rows[key] == index) }
    }

    @Test("equal keys hash alike under any seed; the seed changes the hash")
    func seeds() {
        let key = DailyHealthKey.facts(day: CivilDate(year: 2024, month: 3, day: 31), measure: .steps, hour: 2)
        let same = DailyHealthKey.facts(day: CivilDate(year: 2024, month: 3, day: 31), measure: .steps, hour: 2)
        for seed in [0, 1, -1, 0x5EED] { #expect(key._rawHashValue(seed: seed) == same._rawHashValue(seed: seed)) }
        #expect(key._rawHashValue(seed: 1) != key._rawHashValue(seed: 2))
    }

    @Test("the low bits that pick a bucket spread: a year of keys fills most of 2^15 buckets")
    func lowBitsSpread() {
        let buckets = Set(Self.keys.map { $0._rawHashValue(seed: 42) & (1 << 15 - 1) })
        // 55,900 keys into 32,768 buckets fill about 82 % when the hash is uniform; a hash
        // whose low bits ignore the day or the hour would fill a small fraction.
        #expect(buckets.count > 25_000)
    }
}
