import Foundation
import StrideEvents
import StrideStore
import StrideTestSupport
import Testing

/// What every ``EventStore`` promises, checked on both: the LMDB store of real ledgers and the
/// in-memory one of policy tests. Two stores that pass it store the same envelopes with the
/// same hashes, so a policy tested on one holds on the other.
@Suite("The event store's contract, on LMDB and in memory")
struct EventStoreConformanceTests {
    /// The stores the suite runs on.
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case lmdb, inMemory
        var testDescription: String { rawValue }
    }

    let now = Timestamp(secondsSince1970: 1_700_000_000)

    /// Runs `body` with a fresh store of `kind` (an LMDB one in a temporary folder).
    func with(_ kind: Kind, _ body: (any EventStore) throws -> Void) throws {
        switch kind {
        case .inMemory: try body(InMemoryEventStore())
        case .lmdb: try withTemporaryDirectory { folder in try body(try LMDBEventStore(directory: folder + "/ledger")) }
        }
    }

    /// The steps of a phone, a minute each: sample `index` keyed by its identity.
    static func sample(_ index: Int) -> PendingEvent {
        let start = Timestamp(secondsSince1970: 1_700_000_000 + Int64(index) * 60)
        let payload = SampleRecorded(
            healthType: "HKQuantityTypeIdentifierStepCount", deviceClass: .phone, value: .number(Double(index)), unit: "count", start: start,
            end: start.adding(milliseconds: 60_000), created: nil, sourceName: "iPhone", sourceVersion: "17.1", device: nil, metadata: [])
        let identity = SampleIdentity.make(start: start, hash: UInt64(index))
        return PendingEvent(
            .sampleRecorded(payload), occurredAt: start, entity: EntityReference(.sample, id: identity), idempotencyKey: IdempotencyKey(identity))
    }

    func shoe(_ name: String, id: UInt128) -> PendingEvent {
        PendingEvent(
            .shoeRegistered(ShoeRegistered(shoe: id, name: name, brand: nil, startKilometers: 0, goalKilometers: 800)), occurredAt: now,
            entity: EntityReference(.shoe, id: id))
    }

    @Test("sequences run gap-free from 1 and duplicates by key are skipped, within and across batches", arguments: Kind.allCases)
    func idempotency(kind: Kind) throws {
        try with(kind) { store in
            let first = try store.append([Self.sample(1), Self.sample(2), Self.sample(1)], recordedAt: now)
            #expect(first.sequences == [1, 2, nil])
            let second = try store.append([Self.sample(2), Self.sample(3)], recordedAt: now)
            #expect(second.sequences == [nil, 3])
            #expect(try store.lastSequence() == 3)
            #expect(try store.contains(IdempotencyKey(SampleIdentity.make(start: Timestamp(secondsSince1970: 1_700_000_120), hash: 2))))
            #expect(try store.verifyChain().isIntact)
        }
    }

    @Test("a failed expectation appends nothing and says who changed", arguments: Kind.allCases)
    func expectations(kind: Kind) throws {
        try with(kind) { store in
            let pegasus = EntityReference(.shoe, id: 1)
            try store.append([shoe("Pegasus", id: 1)], recordedAt: now)
            #expect(try store.version(of: pegasus) == 1)
            #expect(throws: EventStoreError.versionConflict(entity: pegasus, expected: 0, actual: 1)) {
                try store.append([shoe("Pegasus again", id: 1)], expecting: [VersionExpectation(pegasus, version: 0)], recordedAt: now)
            }
            #expect(try store.lastSequence() == 1)
            _ = try store.append([shoe("Renamed", id: 1)], expecting: [VersionExpectation(pegasus, version: 1)], recordedAt: now)
            #expect(try store.events(about: pegasus).map(\.sequence) == [1, 2])
        }
    }

    @Test("a version 1 shoe is read as version 2, upcast with no brand and no goal", arguments: Kind.allCases)
    func upcasting(kind: Kind) throws {
        try with(kind) { store in
            let old = ShoeRegistered.Version1(name: "Clifton", startKilometers: 120)
            try store.append([PendingEvent(encoded: old.encoded, occurredAt: now, entity: EntityReference(.shoe, id: 9))], recordedAt: now)
            let event = try #require(try store.event(at: 1))
            #expect(event.storedSchemaVersion == 1)
            #expect(event.event == .shoeRegistered(ShoeRegistered.Version1(name: "Clifton", startKilometers: 120).upcast))
            guard case .shoeRegistered(let upcast) = event.event else { return }
            #expect(upcast.brand == nil)
            #expect(upcast.goalKilometers == nil)
            #expect(upcast.shoe != 0)
        }
    }

    @Test("an event type from a newer Stride is kept and shown as unrecognized", arguments: Kind.allCases)
    func unrecognized(kind: Kind) throws {
        try with(kind) { store in
            let future = EncodedPayload(typeCode: 999, schemaVersion: 1, bytes: [1, 2, 3])
            try store.append([PendingEvent(encoded: future, occurredAt: now, entity: .ledger)], recordedAt: now)
            #expect(try store.event(at: 1)?.event == .unrecognized(future))
            #expect(try store.verifyChain().isIntact)
        }
    }

    @Test("the same batch gives the same chain hashes on both stores")
    func sameHashes() throws {
        var hashes: [[UInt8]] = []
        for kind in Kind.allCases {
            try with(kind) { store in
                try store.append((1...5).map(Self.sample) + [shoe("Pegasus", id: 1)], recordedAt: now)
                var stored: [UInt8] = []
                try store.storedEvents(from: 1, through: .max) { event in
                    stored += event.bytes
                    return true
                }
                hashes.append(stored)
            }
        }
        #expect(hashes.count == 2 && hashes[0] == hashes[1])
    }

    @Test("verification names the first damaged event (in memory; the LMDB store's damage is CorruptionTests')")
    func damage() throws {
        let store = InMemoryEventStore()
        try store.append((1...5).map(Self.sample), recordedAt: now)
        store.corrupt(sequence: 3) { $0[$0.count - 40] ^= 1 }
        let result = try store.verifyChain()
        #expect(result.logFault?.sequence == 3)
        #expect(result.checkedEvents == 2)
    }
}
