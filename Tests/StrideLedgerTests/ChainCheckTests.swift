import Foundation
import StrideEvents
import StrideTestSupport
import Testing

@testable import StrideLedger

@Suite("Checking a stretch of the chain")
struct ChainCheckTests {
    @Test("a page of events checks out against the stored chain; a byte flipped on disk is named at its event, and its neighbour before still holds")
    func stretch() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let path = folder + "/ledger"
            var damaged: UInt64 = 0
            var hashes: [UInt64: ChainHash] = [:]
            do {
                let ledger = try Ledger.create(at: path, timeZone: "Europe/Paris", clock: FixedClock(Timestamp(secondsSince1970: 1_717_243_200)))
                for index in 0..<5 { _ = try ledger.addJournalEntry("entry \(index)", at: nil) }
                _ = try ledger.registerShoe(
                    name: "MARKER-DAMAGE-ME", brand: nil, startKilometers: 0, goalKilometers: nil, makeDefault: false, at: nil)
                damaged = try ledger.store.lastSequence()
                for index in 5..<8 { _ = try ledger.addJournalEntry("entry \(index)", at: nil) }
                let last = try ledger.store.lastSequence()
                let checks = try ledger.checkChain(at: Array(2...last))
                for (sequence, check) in checks {
                    guard case .verified(let hash) = check else {
                        Issue.record("event \(sequence): \(check)")
                        continue
                    }
                    hashes[sequence] = hash
                }
                try ledger.store.storedEvents(from: 2, through: .max) { stored in
                    #expect(stored.bytes.withUnsafeBytes { try? Envelope(parsing: $0).chainHash } == hashes[stored.sequence])
                    return true
                }
            }
            var data = try Data(contentsOf: URL(fileURLWithPath: path + "/data.mdb"))
            let marker = Data("MARKER-DAMAGE-ME".utf8)
            var searchFrom = data.startIndex
            while let range = data.range(of: marker, in: searchFrom..<data.endIndex) {
                data[range.lowerBound + 7] ^= 0x01
                searchFrom = range.upperBound
            }
            try data.write(to: URL(fileURLWithPath: path + "/data.mdb"))
            let reopened = try Ledger.open(at: path, clock: FixedClock(Timestamp(secondsSince1970: 1_717_243_200)))
            let checks = try reopened.checkChain(at: [damaged - 1, damaged])
            #expect(checks[damaged - 1] == .verified(try #require(hashes[damaged - 1])))
            guard case .fault? = checks[damaged] else {
                Issue.record("the flipped event is named: \(String(describing: checks[damaged]))")
                return
            }
        }
    }
}
