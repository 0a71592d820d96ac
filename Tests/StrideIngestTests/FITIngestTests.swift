import Foundation
import StrideEvents
import StrideTestSupport
import Testing
import ZIPFoundation

@testable import StrideIngest

/// FIT files (plain, gzipped, zipped) and TCX files through `stride ingest`'s reader.
@Suite("FIT and TCX ingest")
struct FITIngestTests {
    static let fitFolder = fixturesFolder().map { "\($0)/fit" } ?? ""
    static let tcxFolder = fixturesFolder().map { "\($0)/tcx" } ?? ""
    static let run = "\(fitFolder)/jimmykane__fit-parser__garmin-stamina.fit"
    static let triathlon = "\(fitFolder)/dtcooper__python-fitparse__sample_mulitple_header.fit"

    @Test("a Garmin run: its session as a running workout, the watch as its source", .enabled(if: fixturesFolder() != nil))
    func garminRun() throws {
        let result = try read(Self.run)
        #expect(result.result.format == .fit)
        let run = try #require(result.workouts.first)
        #expect(result.workouts.count == 1)
        #expect(run.activityType == "HKWorkoutActivityTypeRunning")
        #expect(run.start == ISO8601.parse("2026-05-14T04:05:59Z"))
        #expect(run.durationSeconds == 4487.819)
        #expect(run.end == ISO8601.parse("2026-05-14T05:20:46.819Z"))
        #expect(run.distanceMeters == 11232.7)
        #expect(run.energyKilocalories == 770)
        #expect(run.sourceName == "Garmin Forerunner 965")
        #expect(run.metadata("FITAverageHeartRate") == "143")
        #expect(run.metadata("FITMaximumHeartRate") == "199")
        #expect(run.metadata("FITSerialNumber") == "3448026845")
    }

    @Test("a triathlon of four chained FIT files: one workout per session", .enabled(if: fixturesFolder() != nil))
    func triathlon() throws {
        let result = try read(Self.triathlon)
        #expect(
            result.workouts.map(\.activityType) == [
                "HKWorkoutActivityTypeSwimming", "HKWorkoutActivityTypeTransition", "HKWorkoutActivityTypeCycling",
                "HKWorkoutActivityTypeTransition", "HKWorkoutActivityTypeRunning",
            ])
        // Five workouts, each with the stream of its session's records, every one its own key.
        #expect(Set(result.events.map(\.idempotencyKey)).count == 10)
        #expect(result.events.filter { $0.typeCode == EventType.workoutStreamRecorded.code }.count == 5)
    }

    @Test("the same file renamed, gzipped or zipped has the same identities", .enabled(if: fixturesFolder() != nil))
    func sameIdentity() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.triathlon))
            try bytes.write(to: URL(fileURLWithPath: folder + "/renamed.bin"))
            try Self.gzip(bytes).write(to: URL(fileURLWithPath: folder + "/tri.fit.gz"))
            try Self.zip(folder + "/export.zip", entries: [("123_ACTIVITY.fit", bytes), ("readme.txt", Data("hi".utf8))])
            let keys = try read(Self.triathlon).events.map(\.idempotencyKey)
            #expect(try read(folder + "/renamed.bin").events.map(\.idempotencyKey) == keys)
            let gzipped = try read(folder + "/tri.fit.gz")
            #expect(gzipped.result.format == .fit)
            #expect(gzipped.events.map(\.idempotencyKey) == keys)
            let zipped = try read(folder + "/export.zip")
            #expect(zipped.result.format == .fitArchive)
            #expect(zipped.events.map(\.idempotencyKey) == keys)
            #expect(zipped.result.counts.notRead["zip entries that are no FIT file"] == 1)
        }
    }

    @Test("a truncated FIT file is refused, naming the file and the byte", .enabled(if: fixturesFolder() != nil))
    func truncated() throws {
        let file = "\(Self.fitFolder)/dtcooper__python-fitparse__nick.fit"
        #expect(throws: IngestError.brokenFIT(file: file, problem: .truncated(offset: 403_456))) {
            _ = try read(file)
        }
    }

    @Test("times counted from power-on are placed by the activity's local time in the ledger's zone", .enabled(if: fixturesFolder() != nil))
    func relativeTimes() throws {
        let file = "\(Self.fitFolder)/dtcooper__python-fitparse__compressed-speed-distance.fit"
        #expect(throws: IngestError.self) { _ = try read(file) }
        let box = EventBox()
        let options = IngestOptions(timeZone: TimeZone(identifier: "Europe/Berlin"))
        _ = try IngestReader.read(file: file, options: options) { box.add($0.events) }
        let run = try #require(ReadFile(events: box.all, result: ReadResult(format: .fit, counts: ReadCounts(), bytes: 0)).workouts.first)
        // The activity ended 12:21:03 local, 3887 s after the session started: 11:16:16 in Berlin.
        #expect(run.start == ISO8601.parse("2012-02-13T11:16:16+01:00"))
        #expect(run.distanceMeters == 10248.67)
    }

    @Test("a chained file whose second part is damaged keeps the first part's sessions, then stops")
    func damagedChain() throws {
        try withTemporaryDirectory { (folder: String) throws in
            var second = Self.handBuiltRun(created: 1_000_003_600)
            second[25] ^= 0xFF
            let path = folder + "/chain.fit"
            try Data(Self.handBuiltRun(created: 1_000_000_000) + second).write(to: URL(fileURLWithPath: path))
            let box = EventBox()
            #expect(throws: IngestError.self) { _ = try IngestReader.read(file: path) { box.add($0.events) } }
            #expect(box.all.count == 1)
        }
    }

    @Test("a whole FIT file without sessions is refused by name")
    func noSession() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let path = folder + "/empty.fit"
            try Data(Self.fileWithoutSession()).write(to: URL(fileURLWithPath: path))
            #expect(throws: IngestError.self) { _ = try read(path) }
            do {
                _ = try read(path)
            } catch let error as IngestError {
                guard case .unusableFIT(let file, _) = error else { Issue.record("\(error)"); return }
                #expect(file == path)
            }
        }
    }

    @Test("a TCX run: its laps summed into one workout", .enabled(if: fixturesFolder() != nil))
    func tcx() throws {
        let result = try read("\(Self.tcxFolder)/vkurup__python-tcxparser__test.tcx")
        #expect(result.result.format == .tcx)
        let run = try #require(result.workouts.first)
        #expect(result.workouts.count == 1)
        #expect(run.activityType == "HKWorkoutActivityTypeRunning")
        #expect(run.start == ISO8601.parse("2012-12-26T21:29:53Z"))
        // The laps' times add up to 0.78 s past the last trackpoint: the later end is kept.
        #expect(run.end == ISO8601.parse("2012-12-26T22:03:05.780Z"))
        #expect(abs((run.durationSeconds ?? 0) - (608.47 + 714.80 + 669.51)) < 1e-9)
        #expect(run.energyKilocalories == 379)
        #expect(run.sourceName == "Forerunner 410 Software Version 2.20")
        #expect(run.metadata("TCXMaximumHeartRate") == "189")
        #expect(run.metadata("TCXAverageHeartRate") != nil)
        let distance = try #require(run.distanceMeters)
        #expect(distance > 4_600 && distance < 4_800)
        let noHeartRate = try read("\(Self.tcxFolder)/vkurup__python-tcxparser__no_hr.tcx")
        #expect(noHeartRate.workouts.first?.metadata("TCXAverageHeartRate") == nil)
        // The same run, heart rate removed: the same activity, so the same identity.
        #expect(noHeartRate.events.map(\.idempotencyKey) == result.events.map(\.idempotencyKey))
    }

    @Test("format detection: FIT by its signature, gzipped FIT, TCX by its root")
    func detection() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let fit = folder + "/a"
            try Data(Self.handBuiltRun(created: 1_000_000_000)).write(to: URL(fileURLWithPath: fit))
            #expect(try InputFormat.detect(file: fit) == .fit)
            try Self.gzip(Data(Self.handBuiltRun(created: 1_000_000_000))).write(to: URL(fileURLWithPath: folder + "/b"))
            #expect(try InputFormat.detect(file: folder + "/b") == .fit)
            #expect(try InputFormat.detect(file: try write("<TrainingCenterDatabase/>", named: "c", in: folder)) == .tcx)
        }
    }

    // MARK: - Building files

    /// A one-session FIT run, built by hand.
    static func handBuiltRun(created: UInt32) -> [UInt8] {
        func u16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
        func u32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }
        var records: [UInt8] = [0x40, 0, 0] + u16(0) + [2, 3, 4, 0x8C, 4, 4, 0x86]
        records += [0] + u32(99) + u32(created)
        records += [0x41, 0, 0] + u16(18) + [4, 2, 4, 0x86, 5, 1, 0, 7, 4, 0x86, 9, 4, 0x86]
        records += [1] + u32(created) + [1] + u32(1_800_000) + u32(500_000)
        return fit(records)
    }

    /// A FIT file with a file_id and nothing else.
    static func fileWithoutSession() -> [UInt8] {
        fit([0x40, 0, 0, 0, 0, 1, 3, 4, 0x8C, 0, 1, 0, 0, 0])
    }

    /// Header, records, CRC.
    static func fit(_ records: [UInt8]) -> [UInt8] {
        FITTestFile.file(records)
    }

    /// A gzip file of `data`.
    static func gzip(_ data: Data) throws -> Data {
        var deflated = Data()
        _ = try Data.compress(
            size: Int64(data.count), bufferSize: 1 << 16,
            provider: { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }, consumer: { deflated.append($0) })
        let crc = data.crc32(checksum: 0)
        let size = UInt32(truncatingIfNeeded: data.count)
        var gzip = Data([0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3])
        gzip.append(deflated)
        gzip.append(contentsOf: (0..<4).map { UInt8((crc >> (8 * $0)) & 0xFF) })
        gzip.append(contentsOf: (0..<4).map { UInt8((size >> (8 * $0)) & 0xFF) })
        return gzip
    }

    static func zip(_ path: String, entries: [(String, Data)]) throws {
        let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .create)
        for (name, data) in entries {
            try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
    }
}

extension WorkoutRecorded {
    /// A metadata entry's value.
    func metadata(_ key: String) -> String? { metadata.first { $0.key == key }?.value }
}
