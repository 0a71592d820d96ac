import StrideEvents
import Testing

@testable import StrideProjection

@Suite("A run's encoded rows")
struct EncodedChangesTests {
    @Test("rows come out in LMDB's key order, whatever their prefixes and lengths, deleted ones without bytes")
    func keyOrder() {
        let long = [UInt8](repeating: 7, count: 16)
        let keys: [[UInt8]] = [
            [1, 2, 3], [1, 2], [1, 2, 3, 0], [], [0xFF], long + [2], long + [1], long, long + [1, 0], [1, 2, 2, 0xFF, 0xFF],
        ]
        var changes = EncodedChanges()
        for (index, key) in keys.enumerated() {
            let row: ((inout BinaryWriter) -> Void)? = index == 2 ? nil : { $0.write(UInt8(index)) }
            changes.add(key: { $0.write(raw: key) }, row: row)
        }
        changes.sortByKey()
        var seen: [(key: [UInt8], row: [UInt8]?)] = []
        changes.forEach { key, row in seen.append((Array(key), row.map { Array($0) })) }
        let expected = keys.enumerated().sorted { $0.element.lexicographicallyPrecedes($1.element) }
        #expect(seen.map(\.key) == expected.map(\.element))
        #expect(seen.map(\.row) == expected.map { $0.offset == 2 ? nil : [UInt8($0.offset)] })
        #expect(changes.presentRows.count == keys.count - 1)
    }
}
