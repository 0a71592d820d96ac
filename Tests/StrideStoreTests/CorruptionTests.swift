import Foundation
import StrideEvents
import StrideProjection
import StrideTestSupport
import Testing

@testable import StrideStore

/// Damage to what Stride stores — events, each index, projection rows — is found and named.
@Suite("Damage is detected and named")
struct CorruptionTests {
    let now = Timestamp(secondsSince1970: 1_700_000_000)

    func ledgerWithEvents(_ folder: String) throws -> LMDBEventStore {
        let store = try LMDBEventStore(directory: folder + "/ledger")
        try store.append((1...10).map { LMDBEventStoreTests.sample($0) }, recordedAt: now)
        try store.append([LMDBEventStoreTests().shoe("Pegasus", id: 7), LMDBEventStoreTests().shoe("Novablast", id: 8)], recordedAt: now)
        try store.append((11...20).map { LMDBEventStoreTests.sample($0) }, recordedAt: now)
        #expect(try store.verify().isIntact)
        return store
    }

    @Test("a wrong idempotency-index entry is named")
    func keysIndex() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let store = try ledgerWithEvents(folder)
            let key = try #require(LMDBEventStoreTests.sample(3).idempotencyKey)
            try store.environment.write { transaction in
                try withUnsafeBytes(of: key.value.bigEndian) { keyBytes in
                    try KeyEntry(sequence: 9, entityKind: 1, isSelfKeyed: true).withBytes {
                        _ = try transaction.put($0, forKey: keyBytes, in: store.keysDatabase)
                    }
                }
            }
            let faults = try store.verify().indexFaults
            #expect(faults.contains { $0.contains("idempotency index does not point key \(key) at event 3") })
        }
    }

    @Test("the short-id index: an entity it lacks and one no event is about are named; a fresh index passes")
    func shortIDsIndex() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let store = try ledgerWithEvents(folder)
            let third = EntityReference(.sample, id: try #require(LMDBEventStoreTests.sample(3).idempotencyKey).value)
            #expect(try store.entities(of: .sample, shortIDPrefix: third.shortID, limit: 6) == [third])
            #expect(try store.verify().isIntact)
            let stranger = EntityReference(.sample, id: 0xABCD)
            try store.environment.write { transaction in
                _ = try LMDBEventStore.withShortIDKey(third) { try transaction.delete(key: $0, in: store.shortIDsDatabase) }
                try LMDBEventStore.withShortIDKey(stranger) { key in
                    try withUnsafeBytes(of: UInt8(0)) {
                        _ = try transaction.put(UnsafeRawBufferPointer(rebasing: $0[0..<0]), forKey: key, in: store.shortIDsDatabase)
                    }
                }
            }
            let faults = try store.verify().indexFaults
            #expect(faults.contains { $0.contains("the short-id index lacks \(third) of event 3") }, "\(faults)")
            #expect(faults.contains { $0.contains("the short-id index names \(stranger)") }, "\(faults)")
        }
    }

    @Test("a missing entity-index entry is named")
    func entityIndex() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let store = try ledgerWithEvents(folder)
            try store.environment.write { transaction in
                _ = try LMDBEventStore.withEntityKey(EntityReference(.shoe, id: 8)) { try transaction.delete(key: $0, in: store.entitiesDatabase) }
            }
            let faults = try store.verify().indexFaults
            #expect(faults.contains { $0.contains("entity index lacks event 12") })
        }
    }

    @Test("a damaged type-index run is named by the event it starts at")
    func typeIndex() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let store = try ledgerWithEvents(folder)
            try store.environment.write { transaction in
                try withUnsafeBytes(of: UInt64(11)) { key in
                    _ = try withUnsafeBytes(of: EventType.sampleRecorded.code) { try transaction.put($0, forKey: key, in: store.typeRunsDatabase) }
                }
            }
            let faults = try store.verify().indexFaults
            #expect(faults.contains { $0.contains("type index does not match the log from event 11") })
        }
    }

    @Test("an index entry for no event is counted")
    func strayKey() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let store = try ledgerWithEvents(folder)
            try store.environment.write { transaction in
                try withUnsafeBytes(of: UInt128(42).bigEndian) { keyBytes in
                    try KeyEntry(sequence: 99, entityKind: 1, isSelfKeyed: true).withBytes {
                        _ = try transaction.put($0, forKey: keyBytes, in: store.keysDatabase)
                    }
                }
            }
            #expect(try store.verify().indexFaults.contains { $0.contains("holds 21 keys for 20 keyed events") })
        }
    }

    @Test("a damaged event is reported by every read, never skipped or read as something else")
    func damagedEventOnRead() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let store = try ledgerWithEvents(folder)
            try store.environment.write { transaction in
                guard var bytes = try transaction.value(in: store.eventsDatabase, forKey: UInt64(5), { Array($0) }) else { return }
                bytes[bytes.count - 45] ^= 0x10
                try withUnsafeBytes(of: UInt64(5)) { key in
                    try bytes.withUnsafeBytes { _ = try transaction.put($0, forKey: key, in: store.eventsDatabase) }
                }
            }
            #expect(try store.verify().logFault?.sequence == 5)
            #expect(throws: EventLogFault.self) { try store.scan { _ in true } }
            #expect(throws: EventLogFault.self) { _ = try store.replay([CountingProjection()], through: .max) }
            #expect(throws: EventLogFault.self) { try store.catchUp([CountingProjection()]) }
            #expect(try store.event(at: 4) != nil)
        }
    }
}
