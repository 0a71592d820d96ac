import Foundation
import StrideEvents
import StrideTestSupport
import Testing

@testable import StrideIngest

/// FIT files as apps other than a watch's own write them: sessions without their times, and
/// files that are no activity at all.
@Suite("FIT sessions without times, and files that are not activities")
struct FITSessionTests {
    /// The first record's time: 2021-09-08T01:46:40Z.
    static let first: UInt32 = 1_000_000_000

    /// A FIT file of `type` (4 an activity): its `file_id`, `records` one a second from
    /// ``first`` at 3 m a second, then (with `session`) a running session holding the times
    /// given and no others.
    static func file(
        type: UInt8 = 4, records: Int, session: Bool = true, startTime: UInt32? = nil, timestamp: UInt32? = nil, elapsedSeconds: UInt32? = nil
    ) -> [UInt8] {
        let (u16, u32) = (FITTestFile.littleEndian16, FITTestFile.littleEndian32)
        var messages: [UInt8] = [0x40, 0, 0] + u16(0) + [3, 0, 1, 0x00, 3, 4, 0x8C, 4, 4, 0x86]
        messages += [0, type] + u32(4242) + u32(first)
        if records > 0 {
            messages += [0x42, 0, 0] + u16(20) + [3, 253, 4, 0x86, 5, 4, 0x86, 3, 1, 0x02]
            for second in 0..<UInt32(records) { messages += [2] + u32(first + second) + u32(second * 300) + [140] }
        }
        guard session else { return FITTestFile.file(messages) }
        var fields: [UInt8] = [5, 1, 0x00, 9, 4, 0x86]
        var values: [UInt8] = [1] + u32(UInt32(records) * 300)
        for (number, value) in [(UInt8(253), timestamp), (2, startTime), (7, elapsedSeconds.map { $0 * 1000 })] {
            guard let value else { continue }
            fields += [number, 4, 0x86]
            values += u32(value)
        }
        messages += [0x41, 0, 0] + u16(18) + [UInt8(fields.count / 3)] + fields + [1] + values
        return FITTestFile.file(messages)
    }

    /// The instant of a FIT time.
    static func instant(_ time: UInt32) -> Timestamp {
        Timestamp(secondsSince1970: Int64(time) + 631_065_600)
    }

    @Test(
        "a session without start_time starts at its first record, and without an elapsed time ends at its last",
        arguments: [
            // records, start_time, timestamp, elapsed → the start and end, after `first`
            (1542, nil, nil, nil, 0, 1541), (1542, nil, first + 1542, nil, 0, 1541), (1542, nil, first + 1600, 1600, 0, 1600),
            (1542, first, nil, nil, 0, 1541), (1542, first + 60, first + 1542, 1482, 60, 1542),
            // No records: the session's end less its elapsed time, as before.
            (0, nil, first + 1600, 1600, 0, 1600),
        ] as [(Int, UInt32?, UInt32?, UInt32?, Int64, Int64)])
    func sessionTimes(records: Int, startTime: UInt32?, timestamp: UInt32?, elapsed: UInt32?, start: Int64, end: Int64) throws {
        try withTemporaryDirectory { (folder: String) throws in
            let path = folder + "/run.fit"
            try Data(Self.file(records: records, startTime: startTime, timestamp: timestamp, elapsedSeconds: elapsed))
                .write(to: URL(fileURLWithPath: path))
            let result = try read(path)
            let run = try #require(result.workouts.first)
            #expect(run.start == Self.instant(Self.first).adding(milliseconds: start * 1000))
            #expect(run.end == Self.instant(Self.first).adding(milliseconds: end * 1000))
            #expect(run.durationSeconds == Double(end - start))
            #expect(run.distanceMeters == Double(records) * 3)
            // Every record from the start through the end is the run's stream.
            #expect(result.result.counts.streamReadings == (records > 0 ? records - Int(start) : 0))
            #expect(result.result.counts.notRead.isEmpty)
        }
    }

    @Test(
        "a FIT file that is not an activity is refused naming what it is, not told to be exported again",
        arguments: [
            (UInt8(1), "FIT device file (type 1)"), (2, "FIT settings file (type 2)"), (9, "FIT weight file (type 9)"),
            (15, "FIT monitoring A file (type 15)"), (32, "FIT monitoring B file (type 32)"), (35, "FIT segment list file (type 35)"),
            (99, "FIT file of type 99"),
        ])
    func notActivities(type: UInt8, named: String) throws {
        try withTemporaryDirectory { (folder: String) throws in
            let path = folder + "/file.fit"
            try Data(Self.file(type: type, records: 0, session: false)).write(to: URL(fileURLWithPath: path))
            #expect(throws: IngestError.notAnActivityFIT(file: path, fileType: type)) { _ = try read(path) }
            let message = IngestError.notAnActivityFIT(file: path, fileType: type).description
            #expect(message.contains("this is a \(named), not an activity"))
            #expect(!message.contains("export the activity again"))
        }
    }

    @Test("a zip of a watch's FIT files reads its activities and counts the others by type, as Garmin's archive does")
    func zipOfFiles() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let path = folder + "/watch.zip"
            try FITIngestTests.zip(
                path,
                entries: [
                    ("monitor.fit", Data(Self.file(type: 32, records: 0, session: false))),
                    ("run.fit", Data(Self.file(records: 60, startTime: Self.first, elapsedSeconds: 60))),
                    ("settings.fit", Data(Self.file(type: 2, records: 0, session: false))),
                    ("monitor2.fit", Data(Self.file(type: 32, records: 0, session: false))),
                ])
            let result = try read(path)
            #expect(result.workouts.count == 1)
            #expect(
                result.result.counts.notRead == [
                    "FIT monitoring B files (type 32), not activities": 2, "FIT settings files (type 2), not activities": 1,
                ])
        }
    }
}
