import Foundation
import StrideEvents
import StrideProjection
import StrideTestSupport
import Testing

@testable import StrideStore

/// A projection for engine tests: events per type, and the sequences it saw (to catch an
/// event folded twice).
struct CountingProjection: Projection {
    var name = "counting"
    var version: UInt32 = 1
    /// Whether an event out of order stops the process (off where a test counts them instead).
    var stopsOnRepeats = true
    /// Version 2 counts each event twice: a rule change that must rebuild.
    var weight: UInt64 { version == 1 ? 1 : 2 }

    func apply(_ event: ProjectionEvent, to rows: inout ProjectionRows<String, UInt64>) {
        let type: String
        switch event.content {
        case .sample: type = "sample"
        case .event(let other): type = other.typeName
        }
        rows.update(type, creating: { 0 }) { $0 += weight }
        rows.update("last", creating: { 0 }) { last in
            // Sequences must arrive in order, each once.
            if stopsOnRepeats { precondition(event.sequence > last, "event \(event.sequence) folded after \(last)") }
            last = event.sequence
        }
    }

    func encode(key: String) -> [UInt8] { Array(key.utf8) }
    func decodeKey(_ bytes: UnsafeRawBufferPointer) throws -> String { String(decoding: bytes, as: UTF8.self) }
    func encode(row: UInt64, into writer: inout BinaryWriter) { writer.write(varint: row) }
    func decodeRow(_ bytes: UnsafeRawBufferPointer) throws -> UInt64 {
        var reader = BinaryReader(bytes)
        return try reader.readVarint()
    }
}

/// A projection keeping, per event, what it saw of it: a sample's facts field by field, or
/// another event's type.
struct SeenProjection: Projection {
    var name = "seen"
    var version: UInt32 = 1

    func apply(_ event: ProjectionEvent, to rows: inout ProjectionRows<UInt64, String>) {
        let seen: String
        switch event.content {
        case .sample(let facts):
            seen = [
                facts.healthType, String(facts.typeCode), "\(facts.deviceClass)", "\(facts.value)", facts.unit ?? "-",
                "\(facts.start)", "\(facts.end)", facts.syncVersion.map(String.init) ?? "-",
                "\(event.recordedAt)", "\(event.occurredAt)", "\(event.entity)",
            ].joined(separator: " ")
        case .event(let other): seen = other.typeName + " \(event.entity)"
        }
        rows.update(event.sequence, creating: { "" }) { $0 = seen }
    }

    func encode(key: UInt64) -> [UInt8] { withUnsafeBytes(of: key.bigEndian) { Array($0) } }
    func decodeKey(_ bytes: UnsafeRawBufferPointer) throws -> UInt64 { UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self)) }
    func encode(row: String, into writer: inout BinaryWriter) { writer.write(row) }
    func decodeRow(_ bytes: UnsafeRawBufferPointer) throws -> String {
        var reader = BinaryReader(bytes)
        return try reader.readString()
    }
}

@Suite("The projection engine over LMDB")
struct ProjectionEngineTests {
    let now = Timestamp(secondsSince1970: 1_700_000_000)

    func rows(_ store: LMDBEventStore, _ name: String = "counting") throws -> [String: UInt64] {
        Dictionary(
            uniqueKeysWithValues: try store.storedRows(of: name).map { entry in
                (String(decoding: entry.key, as: UTF8.self), try entry.row.withUnsafeBytes { try CountingProjection().decodeRow($0) })
            })
    }

    @Test("catching up folds each event exactly once, in rounds, with rows and checkpoint stored together")
    func exactlyOnce() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let store = try LMDBEventStore(directory: folder + "/ledger")
            try store.append((1...250).map { LMDBEventStoreTests.sample($0) }, recordedAt: now)
            #expect(try store.catchUp([CountingProjection()], roundSize: 100) == 250)
            #expect(try store.catchUp([CountingProjection()], roundSize: 100) == 0)
            try store.append((251...260).map { LMDBEventStoreTests.sample($0) }, recordedAt: now)
            #expect(try store.catchUp([CountingProjection()]) == 10)
            #expect(try rows(store) == ["sample": 260, "last": 260])
            #expect(try store.projectionCheckpoints()["counting"] == ProjectionCheckpoint(version: 1, sequence: 260))
        }
    }

    @Test("the stored state equals a rebuild in memory, byte for byte, however the catch-ups were cut")
    func incrementalEqualsRebuild() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let store = try LMDBEventStore(directory: folder + "/ledger")
            for chunk in stride(from: 1, to: 300, by: 37) {
                try store.append((chunk..<chunk + 37).map { LMDBEventStoreTests.sample($0) }, recordedAt: now)
                try store.catchUp([CountingProjection()], roundSize: 13)
            }
            let stored = try store.storedDigest(of: "counting")
            let rebuilt = try store.replay([CountingProjection()], through: .max)
            #expect(ProjectionDigest.of(rebuilt[0].encodedRows()) == stored.digest)
        }
    }

    @Test("a long fold, decoded ahead on a second thread, folds every event once and in order, and stops at a damaged one")
    func readAhead() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let store = try LMDBEventStore(directory: folder + "/ledger")
            let count = Int(LMDBEventStore.readAheadThreshold) * 3 + 7
            for first in stride(from: 1, through: count, by: 10_000) {
                try store.append((first...min(first + 9_999, count)).map { LMDBEventStoreTests.sample($0) }, recordedAt: now)
            }
            #expect(try store.catchUp([CountingProjection()]) == UInt64(count))
            #expect(try rows(store) == ["sample": UInt64(count), "last": UInt64(count)])
            let replayed = try store.replay([CountingProjection()], through: UInt64(count - 3))
            let replayedSamples = try replayed[0].encodedRows().first { $0.key == Array("sample".utf8) }.map { entry in
                try entry.row.withUnsafeBytes { try CountingProjection().decodeRow($0) }
            }
            #expect(replayedSamples == UInt64(count - 3))

            let damaged = UInt64(count - 100)
            try store.environment.write { transaction in
                guard var bytes = try transaction.value(in: store.eventsDatabase, forKey: damaged, { Array($0) }) else { return }
                bytes[bytes.count - 45] ^= 0x10
                try withUnsafeBytes(of: damaged) { key in
                    try bytes.withUnsafeBytes { _ = try transaction.put($0, forKey: key, in: store.eventsDatabase) }
                }
            }
            let fault = #expect(throws: EventLogFault.self) { _ = try store.replay([CountingProjection()], through: .max) }
            #expect(fault?.sequence == damaged)
            try store.resetProjection(named: "counting")
            let rebuildFault = #expect(throws: EventLogFault.self) { try store.catchUp([CountingProjection()], roundSize: .max) }
            #expect(rebuildFault?.sequence == damaged)
            // Nothing of the failed round is kept.
            #expect(try rows(store).isEmpty)
            #expect(try store.projectionCheckpoints()["counting"] == nil)
        }
    }

    @Test("an append folding its events from memory (samples as their facts) stores what folding the stored events does")
    func foldFromFacts() throws {
        try withTemporaryDirectory { (folder: String) throws in
            // Samples, one of them twice (the second is a duplicate, not appended), and a shoe.
            var events = (1...40).map { LMDBEventStoreTests.sample($0, source: $0 % 2 == 0 ? "Watch" : "iPhone") }
            events.append(LMDBEventStoreTests.sample(7))
            events.append(
                PendingEvent(
                    .shoeRegistered(ShoeRegistered(shoe: 9, name: "Pegasus", brand: "Nike", startKilometers: 0, goalKilometers: 800)),
                    occurredAt: now, entity: EntityReference(.shoe, id: 9)))
            let fromFacts = try LMDBEventStore(directory: folder + "/memory")
            _ = try fromFacts.append([LMDBEventStoreTests.sample(100)], expecting: [], recordedAt: now, projections: [SeenProjection()])
            let outcome = try fromFacts.append(events, expecting: [], recordedAt: now, projections: [SeenProjection()])
            #expect(outcome.sequences.compactMap { $0 }.count == 41)
            let stored = try fromFacts.storedRows(of: "seen").map { try $0.row.withUnsafeBytes { try SeenProjection().decodeRow($0) } }
            #expect(stored.count == 42)
            #expect(stored.last?.hasPrefix("shoe.registered") == true)
            let rebuilt = try fromFacts.replay([SeenProjection()], through: .max)
            #expect(ProjectionDigest.of(rebuilt[0].encodedRows()) == (try fromFacts.storedDigest(of: "seen").digest))
        }
    }

    @Test("a changed version rebuilds the projection from sequence 1 by itself")
    func versionChange() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let store = try LMDBEventStore(directory: folder + "/ledger")
            try store.append((1...20).map { LMDBEventStoreTests.sample($0) }, recordedAt: now)
            try store.catchUp([CountingProjection()])
            #expect(try rows(store)["sample"] == 20)
            try store.catchUp([CountingProjection(version: 2)])
            #expect(try rows(store)["sample"] == 40)
            #expect(try store.projectionCheckpoints()["counting"]?.version == 2)
        }
    }

    @Test("a projection whose version changed catches up in rounds beside others already current, which keep their rows and checkpoints")
    func versionChangeBesideCurrent() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let store = try LMDBEventStore(directory: folder + "/ledger")
            try store.append((1...250).map { LMDBEventStoreTests.sample($0) }, recordedAt: now)
            let current = CountingProjection(name: "current", stopsOnRepeats: false)
            try store.catchUp([current, CountingProjection()])
            // The upgrade of a ledger longer than a round: "counting" starts again from 1, in
            // rounds of 100, while "current" is already at 250. Writing the round's end over
            // its checkpoint folded events 101–250 into it again: 400 samples.
            try store.catchUp([current, CountingProjection(version: 2)], roundSize: 100)
            #expect(try rows(store, "current")["sample"] == 250)
            #expect(try rows(store)["sample"] == 500)
            let checkpoints = try store.projectionCheckpoints()
            #expect(checkpoints["current"]?.sequence == 250 && checkpoints["counting"]?.sequence == 250)
            #expect(checkpoints["counting"]?.version == 2)
            let replayed = try store.replay([current], through: .max)
            #expect(ProjectionDigest.of(replayed[0].encodedRows()) == (try store.storedDigest(of: "current").digest))
        }
    }

    @Test("replay computes in memory and changes nothing stored")
    func replayTouchesNothing() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let store = try LMDBEventStore(directory: folder + "/ledger")
            try store.append((1...20).map { LMDBEventStoreTests.sample($0) }, recordedAt: now)
            try store.catchUp([CountingProjection()])
            let before = try store.storedDigest(of: "counting")
            let runs = try store.replay([CountingProjection()], through: 5)
            let replayed = Dictionary(uniqueKeysWithValues: runs[0].encodedRows().map { (String(decoding: $0.key, as: UTF8.self), $0.row) })
            #expect(replayed["sample"] == [5])
            #expect(try store.storedDigest(of: "counting").digest == before.digest)
            #expect(try store.projectionCheckpoints()["counting"]?.sequence == 20)
        }
    }

    @Test("a damaged stored row shows as a digest mismatch, and a rebuild repairs it")
    func damagedRow() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let store = try LMDBEventStore(directory: folder + "/ledger")
            try store.append((1...20).map { LMDBEventStoreTests.sample($0) }, recordedAt: now)
            try store.catchUp([CountingProjection()])
            let database = try store.rowsDatabase("counting")
            try store.environment.write { try $0.put([99], forKey: Array("sample".utf8), in: database) }
            let damaged = try store.storedDigest(of: "counting").digest
            let rebuilt = ProjectionDigest.of(try store.replay([CountingProjection()], through: 20)[0].encodedRows())
            #expect(damaged != rebuilt)
            try store.resetProjection(named: "counting")
            try store.catchUp([CountingProjection()])
            #expect(try store.storedDigest(of: "counting").digest == rebuilt)
        }
    }
}

/// A reaction with a defect: it answers every journal entry with another one, for ever.
struct EchoingReaction: LedgerReaction {
    var answeredTypes: Set<EventType> { [.journalEntryAdded] }

    func react(to appended: [ProjectionEvent], state: any ProjectionStateReader) throws -> [PendingEvent] {
        appended.map { event in
            PendingEvent(
                .journalEntryAdded(JournalEntryAdded(text: "echo of \(event.sequence)", day: CivilDate(year: 2024, month: 5, day: 1))),
                occurredAt: event.occurredAt, entity: .journal)
        }
    }
}

@Suite("Reactions that do not settle")
struct UnsettledReactionTests {
    @Test("a reaction that keeps answering fails the append loudly, and nothing of it is committed")
    func failsLoudly() throws {
        try withTemporaryDirectory { folder in
            let store = try LMDBEventStore(directory: folder + "/ledger")
            let now = Timestamp(secondsSince1970: 1_700_000_000)
            let entry = PendingEvent(
                .journalEntryAdded(JournalEntryAdded(text: "tempo", day: CivilDate(year: 2024, month: 5, day: 1))), occurredAt: now,
                entity: .journal)
            #expect(throws: ReactionsUnsettled.self) {
                try store.append([entry], expecting: [], recordedAt: now, projections: [CountingProjection()], reactions: [EchoingReaction()])
            }
            #expect(try store.lastSequence() == 0)
            #expect(try store.verify().isIntact)
        }
    }
}
