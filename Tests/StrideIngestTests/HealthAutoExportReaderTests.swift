import Foundation
import StrideEvents
import StrideTestSupport
import Testing

@testable import StrideIngest

/// A Health Auto Export document around metrics and workouts given as JSON text.
func push(metrics: [String] = [], workouts: [String]? = nil, extra: String = "") -> String {
    var members = ["\"metrics\": [\n" + metrics.joined(separator: ",\n") + "\n]"]
    if let workouts { members.append("\"workouts\": [\n" + workouts.joined(separator: ",\n") + "\n]") }
    if !extra.isEmpty { members.append(extra) }
    return "{\"data\": {\n" + members.joined(separator: ",\n") + "\n}}\n"
}

/// A metric with points given as JSON text, one a line.
func metric(_ name: String, units: String, _ points: [String]) -> String {
    "{\"name\": \"\(name)\", \"units\": \"\(units)\", \"data\": [\n" + points.joined(separator: ",\n") + "\n]}"
}

@Suite("Health Auto Export: metrics, buckets, identities and errors")
struct HealthAutoExportReaderTests {
    let paris = TimeZone(identifier: "Europe/Paris")

    @Test("heart rate: the bucket's average is the value, minimum and maximum kept; bpm is count/min; one second a point by default")
    func heartRate() throws {
        try withTemporaryDirectory { folder in
            let text = push(metrics: [
                metric(
                    "heart_rate", units: "bpm",
                    [
                        #"{"date": "2024-05-01 08:00:01 +0200", "Min": 60, "Avg": 62.5, "Max": 66, "source": "Marie’s Apple Watch|iPhone", "context": "Not Set"}"#
                    ])
            ])
            let sample = try #require(try readPush(try write(text, named: "push.json", in: folder)).samples.first)
            #expect(sample.healthType == "HKQuantityTypeIdentifierHeartRate")
            #expect(sample.value == .number(62.5))
            #expect(sample.unit == "count/min")
            #expect(sample.sourceName == "Marie’s Apple Watch|iPhone")
            #expect(sample.metadata("Min") == "60.0")
            #expect(sample.metadata("Max") == "66.0")
            #expect(sample.metadata("context") == "Not Set")
            #expect(sample.metadata("HAEGrouping") == "seconds (inferred)")
            #expect(sample.end == sample.start.adding(milliseconds: 1000))
        }
    }

    @Test("the grouping: the request's when given; else days when every point sits at local midnight, else minutes")
    func grouping() throws {
        try withTemporaryDirectory { folder in
            let text = push(metrics: [
                metric(
                    "step_count", units: "count",
                    [#"{"date": "2024-05-01 00:00:00 +0200", "qty": 9000}"#, #"{"date": "2024-05-02 00:00:00 +0200", "qty": 100}"#]),
                metric(
                    "Walking_Running_Distance", units: "km",
                    [#"{"date": "2024-05-01 00:00:00 +0200", "qty": 1}"#, #"{"date": "2024-05-01 08:13:00 +0200", "qty": 2}"#]),
            ])
            let file = try write(text, named: "push.json", in: folder)
            let inferred = try readPush(file).samples
            #expect(
                inferred.map { $0.metadata("HAEGrouping") } == ["days (inferred)", "days (inferred)", "minutes (inferred)", "minutes (inferred)"])
            #expect(inferred[0].end == instant("2024-05-02T00:00:00+02:00"))
            #expect(inferred[0].metadata("HKMetadataKeySyncIdentifier") == "hae:days:2024-05-01")
            #expect(inferred[2].healthType == "HKQuantityTypeIdentifierDistanceWalkingRunning")
            #expect(inferred[3].end == instant("2024-05-01T08:14:00+02:00"))
            #expect(inferred[3].metadata("HKMetadataKeySyncIdentifier") == "hae:minutes:2024-05-01T06:13:00Z")
            let hours = try readPush(file, grouping: .hours).samples
            #expect(hours.allSatisfy { $0.metadata("HAEGrouping") == "hours" && $0.end == $0.start.adding(milliseconds: 3_600_000) })
        }
    }

    @Test("a day bucket ends at the next local midnight: 23 hours when the clocks go forward, in the zone; 24 at the printed offset without one")
    func dayBuckets() throws {
        try withTemporaryDirectory { folder in
            let text = push(metrics: [
                metric(
                    "step_count", units: "count",
                    [
                        #"{"date": "2024-03-31 00:00:00 +0100", "qty": 2300}"#, #"{"date": "2024-10-27 00:00:00 +0200", "qty": 2500}"#,
                    ])
            ])
            let file = try write(text, named: "push.json", in: folder)
            let zoned = try readPush(file, timeZone: paris).samples
            #expect(zoned.map(\.end) == [instant("2024-04-01T00:00:00+02:00"), instant("2024-10-28T00:00:00+01:00")])
            #expect(zoned.map { $0.end.millisecondsSince1970 - $0.start.millisecondsSince1970 } == [23 * 3_600_000, 25 * 3_600_000])
            let unzoned = try readPush(file).samples
            #expect(unzoned.map(\.end) == [instant("2024-04-01T00:00:00+01:00"), instant("2024-10-28T00:00:00+02:00")])
            // A zone the push was not printed in is not used.
            let elsewhere = try readPush(file, timeZone: TimeZone(identifier: "America/New_York")).samples
            #expect(elsewhere.map(\.end) == unzoned.map(\.end))
        }
    }

    @Test("names in any case; an unknown metric is kept as HAE:<name>; blood pressure is two samples")
    func names() throws {
        try withTemporaryDirectory { folder in
            let text = push(metrics: [
                metric("Step_Count", units: "count", [#"{"date": "2024-05-01 08:00:00 +0200", "qty": 5}"#]),
                metric("fancy_new_metric", units: "zz", [#"{"date": "2024-05-01 08:00:00 +0200", "qty": 1, "extra": [1, 2]}"#]),
                metric("blood_pressure", units: "mmHg", [#"{"date": "2024-05-01 08:00:00 +0200", "systolic": 120, "diastolic": 80}"#]),
            ])
            let samples = try readPush(try write(text, named: "push.json", in: folder)).samples
            #expect(
                samples.map(\.healthType) == [
                    "HKQuantityTypeIdentifierStepCount", "HAE:fancy_new_metric", "HKQuantityTypeIdentifierBloodPressureSystolic",
                    "HKQuantityTypeIdentifierBloodPressureDiastolic",
                ])
            #expect(samples[1].metadata("extra") == "[1.0,2.0]")
            #expect(samples[2].value == .number(120))
            #expect(samples[3].value == .number(80))
        }
    }

    @Test("odd content in a well-formed point is kept and left out, named by file and line")
    func oddContent() throws {
        try withTemporaryDirectory { folder in
            let text = push(metrics: [
                metric(
                    "step_count", units: "count",
                    [
                        #"{"date": "2024-05-01 08:00:00 +0200", "qty": 5}"#,
                        #"{"date": "2024-05-01 08:01:00 +0200", "qty": "many"}"#,
                        #"{"date": "2024-05-01 08:02:00 +0200"}"#,
                    ]), metric("active_energy", units: "步", [#"{"date": "2024-05-01 08:00:00 +0200", "qty": 5}"#]),
            ])
            let file = try write(text, named: "push.json", in: folder)
            let read = try readPush(file)
            #expect(read.samples.count == 4)
            #expect(read.samples[1].value == .text("many"))
            #expect(read.samples[2].value == .absent)
            let leftOut = read.result.counts.leftOut
            #expect(leftOut["its value is not a number"]?.count == 2)
            #expect(leftOut["its value is not a number"]?.examples == [file + ":5", file + ":6"])
            #expect(leftOut["its unit \"步\" is unknown for HKQuantityTypeIdentifierActiveEnergyBurned"]?.examples == [file + ":9"])
        }
    }

    @Test("dates: 24-hour, 12-hour with a space or U+202F before am/pm in either case, ISO 8601")
    func dates() throws {
        let cases: [(String, String, Int)] = [
            ("2024-02-06 07:00:00 -0800", "2024-02-06T07:00:00-08:00", 7 * 3600),
            ("2024-09-21 7:57:00 am +1000", "2024-09-21T07:57:00+10:00", 7 * 3600 + 57 * 60),
            ("2024-09-21 7:57:00\u{202F}PM +1000", "2024-09-21T19:57:00+10:00", 19 * 3600 + 57 * 60),
            ("2024-09-21 12:05:00\u{202F}am +1000", "2024-09-21T00:05:00+10:00", 5 * 60),
            ("2024-09-21 12:05:00 pm +1000", "2024-09-21T12:05:00+10:00", 12 * 3600 + 5 * 60),
            ("2024-02-06T07:00:00.250-08:00", "2024-02-06T07:00:00.250-08:00", 7 * 3600),
            ("2024-02-06T15:00:00Z", "2024-02-06T15:00:00Z", 15 * 3600),
        ]
        for (text, iso, secondOfDay) in cases {
            let date = try #require(HealthAutoExportDate.parse(text), "\(text)")
            #expect(date.instant == instant(iso), "\(text)")
            #expect(date.secondOfDay == secondOfDay, "\(text)")
        }
        for bad in [
            "2024-02-06 07:00:00", "2024-02-30 07:00:00 +0100", "2024-02-06 13:00:00 pm +0100", "yesterday", "2024-02-06 07:00:00 +0100 extra",
        ] {
            #expect(HealthAutoExportDate.parse(bad) == nil, "\(bad)")
        }
    }

    @Test("an identical re-send has the same keys; a changed point the same entity with a new key; the version is when it was received")
    func identity() throws {
        try withTemporaryDirectory { folder in
            let points = [
                #"{"date": "2024-05-01 08:00:00 +0200", "qty": 300, "source": "Watch"}"#,
                #"{"date": "2024-05-01 09:00:00 +0200", "qty": 200, "source": "Watch"}"#,
            ]
            let first = try readPush(
                try write(push(metrics: [metric("step_count", units: "count", points)]), named: "a.json", in: folder), grouping: .hours)
            // Later that day: the second hour grew, and the phone joined its sources.
            let grown = [points[0], #"{"date": "2024-05-01 09:00:00 +0200", "qty": 450, "source": "Watch|iPhone"}"#]
            let second = try readPush(
                try write(push(metrics: [metric("step_count", units: "count", grown)]), named: "b.json", in: folder), grouping: .hours,
                receivedAt: instant("2024-05-02T14:00:00Z"))
            #expect(first.events.map(\.entity) == second.events.map(\.entity))
            #expect(first.events[0].idempotencyKey == second.events[0].idempotencyKey)
            #expect(first.events[1].idempotencyKey != second.events[1].idempotencyKey)
            #expect(second.samples.map { $0.metadata("HKMetadataKeySyncVersion") } == ["1714658400000", "1714658400000"])
            // Another grouping of the same hour is another sample.
            let minutes = try readPush(
                try write(push(metrics: [metric("step_count", units: "count", points)]), named: "c.json", in: folder), grouping: .minutes)
            #expect(minutes.events[0].entity != first.events[0].entity)
        }
    }

    @Test("a version 2 workout: its id is its identity; distance in km, energy in kcal, the run under a location prefix, indoor kept")
    func workoutVersion2() throws {
        try withTemporaryDirectory { folder in
            let text = push(workouts: [
                #"{"id": "CFC954D6-1E0A-4F07-9A6B-000000000001", "name": "Outdoor Run", "start": "2024-05-01 07:00:00 +0200", "end": "2024-05-01 07:30:00 +0200", "duration": 1790.5, "distance": {"qty": 5.02, "units": "km"}, "activeEnergyBurned": {"qty": 320, "units": "kcal"}, "isIndoor": false, "activeEnergy": [{"date": "2024-05-01 07:00:00 +0200", "qty": 10, "units": "kcal"}], "route": []}"#,
                #"{"name": "Outdoor Ausführen", "start": "2024-05-02 07:00:00 +0200", "end": "2024-05-02 07:30:00 +0200", "distance": {"qty": 3, "units": "leagues"}}"#,
            ])
            let read = try readPush(try write(text, named: "push.json", in: folder))
            let run = try #require(read.workouts.first)
            #expect(run.activityType == "HKWorkoutActivityTypeRunning")
            #expect(run.distanceMeters == 5020)
            #expect(run.distanceAsWritten == "5.02 km")
            #expect(run.energyKilocalories == 320)
            #expect(run.durationSeconds == 1790.5)
            #expect(run.deviceClass == .summary)
            #expect(run.metadata.contains(MetadataEntry(key: "HKIndoorWorkout", value: "0")))
            #expect(run.metadata.contains(MetadataEntry(key: "HAEId", value: "CFC954D6-1E0A-4F07-9A6B-000000000001")))
            let localised = read.workouts[1]
            #expect(localised.activityType == "HKWorkoutActivityTypeOther")
            #expect(localised.metadata.contains(MetadataEntry(key: "HAEName", value: "Outdoor Ausführen")))
            #expect(localised.distanceMeters == nil)
            #expect(read.result.counts.leftOut.keys.contains { $0.contains("leagues") })
            // The same run sent again with another name, the same id: the same workout.
            let renamed = text.replacingOccurrences(of: "Outdoor Run", with: "Running")
            let again = try readPush(try write(renamed, named: "again.json", in: folder))
            #expect(again.events[0].idempotencyKey == read.events[0].idempotencyKey)
        }
    }

    @Test("malformed JSON names its line; a bad date its line and field; nothing of either is delivered")
    func errors() throws {
        try withTemporaryDirectory { folder in
            let broken = "{\"data\": {\n\"metrics\": [\n{\"name\": \"step_count\" \"data\": []}\n]}}\n"
            let brokenFile = try write(broken, named: "broken.json", in: folder)
            #expect(try InputFormat.detect(file: brokenFile) == .healthAutoExport)
            #expect(
                throws: IngestError.invalidDocument(
                    file: brokenFile, line: 3, field: nil, problem: "'\"' where a comma or the end of the object (}) should be")
            ) {
                _ = try readPush(brokenFile)
            }
            let text = push(metrics: [
                metric(
                    "step_count", units: "count",
                    [
                        #"{"date": "2024-05-01 08:00:00 +0200", "qty": 5}"#, #"{"date": "2024-13-01 08:00:00 +0200", "qty": 5}"#,
                    ])
            ])
            let badDate = try write(text, named: "push.json", in: folder)
            #expect(
                throws: IngestError.invalidDocument(
                    file: badDate, line: 5, field: "metrics[0].data[1].date",
                    problem: "\"2024-13-01 08:00:00 +0200\" is not a date like 2024-02-06 07:00:00 -0800")
            ) {
                _ = try readPush(badDate)
            }
            let error = IngestError.invalidDocument(
                file: "push.json", line: 5, field: "metrics[0].data[1].date", problem: "\"x\" is not a date like 2024-02-06 07:00:00 -0800")
            #expect(
                error.description.hasPrefix(
                    "push.json, line 5: metrics[0].data[1].date: \"x\" is not a date like 2024-02-06 07:00:00 -0800. Nothing from it was added"))
            let missing = push(metrics: [metric("step_count", units: "count", [#"{"date": "2024-05-01 08:00:00 +0200", "qty": 5}"#, #"{"qty": 5}"#])])
            let missingFile = try write(missing, named: "missing.json", in: folder)
            #expect(
                throws: IngestError.invalidDocument(
                    file: missingFile, line: 5, field: "metrics[0].data[1].date", problem: "it is missing; every one must have a date")
            ) {
                _ = try readPush(missingFile)
            }
            let box = EventBox()
            _ = try? IngestReader.read(
                file: badDate, options: IngestOptions(healthAutoExport: HealthAutoExportContext(receivedAt: instant("2024-05-02T10:00:00Z")))
            ) { box.add($0.events) }
            #expect(box.all.isEmpty)
        }
    }

    @Test("detection: NDJSON stays NDJSON; a one-line document, or one with data before it, is Health Auto Export; the expected format is enforced")
    func detection() throws {
        try withTemporaryDirectory { folder in
            let ndjson = try write(
                #"{"type":"HKQuantityTypeIdentifierStepCount","start":"2024-05-01T08:00:00Z","end":"2024-05-01T08:10:00Z","value":5}"# + "\n",
                named: "a.json", in: folder)
            #expect(try InputFormat.detect(file: ndjson) == .ndjson)
            let oneLine = try write(#"{"data":{"workouts":[]}}"#, named: "b.json", in: folder)
            #expect(try InputFormat.detect(file: oneLine) == .healthAutoExport)
            let sibling = try write(#"{"workouts": [], "data": {"stateOfMind": [], "metrics": []}}"#, named: "c.json", in: folder)
            #expect(try InputFormat.detect(file: sibling) == .healthAutoExport)
            let otherData = try write(#"{"data": {"something": 1}}"#, named: "d.json", in: folder)
            #expect(try InputFormat.detect(file: otherData) == .ndjson)
            #expect(throws: IngestError.unexpectedFormat(file: ndjson, found: .ndjson, expected: .healthAutoExport)) {
                _ = try IngestReader.read(file: ndjson, options: IngestOptions(expectedFormat: .healthAutoExport)) { _ in }
            }
        }
    }

    @Test("members of data other than metrics and workouts are counted as not read")
    func notRead() throws {
        try withTemporaryDirectory { folder in
            let text = push(metrics: [], extra: #""stateOfMind": [{"a": 1}, {"a": 2}], "ecg": []"#)
            let read = try readPush(try write(text, named: "push.json", in: folder))
            #expect(read.result.counts.notRead == ["Health Auto Export stateOfMind": 2])
        }
    }
}
