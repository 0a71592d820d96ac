import Testing

@testable import StrideEvents

@Suite("SHA-256 resumed from a kept prefix state")
struct SHA256PrefixTests {
    /// The plain digest, as hex.
    static func plain(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { SHA256Hasher().digest($0) { Hex.string(Array($0)) } }
    }

    static func resumed(_ bytes: [UInt8], reusing: Int, from prefixes: SHA256Prefixes) -> String {
        bytes.withUnsafeBytes { SHA256Hasher().digest($0, reusing: reusing, from: prefixes) { Hex.string(Array($0)) } }
    }

    @Test("the SHA-256 of \"abc\" repeated, resumed after 64 bytes, is the known digest")
    func knownVector() {
        // 64 × "a" then "abc": the state after the first block is kept, then reused.
        let bytes = Array(repeating: UInt8(ascii: "a"), count: 64) + Array("abc".utf8)
        let prefixes = SHA256Prefixes()
        #expect(Self.resumed(bytes, reusing: 64, from: prefixes) == Self.plain(bytes))
        #expect(Self.resumed(bytes, reusing: 64, from: prefixes) == Self.plain(bytes))
        #expect(Self.plain(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test("records that share a prefix, that differ inside it, with longer prefixes than kept and more prefixes than slots all hash as plainly")
    func manyPrefixes() {
        let prefixes = SHA256Prefixes(capacity: 3)
        // 5 sources (more than the 3 slots), each with a prefix of 64 to 320 bytes (past the
        // 256 kept), taken in turn so that slots are replaced and found again.
        for round in 0..<4 {
            for source in 0..<5 {
                let shared = 64 * (source + 1)
                var bytes = (0..<shared).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ source) }
                bytes += (0..<(round * 7 + 3)).map { UInt8(truncatingIfNeeded: $0 &+ round) }
                #expect(Self.resumed(bytes, reusing: shared, from: prefixes) == Self.plain(bytes), "source \(source), round \(round)")
            }
        }
        // The same length of prefix, one byte changed in it: not taken for the other.
        var first = Array(repeating: UInt8(7), count: 130)
        #expect(Self.resumed(first, reusing: 128, from: prefixes) == Self.plain(first))
        first[100] = 8
        #expect(Self.resumed(first, reusing: 128, from: prefixes) == Self.plain(first))
        // Nothing reusable, and all of it reusable.
        #expect(Self.resumed(first, reusing: 0, from: prefixes) == Self.plain(first))
        let whole = Array(first.prefix(128))
        #expect(Self.resumed(whole, reusing: 128, from: prefixes) == Self.plain(whole))
    }
}
