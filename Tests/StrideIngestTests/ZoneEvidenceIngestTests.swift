import Foundation
import StrideEvents
import StrideTestSupport
import Testing

@testable import StrideIngest

/// What the readers note of the runner's clock (issue 43): the Health app's `HKTimeZone`, a
/// FIT file's `local_timestamp`, Garmin's local start times, the offsets of pushed dates.
@Suite("Zone evidence read from the inputs")
struct ZoneEvidenceIngestTests {
    /// The observations a read kept, in time order.
    static func observations(_ read: ReadFile) -> [ZoneObservation] {
        read.result.counts.zoneObservations.all
    }

    /// A named zone as a reading; the tests name only zones every machine knows.
    static func zone(_ identifier: String) throws -> ZoneObservation.Reading {
        .zone(try #require(TimeZone(identifier: identifier)))
    }

    // MARK: FIT

    /// 2021-09-08T01:46:40Z, as a FIT time.
    static let started: UInt32 = 1_000_000_000

    /// A FIT run: its `file_id`, a 30-minute session from ``started``, then, with `activity`, an
    /// `activity` message at the session's end holding `localTimestamp` when given.
    static func fitRun(activity: Bool = true, localTimestamp: UInt32?) -> [UInt8] {
        let (u16, u32) = (FITTestFile.littleEndian16, FITTestFile.littleEndian32)
        var messages: [UInt8] = [0x40, 0, 0] + u16(0) + [3, 0, 1, 0x00, 3, 4, 0x8C, 4, 4, 0x86]
        messages += [0, 4] + u32(4242) + u32(started)
        messages += [0x41, 0, 0] + u16(18) + [4, 253, 4, 0x86, 2, 4, 0x86, 5, 1, 0x00, 7, 4, 0x86]
        messages += [1] + u32(started + 1800) + u32(started) + [1] + u32(1_800_000)
        guard activity else { return FITTestFile.file(messages) }
        if let localTimestamp {
            messages += [0x42, 0, 0] + u16(34) + [2, 253, 4, 0x86, 5, 4, 0x86]
            messages += [2] + u32(started + 1800) + u32(localTimestamp)
        } else {
            messages += [0x42, 0, 0] + u16(34) + [1, 253, 4, 0x86]
            messages += [2] + u32(started + 1800)
        }
        return FITTestFile.file(messages)
    }

    /// Reads FIT bytes as `stride ingest` reads a file.
    static func readFIT(_ bytes: [UInt8]) throws -> ReadFile {
        try withTemporaryDirectory { folder in
            let path = folder + "/run.fit"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return try read(path)
        }
    }

    @Test(
        "local_timestamp less timestamp, to the quarter hour, at the activity's timestamp",
        arguments: [
            // seconds local_timestamp is ahead of timestamp → the offset noted
            (Int64(25_200), 25_200),  // +07:00, Bangkok
            (19_800, 19_800),  // +05:30, India
            (-12_600, -12_600),  // −03:30, Newfoundland
            (20_700, 20_700),  // +05:45, Nepal
            (0, 0),  // UTC, London in winter
            (25_202, 25_200), (25_198, 25_200),  // a device writing its two clocks seconds apart
            (-7_199, -7_200),
        ])
    func fitOffset(secondsAhead: Int64, offset: Int) throws {
        let read = try Self.readFIT(Self.fitRun(localTimestamp: UInt32(Int64(Self.started) + 1800 + secondsAhead)))
        #expect(read.workouts.count == 1)
        #expect(
            Self.observations(read) == [
                ZoneObservation(
                    .offset(seconds: offset), at: FITSessionTests.instant(Self.started + 1800), source: .fitLocalTimestamp)
            ])
    }

    @Test(
        "no activity message, no local_timestamp, or one more than 18 hours away notes nothing",
        arguments: [(false, nil), (true, nil), (true, started + 1800 + 18 * 3600 + 900), (true, started + 1800 - 19 * 3600)]
            as [(Bool, UInt32?)])
    func fitWithoutEvidence(activity: Bool, localTimestamp: UInt32?) throws {
        let read = try Self.readFIT(Self.fitRun(activity: activity, localTimestamp: localTimestamp))
        #expect(read.workouts.count == 1)
        #expect(Self.observations(read).isEmpty)
    }

    @Test("a real watch's run notes its local time: +08:00", .enabled(if: fixturesFolder() != nil, "needs ../shared/fixtures"))
    func realFIT() throws {
        let read = try read(FITIngestTests.run)
        #expect(
            Self.observations(read) == [
                ZoneObservation(.offset(seconds: 28_800), at: instant("2026-05-14T04:05:59Z"), source: .fitLocalTimestamp)
            ])
    }

    // MARK: The rounding

    @Test(
        "an offset is read to the nearest quarter hour, halves away from UTC, and none beyond 18 hours",
        arguments: [
            (Int64(0), 0 as Int?), (449, 0), (450, 900), (-449, 0), (-450, -900), (19_800, 19_800), (-12_601, -12_600),
            (64_800, 64_800), (65_249, 64_800), (65_250, nil), (-65_250, nil), (50_400, 50_400),
        ])
    func rounding(seconds: Int64, offset: Int?) {
        #expect(ClockOffset.reading(secondsAhead: seconds) == offset.map { .offset(seconds: $0) })
    }
}
