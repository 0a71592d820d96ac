import Foundation
import StrideEvents
import StrideTestSupport
import Testing

@testable import StrideLedger

@Suite("Opening, creating and copying a ledger")
struct LedgerTests {
    let clock = FixedClock(Timestamp(secondsSince1970: 1_714_543_200))

    func shoe(_ name: String, id: UInt128) -> PendingEvent {
        PendingEvent(
            .shoeRegistered(ShoeRegistered(shoe: id, name: name, brand: nil, startKilometers: 0, goalKilometers: nil)),
            occurredAt: clock.now(), entity: EntityReference(.shoe, id: id))
    }

    @Test("a new ledger starts with its creation event, carrying the time zone")
    func create() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Ledger.create(at: folder + "/ledger", timeZone: "Europe/Paris", clock: clock)
            #expect(ledger.timeZoneIdentifier == "Europe/Paris")
            let first = try #require(try ledger.store.event(at: 1))
            #expect(first.event == .ledgerCreated(LedgerCreated(timeZone: "Europe/Paris")))
            #expect(first.recordedAt == clock.now())
        }
    }

    @Test("init on an existing ledger is refused and changes nothing")
    func createTwice() throws {
        try withTemporaryDirectory { folder in
            _ = try Ledger.create(at: folder + "/ledger", timeZone: "Europe/Paris", clock: clock)
            #expect(throws: LedgerError.alreadyExists(path: folder + "/ledger", timeZone: "Europe/Paris")) {
                _ = try Ledger.create(at: folder + "/ledger", timeZone: "Asia/Seoul", clock: clock)
            }
            // Its creation and the first-use award.
            #expect(try Ledger.open(at: folder + "/ledger").store.lastSequence() == 2)
        }
    }

    @Test("opening a missing ledger says so; an unknown time zone is named")
    func errors() throws {
        try withTemporaryDirectory { folder in
            #expect(throws: LedgerError.notFound(path: folder + "/none")) { _ = try Ledger.open(at: folder + "/none") }
            #expect(!FileManager.default.fileExists(atPath: folder + "/none"))
            #expect(throws: LedgerError.unknownTimeZone("Mars/Olympus")) {
                _ = try Ledger.create(at: folder + "/ledger", timeZone: "Mars/Olympus", clock: clock)
            }
            _ = FileManager.default.createFile(atPath: folder + "/file", contents: Data())
            #expect(throws: LedgerError.notADirectory(path: folder + "/file")) { _ = try Ledger.create(at: folder + "/file", timeZone: nil) }
        }
    }

    @Test("export then import reproduces the ledger hash for hash, in a file of mode 0600")
    func exportImport() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Ledger.create(at: folder + "/ledger", timeZone: "Europe/Paris", clock: clock)
            try ledger.store.append((1...30).map { shoe("Shoe \($0)", id: UInt128($0)) }, recordedAt: clock.now())
            #expect(try ledger.export(to: folder + "/out.ndjson") == 32)
            let mode = try FileManager.default.attributesOfItem(atPath: folder + "/out.ndjson")[.posixPermissions] as? Int
            #expect(mode == 0o600)
            #expect(throws: LedgerError.fileExists(path: folder + "/out.ndjson")) { try ledger.export(to: folder + "/out.ndjson") }
            let summary = try LedgerImport.run(file: folder + "/out.ndjson", into: folder + "/restored")
            #expect(summary.imported == 32)
            let restored = try Ledger.open(at: folder + "/restored")
            #expect(try restored.store.head() == ledger.store.head())
            #expect(restored.timeZoneIdentifier == "Europe/Paris")
            // A second run finds everything there and appends nothing.
            #expect(try LedgerImport.run(file: folder + "/out.ndjson", into: folder + "/restored").imported == 0)
        }
    }

    @Test("an import completes an interrupted one: the ledger holding a prefix of the file")
    func importResumes() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Ledger.create(at: folder + "/ledger", timeZone: "UTC", clock: clock)
            try ledger.store.append((1...10).map { shoe("Shoe \($0)", id: UInt128($0)) }, recordedAt: clock.now())
            try ledger.export(to: folder + "/all.ndjson")
            let lines = try String(contentsOfFile: folder + "/all.ndjson", encoding: .utf8).split(separator: "\n")
            try (lines.prefix(4).joined(separator: "\n") + "\n").write(toFile: folder + "/part.ndjson", atomically: true, encoding: .utf8)
            #expect(try LedgerImport.run(file: folder + "/part.ndjson", into: folder + "/restored").imported == 4)
            let rest = try LedgerImport.run(file: folder + "/all.ndjson", into: folder + "/restored")
            #expect(rest.alreadyPresent == 4)
            #expect(rest.imported == 8)
            #expect(try Ledger.open(at: folder + "/restored").store.head() == ledger.store.head())
        }
    }

    @Test("a damaged export is refused with the line and sequence at fault, and nothing is imported")
    func brokenImport() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Ledger.create(at: folder + "/ledger", timeZone: "UTC", clock: clock)
            try ledger.store.append((1...5).map { shoe("Shoe \($0)", id: UInt128($0)) }, recordedAt: clock.now())
            try ledger.export(to: folder + "/out.ndjson")
            var lines = try String(contentsOfFile: folder + "/out.ndjson", encoding: .utf8).split(separator: "\n").map(String.init)
            // Remove event 3: event 4 then no longer follows event 2.
            lines.remove(at: 2)
            try (lines.joined(separator: "\n") + "\n").write(toFile: folder + "/gap.ndjson", atomically: true, encoding: .utf8)
            #expect(
                throws: LedgerError.brokenExport(
                    path: folder + "/gap.ndjson", line: 3, sequence: 3, problem: "it is missing (the next stored event is 4)")
            ) {
                _ = try LedgerImport.run(file: folder + "/gap.ndjson", into: folder + "/restored")
            }
            #expect(!Ledger.exists(at: folder + "/restored"))
            lines = try String(contentsOfFile: folder + "/out.ndjson", encoding: .utf8).split(separator: "\n").map(String.init)
            lines[1] = "{\"sequence\": 2"
            try lines.joined(separator: "\n").write(toFile: folder + "/bad.ndjson", atomically: true, encoding: .utf8)
            #expect(throws: LedgerError.self) { _ = try LedgerImport.run(file: folder + "/bad.ndjson", into: folder + "/other") }
        }
    }

    @Test("a ledger holding other events refuses an import")
    func importConflict() throws {
        try withTemporaryDirectory { folder in
            let first = try Ledger.create(at: folder + "/first", timeZone: "UTC", clock: clock)
            try first.export(to: folder + "/first.ndjson")
            _ = try Ledger.create(at: folder + "/second", timeZone: "Asia/Seoul", clock: clock)
            #expect(throws: LedgerError.self) { _ = try LedgerImport.run(file: folder + "/first.ndjson", into: folder + "/second") }
            #expect(try Ledger.open(at: folder + "/second").store.lastSequence() == 2)
        }
    }

    @Test("a backup is a ledger with the same events; an existing target is refused")
    func backup() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Ledger.create(at: folder + "/ledger", timeZone: "UTC", clock: clock)
            try ledger.store.append((1...100).map { shoe("Shoe \($0)", id: UInt128($0)) }, recordedAt: clock.now())
            try ledger.backup(to: folder + "/copy")
            let copy = try Ledger.open(at: folder + "/copy")
            #expect(try copy.store.head() == ledger.store.head())
            #expect(try copy.verify().isIntact)
            let mode = try FileManager.default.attributesOfItem(atPath: folder + "/copy/data.mdb")[.posixPermissions] as? Int
            #expect(mode == 0o600)
            #expect(throws: LedgerError.fileExists(path: folder + "/copy")) { try ledger.backup(to: folder + "/copy") }
        }
    }

    @Test("statistics count events by type from the indexes")
    func statistics() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Ledger.create(at: folder + "/ledger", timeZone: "UTC", clock: clock)
            try ledger.store.append((1...3).map { shoe("Shoe \($0)", id: UInt128($0)) }, recordedAt: clock.now())
            let statistics = try ledger.statistics()
            #expect(statistics.events == 5)
            #expect(
                statistics.byType == [
                    NamedCount(name: "ledger.created", count: 1), NamedCount(name: "points.awarded", count: 1),
                    NamedCount(name: "shoe.registered", count: 3),
                ])
            #expect(statistics.bytes > 0)
        }
    }
}
