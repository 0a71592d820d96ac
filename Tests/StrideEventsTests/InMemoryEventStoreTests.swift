import Testing

@testable import StrideEvents

@Suite("The in-memory event store")
struct InMemoryEventStoreTests {
    let now = Timestamp(secondsSince1970: 1_700_000_000)

    func shoe(_ name: String, id: UInt128) -> PendingEvent {
        PendingEvent(
            .shoeRegistered(ShoeRegistered(shoe: id, name: name, brand: nil, startKilometers: 0, goalKilometers: 800)), occurredAt: now,
            entity: EntityReference(.shoe, id: id))
    }

    @Test("sequences run gap-free from 1 and duplicates by key are skipped, within and across batches")
    func idempotency() throws {
        let store = InMemoryEventStore()
        let first = try store.append([EnvelopeTests.sample(1), EnvelopeTests.sample(2), EnvelopeTests.sample(1)], recordedAt: now)
        #expect(first.sequences == [1, 2, nil])
        let second = try store.append([EnvelopeTests.sample(2), EnvelopeTests.sample(3)], recordedAt: now)
        #expect(second.sequences == [nil, 3])
        #expect(try store.lastSequence() == 3)
        #expect(try store.verifyChain().isIntact)
    }

    @Test("a failed expectation appends nothing and says who changed")
    func expectations() throws {
        let store = InMemoryEventStore()
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

    @Test("a version 1 shoe is read as version 2, upcast with no brand and no goal")
    func upcasting() throws {
        let store = InMemoryEventStore()
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

    @Test("an event type from a newer Stride is kept and shown as unrecognized")
    func unrecognized() throws {
        let store = InMemoryEventStore()
        let future = EncodedPayload(typeCode: 999, schemaVersion: 1, bytes: [1, 2, 3])
        try store.append([PendingEvent(encoded: future, occurredAt: now, entity: .ledger)], recordedAt: now)
        #expect(try store.event(at: 1)?.event == .unrecognized(future))
        #expect(try store.verifyChain().isIntact)
    }

    @Test("verification names the first damaged event")
    func damage() throws {
        let store = InMemoryEventStore()
        try store.append((1...5).map(EnvelopeTests.sample), recordedAt: now)
        store.corrupt(sequence: 3) { $0[$0.count - 40] ^= 1 }
        let result = try store.verifyChain()
        #expect(result.logFault?.sequence == 3)
        #expect(result.checkedEvents == 2)
    }
}
