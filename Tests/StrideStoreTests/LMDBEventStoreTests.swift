import Foundation
import StrideEvents
import StrideTestSupport
import Testing

@testable import StrideStore

@Suite("The LMDB event log")
struct LMDBEventStoreTests {
    let now = Timestamp(secondsSince1970: 1_700_000_000)

    static func sample(_ index: Int, source: String = "iPhone") -> PendingEvent {
        let start = Timestamp(secondsSince1970: 1_700_000_000 + Int64(index) * 60)
        let payload = SampleRecorded(
            healthType: "HKQuantityTypeIdentifierStepCount", deviceClass: .phone, value: .number(Double(index)), unit: "count",
            start: start, end: start.adding(milliseconds: 60_000), created: nil, sourceName: source, sourceVersion: nil,
            device: nil, metadata: [])
        let identity = SampleIdentity.make(start: start, hash: UInt64(index))
        return PendingEvent(
            .sampleRecorded(payload), occurredAt: start, entity: EntityReference(.sample, id: identity),
            idempotencyKey: IdempotencyKey(identity))
    }

    func shoe(_ name: String, id: UInt128) -> PendingEvent {
        PendingEvent(
            .shoeRegistered(ShoeRegistered(shoe: id, name: name, brand: "Nike", startKilometers: 10, goalKilometers: 800)),
            occurredAt: now, entity: EntityReference(.shoe, id: id))
    }

    @Test("the ledger directory is 0700 and its files 0600: this is health data")
    func permissions() throws {
        try withTemporaryDirectory { folder in
            let path = folder + "/ledger"
            let store = try LMDBEventStore(directory: path)
            try store.append([Self.sample(1)], recordedAt: now)
            let manager = FileManager.default
            let directoryMode = try manager.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            #expect(directoryMode == 0o700)
            for file in ["data.mdb", "lock.mdb"] {
                let mode = try manager.attributesOfItem(atPath: path + "/" + file)[.posixPermissions] as? Int
                #expect(mode == 0o600, "\(file)")
            }
        }
    }

    @Test("space reserved ahead of an ingest's commits is on disk while it runs and given back after, the log intact")
    func reservedSpace() throws {
        try withTemporaryDirectory { folder in
            let path = folder + "/ledger"
            let store = try LMDBEventStore(directory: path)
            try store.append((1...100).map { Self.sample($0) }, recordedAt: now)
            func usage() throws -> (size: Int, allocated: Int) {
                var status = stat()
                guard stat(path + "/data.mdb", &status) == 0 else { throw CocoaError(.fileReadNoSuchFile) }
                return (Int(status.st_size), Int(status.st_blocks) * 512)
            }
            let before = try usage()
            if store.reserveSpace(ahead: 8 << 20) {
                let reserved = try usage()
                #expect(reserved.size == before.size, "the file's size is unchanged")
                #expect(reserved.allocated >= before.size + (8 << 20))
            } else {
                print("Skipped the reservation's checks: the file system under \(folder) cannot reserve space (fallocate).")
            }
            try store.append((101...3_000).map { Self.sample($0) }, recordedAt: now)
            try store.releaseReservedSpace()
            let after = try usage()
            #expect(after.size > before.size)
            #expect(after.allocated < after.size + (64 << 10), "no more than the file's own blocks are kept")
            #expect(try store.lastSequence() == 3_000)
            #expect(try store.verify().isIntact)
        }
    }

    /// The resident kilobytes of this process's mappings of `file`, from /proc/self/smaps.
    static func residentKilobytes(mapping file: String) throws -> Int {
        // Foundation reads only the first page of a /proc file: read it line by line.
        guard let smaps = fopen("/proc/self/smaps", "r") else { throw CocoaError(.fileReadUnknown) }
        defer { fclose(smaps) }
        var lines: [String] = []
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        while getline(&buffer, &capacity, smaps) > 0, let buffer {
            lines.append(String(cString: buffer).trimmingCharacters(in: .newlines))
        }
        var total = 0
        var inFile = false
        for line in lines {
            if let first = line.first, first.isHexDigit, line.contains("-"), line.split(separator: " ").count >= 5 {
                inFile = line.hasSuffix(file)
            } else if inFile, line.hasPrefix("Rss:") {
                total += Int(line.split(separator: " ")[1]) ?? 0
            }
        }
        return total
    }

    @Test("letting go of the mapped pages frees resident memory and loses nothing")
    func releaseMappedPages() throws {
        try withTemporaryDirectory { folder in
            let store = try LMDBEventStore(directory: folder + "/ledger")
            try store.append((0..<20_000).map { Self.sample($0, source: String(repeating: "x", count: 200)) }, recordedAt: now)
            let file = try #require(
                realpath(folder + "/ledger/data.mdb", nil).map { pointer in
                    defer { free(pointer) }
                    return String(cString: pointer)
                })
            var before = 0
            try store.scan(from: 1) { _ in true }
            before = try Self.residentKilobytes(mapping: file)
            #expect(before > 1_000)

            store.releaseMappedPages()

            #expect(try Self.residentKilobytes(mapping: file) < before / 10)
            var count = 0
            try store.scan(from: 1) { _ in
                count += 1
                return true
            }
            #expect(count == 20_000)
            #expect(try store.verify().isIntact)
        }
    }

    @Test("appends past the initial map size grow the map instead of failing")
    func mapGrows() throws {
        try withTemporaryDirectory { folder in
            let store = try LMDBEventStore(directory: folder + "/ledger", initialMapSize: 1 << 20)
            let initial = store.mapSize
            for batch in 0..<20 {
                try store.append((0..<1000).map { Self.sample(batch * 1000 + $0, source: String(repeating: "x", count: 200)) }, recordedAt: now)
            }
            #expect(try store.lastSequence() == 20_000)
            #expect(store.fileSize > initial)
            #expect(store.mapSize > initial)
            #expect(try store.verify().isIntact)
        }
    }

    @Test("duplicates by idempotency key are skipped and reads by type and entity find their events")
    func reads() throws {
        try withTemporaryDirectory { folder in
            let store = try LMDBEventStore(directory: folder + "/ledger")
            try store.append([Self.sample(1), Self.sample(2), shoe("Pegasus", id: 7), Self.sample(3)], recordedAt: now)
            let again = try store.append([Self.sample(2), Self.sample(4), shoe("Pegasus renamed", id: 7)], recordedAt: now)
            #expect(again.sequences == [nil, 5, 6])
            #expect(try store.events(ofType: .shoeRegistered, from: 1, limit: 10).map(\.sequence) == [3, 6])
            #expect(try store.events(ofType: .sampleRecorded, from: 2, limit: 3).map(\.sequence) == [2, 4, 5])
            #expect(try store.countsByType() == [EventType.sampleRecorded.code: 4, EventType.shoeRegistered.code: 2])
            let pegasus = EntityReference(.shoe, id: 7)
            #expect(try store.events(about: pegasus).map(\.sequence) == [3, 6])
            #expect(try store.version(of: pegasus) == 2)
            let firstSample = try #require(Self.sample(1).idempotencyKey)
            #expect(try store.events(about: EntityReference(.sample, id: firstSample.value)).map(\.sequence) == [1])
            #expect(try store.contains(firstSample))
            #expect(try store.verify().isIntact)
        }
    }

    @Test("a failed expectation appends nothing")
    func expectation() throws {
        try withTemporaryDirectory { folder in
            let store = try LMDBEventStore(directory: folder + "/ledger")
            let pegasus = EntityReference(.shoe, id: 7)
            try store.append([shoe("Pegasus", id: 7)], recordedAt: now)
            #expect(throws: EventStoreError.versionConflict(entity: pegasus, expected: 0, actual: 1)) {
                try store.append([shoe("Twice", id: 7), Self.sample(1)], expecting: [VersionExpectation(pegasus, version: 0)], recordedAt: now)
            }
            #expect(try store.lastSequence() == 1)
        }
    }

    @Test("verify names the event whose stored bytes were flipped on disk")
    func flippedByteOnDisk() throws {
        try withTemporaryDirectory { folder in
            let path = folder + "/ledger"
            do {
                let store = try LMDBEventStore(directory: path)
                try store.append((1...10).map { Self.sample($0) }, recordedAt: now)
                try store.append([shoe("MARKER-DAMAGE-ME", id: 3)], recordedAt: now)
                try store.append((11...20).map { Self.sample($0) }, recordedAt: now)
                #expect(try store.verify().isIntact)
            }
            var data = try Data(contentsOf: URL(fileURLWithPath: path + "/data.mdb"))
            let marker = Data("MARKER-DAMAGE-ME".utf8)
            var flipped = 0
            var searchFrom = data.startIndex
            while let range = data.range(of: marker, in: searchFrom..<data.endIndex) {
                data[range.lowerBound + 7] ^= 0x01
                flipped += 1
                searchFrom = range.upperBound
            }
            try #require(flipped > 0)
            try data.write(to: URL(fileURLWithPath: path + "/data.mdb"))
            let reopened = try LMDBEventStore(directory: path)
            let result = try reopened.verify()
            #expect(result.logFault?.sequence == 11)
            #expect(result.checkedEvents == 10)
        }
    }

    @Test("restoring stored events reproduces the log hash for hash, and refuses one that does not follow")
    func restore() throws {
        try withTemporaryDirectory { folder in
            let original = try LMDBEventStore(directory: folder + "/original")
            try original.append((1...50).map { Self.sample($0) }, recordedAt: now)
            try original.append([shoe("Pegasus", id: 7)], recordedAt: now)
            var stored: [StoredEvent] = []
            try original.storedEvents(from: 1, through: .max) {
                stored.append($0); return true
            }
            let copy = try LMDBEventStore(directory: folder + "/copy")
            try copy.restore(Array(stored[0..<20]))
            try copy.restore(Array(stored[20...]))
            #expect(try copy.head() == original.head())
            #expect(try copy.verify().isIntact)
            #expect(try copy.events(about: EntityReference(.shoe, id: 7)).count == 1)
            #expect(throws: EventLogFault.self) { try copy.restore([stored[3]]) }
        }
    }

    @Test("two processes appending at once lose nothing and leave no gap")
    func concurrentWriters() throws {
        try withTemporaryDirectory { folder in
            let path = folder + "/ledger"
            _ = try LMDBEventStore(directory: path)
            let writer = builtExecutable("ledger-writer")
            try #require(FileManager.default.isExecutableFile(atPath: writer), "ledger-writer is built beside the tests")
            let processes = try (1...2).map { prefix -> Process in
                let process = Process()
                process.executableURL = URL(fileURLWithPath: writer)
                process.arguments = [path, String(prefix), "3000", String(prefix * 7)]
                try process.run()
                return process
            }
            processes.forEach { $0.waitUntilExit() }
            #expect(processes.map(\.terminationStatus) == [0, 0])
            let store = try LMDBEventStore(directory: path)
            #expect(try store.lastSequence() == 6000)
            let result = try store.verify()
            #expect(result.isIntact)
            #expect(result.checkedEvents == 6000)
            var perWriter: [String: Int] = [:]
            try store.scan { event in
                if case .sampleRecorded(let sample) = event.event { perWriter[sample.sourceName, default: 0] += 1 }
                return true
            }
            #expect(perWriter == ["writer 1": 3000, "writer 2": 3000])
        }
    }
}
