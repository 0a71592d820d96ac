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

    // MARK: Apple Health

    @Test("HKTimeZone on records and workouts: the zone at each start, one a zone and hour, none for a record without it")
    func healthTimeZone() throws {
        try withTemporaryDirectory { folder in
            let xml = export(
                """
                 <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Pillow" creationDate="2024-04-02 07:00:00 +0200" startDate="2024-04-01 23:10:00 +0200" endDate="2024-04-02 06:40:00 +0200" value="HKCategoryValueSleepAnalysisAsleep">
                  <MetadataEntry key="HKMetadataKeySyncIdentifier" value="night-1"/>
                  <MetadataEntry key="HKTimeZone" value="Europe/Paris"/>
                 </Record>
                 <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Pillow" creationDate="2024-04-02 07:00:00 +0200" startDate="2024-04-01 23:40:00 +0200" endDate="2024-04-02 06:40:00 +0200" value="HKCategoryValueSleepAnalysisInBed">
                  <MetadataEntry key="HKTimeZone" value="Europe/Paris"/>
                 </Record>
                 <Record type="HKQuantityTypeIdentifierStepCount" sourceName="iPhone" unit="count" creationDate="2024-04-03 09:00:00 +0200" startDate="2024-04-03 08:00:00 +0200" endDate="2024-04-03 08:30:00 +0200" value="1200">
                  <MetadataEntry key="HKTimeZoneName" value="Asia/Tokyo"/>
                 </Record>
                 <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" sourceName="Apple Watch" creationDate="2024-04-05 07:35:00 +0200" startDate="2024-04-05 07:00:00 +0200" endDate="2024-04-05 07:30:00 +0200">
                  <MetadataEntry key="HKIndoorWorkout" value="0"/>
                  <MetadataEntry key="HKTimeZone" value="America/New_York"/>
                  <WorkoutEvent type="HKWorkoutEventTypePause" date="2024-04-05 07:10:00 +0200">
                   <MetadataEntry key="HKTimeZone" value="Asia/Tokyo"/>
                  </WorkoutEvent>
                 </Workout>
                """)
            let read = try read(try write(xml, named: "export.xml", in: folder))
            // The second night's record is in the first one's hour and zone: the earlier is kept.
            #expect(
                Self.observations(read) == [
                    ZoneObservation(try Self.zone("Europe/Paris"), at: instant("2024-04-01T21:10:00Z"), source: .healthTimeZone),
                    ZoneObservation(try Self.zone("America/New_York"), at: instant("2024-04-05T05:00:00Z"), source: .healthTimeZone),
                ])
            // The metadata is kept as written.
            #expect(read.samples[0].metadata("HKTimeZone") == "Europe/Paris")
            #expect(read.result.counts.notRead.isEmpty)
        }
    }

    @Test("an export without HKTimeZone notes nothing")
    func healthWithoutZones() throws {
        try withTemporaryDirectory { folder in
            let xml = export(
                """
                 <Record type="HKQuantityTypeIdentifierStepCount" sourceName="iPhone" unit="count" creationDate="2024-04-03 09:00:00 +0200" startDate="2024-04-03 08:00:00 +0200" endDate="2024-04-03 08:30:00 +0200" value="1200">
                  <MetadataEntry key="HKWasUserEntered" value="0"/>
                 </Record>
                 <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" sourceName="Apple Watch" startDate="2024-04-05 07:00:00 +0200" endDate="2024-04-05 07:30:00 +0200"/>
                """)
            let read = try read(try write(xml, named: "export.xml", in: folder))
            #expect(read.samples.count == 1 && read.workouts.count == 1)
            #expect(Self.observations(read).isEmpty)
        }
    }

    @Test("an HKTimeZone naming no known zone is no evidence: kept in the metadata, counted as not read")
    func healthUnknownZone() throws {
        try withTemporaryDirectory { folder in
            let xml = export(
                """
                 <Record type="HKQuantityTypeIdentifierStepCount" sourceName="iPhone" unit="count" startDate="2024-04-03 08:00:00 +0200" endDate="2024-04-03 08:30:00 +0200" value="1200">
                  <MetadataEntry key="HKTimeZone" value="Mars/Olympus_Mons"/>
                 </Record>
                 <Record type="HKQuantityTypeIdentifierStepCount" sourceName="iPhone" unit="count" startDate="2024-04-03 09:00:00 +0200" endDate="2024-04-03 09:30:00 +0200" value="800">
                  <MetadataEntry key="HKTimeZone" value=""/>
                 </Record>
                """)
            let read = try read(try write(xml, named: "export.xml", in: folder))
            #expect(Self.observations(read).isEmpty)
            #expect(read.samples.map { $0.metadata("HKTimeZone") } == ["Mars/Olympus_Mons", ""])
            #expect(read.result.counts.notRead.values.reduce(0, +) == 2)
        }
    }

    @Test(
        "a real export's observations are the zones its HKTimeZone names, one a zone and hour of the starts",
        .enabled(if: fixturesFolder() != nil, "needs ../shared/fixtures"),
        arguments: [
            // file, the zones it names, how many zone-hours its 19 and 16 entries' starts fall in
            // (by a plain reading of the XML text).
            ("haozes/export.xml", "Asia/Jerusalem", 12), ("ipyhealth/export.xml", "Africa/Johannesburg", 14),
        ])
    func realExport(file: String, zone: String, zoneHours: Int) throws {
        let read = try read(try #require(fixturesFolder()) + "/" + file)
        let observations = Self.observations(read)
        #expect(observations.count == zoneHours)
        #expect(observations.allSatisfy { $0.reading == (try? Self.zone(zone)) && $0.source == .healthTimeZone })
        #expect(read.result.counts.notRead.isEmpty)
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
        "local_timestamp less timestamp, to the quarter hour, at the session's start (the hour a run's own day is read from)",
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
                    .offset(seconds: offset), at: FITSessionTests.instant(Self.started), source: .fitLocalTimestamp)
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

    @Test(
        "a Strava archive's FIT file notes its local time, though Strava's own dates are UTC",
        .enabled(if: fixturesFolder() != nil, "needs ../shared/fixtures"))
    func stravaArchiveFIT() throws {
        let read = try read(try #require(fixturesFolder()) + "/strava/geo-activity-playground")
        #expect(read.result.counts.archive?.filesRead == 1)
        let observations = Self.observations(read)
        #expect(observations.map(\.reading) == [.offset(seconds: 7_200)])
        #expect(observations.map(\.source) == [.fitLocalTimestamp])
    }

    // MARK: Garmin Connect

    /// A Garmin Connect archive holding only these summaries.
    static func garminArchive(_ summaries: String, in folder: String) throws -> String {
        let path = folder + "/garmin-export.zip"
        try FITIngestTests.zip(
            path, entries: [("DI_CONNECT/DI-Connect-Fitness/runner@example.com_0_summarizedActivities.json", Data(summaries.utf8))])
        return path
    }

    @Test("startTimeLocal less startTimeGmt, to the quarter hour, at each activity's start; none without startTimeLocal")
    func garminLocalTime() throws {
        try withTemporaryDirectory { folder in
            let read = try read(
                try Self.garminArchive(
                    """
                    [{"summarizedActivitiesExport": [
                      {"activityId": 1001, "activityType": "running", "startTimeGmt": 1704096000000.0, "startTimeLocal": 1704115800000.0},
                      {"activityId": 1002, "activityType": "running", "startTimeGmt": 1704182400000, "duration": 1800000},
                      {"activityId": 1003, "activityType": "cycling", "startTimeGmt": 1704268800000, "startTimeLocal": 1704268800000},
                      {"activityId": 1004, "activityType": "running", "startTimeGmt": 1704355200000, "startTimeLocal": 1704337201000}
                    ]}]
                    """, in: folder))
            #expect(read.workouts.count == 4)
            #expect(
                Self.observations(read) == [
                    // 19,800,000 ms: India.
                    ZoneObservation(.offset(seconds: 19_800), at: Timestamp(millisecondsSince1970: 1_704_096_000_000), source: .garminLocalTime),
                    // Written the same: UTC, which is evidence too (London in winter).
                    ZoneObservation(.offset(seconds: 0), at: Timestamp(millisecondsSince1970: 1_704_268_800_000), source: .garminLocalTime),
                    // Five hours less a second behind: New York.
                    ZoneObservation(.offset(seconds: -18_000), at: Timestamp(millisecondsSince1970: 1_704_355_200_000), source: .garminLocalTime),
                ])
        }
    }

    @Test("summaries without startTimeLocal note nothing")
    func garminWithoutLocalTime() throws {
        try withTemporaryDirectory { folder in
            let read = try read(
                try Self.garminArchive(
                    """
                    [{"summarizedActivitiesExport": [
                      {"activityId": 1001, "activityType": "running", "startTimeGmt": 1704096000000.0},
                      {"activityId": 1002, "activityType": "running", "startTimeGmt": 1704182400000, "startTimeLocal": null}
                    ]}]
                    """, in: folder))
            #expect(read.workouts.count == 2)
            #expect(Self.observations(read).isEmpty)
        }
    }

    @Test("a watch's FIT file among the archive's uploads notes its local time beside the summary's")
    func garminUploadedFIT() throws {
        try withTemporaryDirectory { folder in
            // The run's summary starts with its file, at +07:00; the file's activity message says so too.
            let start = Int64(Self.started) + 631_065_600
            let summaries = """
                [{"summarizedActivitiesExport": [
                  {"activityId": 1001, "activityType": "running", "startTimeGmt": \(start * 1000), "startTimeLocal": \((start + 25_200) * 1000)}
                ]}]
                """
            let uploads = folder + "/uploads.zip"
            try FITIngestTests.zip(uploads, entries: [("run.fit", Data(Self.fitRun(localTimestamp: Self.started + 1800 + 25_200)))])
            let path = folder + "/garmin-export.zip"
            try FITIngestTests.zip(
                path,
                entries: [
                    ("DI_CONNECT/DI-Connect-Fitness/runner@example.com_0_summarizedActivities.json", Data(summaries.utf8)),
                    ("DI_CONNECT/DI-Connect-Uploaded-Files/UploadedFiles_0-_Part1.zip", try Data(contentsOf: URL(fileURLWithPath: uploads))),
                ])
            let read = try read(path)
            #expect(read.workouts.count == 1)
            #expect(
                Self.observations(read) == [
                    ZoneObservation(.offset(seconds: 25_200), at: FITSessionTests.instant(Self.started), source: .fitLocalTimestamp),
                    ZoneObservation(.offset(seconds: 25_200), at: FITSessionTests.instant(Self.started), source: .garminLocalTime),
                ])
        }
    }

    // MARK: Health Auto Export

    @Test("a pushed metric's first date and each workout's start, at their printed offsets; not every point")
    func pushedOffsets() throws {
        try withTemporaryDirectory { folder in
            let text = push(
                metrics: [
                    metric(
                        "step_count", units: "count",
                        [
                            #"{"date": "2024-01-01 06:00:00 +0700", "qty": 120}"#, #"{"date": "2024-01-01 09:00:00 +0700", "qty": 80}"#,
                            #"{"date": "2024-01-02 09:00:00 +0700", "qty": 50}"#,
                        ]),
                    metric(
                        "sleep_analysis", units: "hr",
                        [
                            #"{"startDate": "2024-01-02 23:00:00 +0530", "endDate": "2024-01-03 06:00:00 +0530", "value": "Core"}"#
                        ]),
                    metric("heart_rate", units: "bpm", []),
                ],
                workouts: [
                    #"{"name": "Outdoor Run", "start": "2024-01-04 07:00:00 -0330", "end": "2024-01-04 07:30:00 -0330"}"#
                ])
            let read = try readPush(try write(text, named: "push.json", in: folder), receivedAt: instant("2024-01-05T00:00:00Z"))
            #expect(read.samples.count == 4 && read.workouts.count == 1)
            #expect(
                Self.observations(read) == [
                    ZoneObservation(.offset(seconds: 25_200), at: instant("2023-12-31T23:00:00Z"), source: .pushedOffset),
                    ZoneObservation(.offset(seconds: 19_800), at: instant("2024-01-02T17:30:00Z"), source: .pushedOffset),
                    ZoneObservation(.offset(seconds: -12_600), at: instant("2024-01-04T10:30:00Z"), source: .pushedOffset),
                ])
        }
    }

    @Test("a push with no dates, or dates printed in UTC with Z, notes nothing")
    func pushedWithoutOffsets() throws {
        try withTemporaryDirectory { folder in
            let empty = try readPush(try write(push(metrics: [], workouts: []), named: "empty.json", in: folder))
            #expect(Self.observations(empty).isEmpty)
            let text = push(
                metrics: [metric("step_count", units: "count", [#"{"date": "2024-01-01T06:00:00Z", "qty": 120}"#])],
                workouts: [#"{"name": "Outdoor Run", "start": "2024-01-04T07:00:00Z", "end": "2024-01-04T07:30:00Z"}"#])
            let utc = try readPush(try write(text, named: "utc.json", in: folder), receivedAt: instant("2024-01-05T00:00:00Z"))
            #expect(utc.samples.count == 1 && utc.workouts.count == 1)
            #expect(Self.observations(utc).isEmpty)
        }
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
