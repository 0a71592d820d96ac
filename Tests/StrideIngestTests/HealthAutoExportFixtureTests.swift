import Foundation
import StrideEvents
import StrideTestSupport
import Testing

@testable import StrideIngest

/// An instant from ISO 8601 text; tests only.
func instant(_ text: String) -> Timestamp {
    guard let instant = ISO8601.parse(text) else { fatalError("bad instant in a test: \(text)") }
    return instant
}

/// Reads a file with a Health Auto Export context (received at a fixed instant by default).
func readPush(
    _ file: String, grouping: HealthAutoExportGrouping? = nil, receivedAt: Timestamp = instant("2024-05-02T10:00:00Z"),
    timeZone: TimeZone? = nil
) throws -> ReadFile {
    let box = EventBox()
    let options = IngestOptions(
        healthAutoExport: HealthAutoExportContext(grouping: grouping, receivedAt: receivedAt), timeZone: timeZone)
    let result = try IngestReader.read(file: file, batchSize: 1000, options: options) { box.add($0.events) }
    return ReadFile(events: box.all, result: result)
}

extension SampleRecorded {
    /// A metadata entry's value.
    func metadata(_ key: String) -> String? { metadata.first { $0.key == key }?.value }
}

/// The real Health Auto Export payloads of `../shared/fixtures/hae`, read as hand-checked.
@Suite("Health Auto Export: the real payloads", .enabled(if: fixturesFolder() != nil, "needs ../shared/fixtures"))
struct HealthAutoExportFixtureTests {
    let folder = (fixturesFolder() ?? "") + "/hae/"

    @Test("every payload is told apart by its content")
    func detection() throws {
        for file in try FileManager.default.contentsOfDirectory(atPath: folder) {
            #expect(try InputFormat.detect(file: folder + file) == .healthAutoExport, "\(file)")
        }
    }

    @Test("active energy in kJ: two minute buckets, the empty metric beside them yields nothing")
    func activeEnergy() throws {
        let read = try readPush(folder + "irvinlim__apple-health-ingester__metrics-activeenergy-kJ.json")
        let samples = read.samples
        #expect(samples.count == 2)
        let first = try #require(samples.first)
        #expect(first.healthType == "HKQuantityTypeIdentifierActiveEnergyBurned")
        #expect(first.value == .number(0.76856774374845116))
        #expect(first.unit == "kJ")
        #expect(first.start == instant("2021-12-24T00:04:00+08:00"))
        #expect(first.end == instant("2021-12-24T00:05:00+08:00"))
        #expect(first.deviceClass == .summary)
        #expect(first.sourceName == "Health Auto Export")
        #expect(first.metadata("HAEGrouping") == "minutes (inferred)")
        #expect(first.metadata("HKMetadataKeySyncVersion") == "1714644000000")
        #expect(read.events.allSatisfy { SampleIdentity.isSyncIdentified($0.entity) })
        #expect(read.result.counts.leftOut.isEmpty)
    }

    @Test("a 2021 step count: fractional minute steps, no source")
    func steps() throws {
        let samples = try readPush(folder + "ivailop7__Healthkit-influxdb-grafana__sample-data.json").samples
        #expect(
            samples.map(\.value) == [34, 25, 8.2796763649358063, 17.719295979506633, 17.719295979506636, 7.2817316760509208].map(SampleValue.number))
        #expect(samples.allSatisfy { $0.unit == "count" && $0.healthType == "HKQuantityTypeIdentifierStepCount" })
        #expect(samples.last?.end == instant("2021-03-14T01:17:00Z"))
    }

    @Test("an aggregated night (app 6.6.2 and later): stages laid out back to back from sleepStart, in bed from sleepStart")
    func nightWithStages() throws {
        let samples = try readPush(folder + "irvinlim__apple-health-ingester__sleep-aggregated-6.6.2.json").samples
        let spans = samples.map { ($0.value.text ?? "", $0.start, $0.end) }
        let start = instant("2023-01-31T00:23:47+08:00")
        let expected: [(String, Int64, Int64)] = [
            ("HKCategoryValueSleepAnalysisAsleepUnspecified", 0, 0),
            ("HKCategoryValueSleepAnalysisAsleepCore", 0, 11_880_000),  // 3.3 h
            ("HKCategoryValueSleepAnalysisAsleepDeep", 11_880_000, 14_970_000),  // + 0.8583 h = 3,090 s
            ("HKCategoryValueSleepAnalysisAsleepREM", 14_970_000, 19_500_000),  // + 1.2583 h = 4,530 s
            ("HKCategoryValueSleepAnalysisAwake", 19_500_000, 19_920_000),  // + 0.1167 h = 420 s
            ("HKCategoryValueSleepAnalysisInBed", 0, 29_322_039),  // 8.1450109350019 h
        ]
        #expect(spans.count == expected.count)
        for (found, wanted) in zip(spans, expected) {
            #expect(found.0 == wanted.0)
            #expect(found.1 == start.adding(milliseconds: wanted.1), "\(wanted.0)")
            #expect(found.2 == start.adding(milliseconds: wanted.2), "\(wanted.0)")
        }
        #expect(samples.allSatisfy { $0.sourceName == "Irvin's iPhone|Irvin’s Apple Watch" && $0.unit == nil })
        #expect(samples.first?.metadata("HKMetadataKeySyncIdentifier") == "hae:night:2023-01-31:asleep")
    }

    @Test("an aggregated night before app 6.6.2: unstaged sleep from the watch, in bed from inBedStart to inBedEnd from the phone")
    func nightBefore662() throws {
        let samples = try readPush(folder + "irvinlim__apple-health-ingester__sleep-aggregated-pre-6.6.2.json").samples
        #expect(samples.count == 2)
        #expect(samples[0].value == .text("HKCategoryValueSleepAnalysisAsleepUnspecified"))
        #expect(samples[0].start == instant("2021-12-18T02:21:06+08:00"))
        #expect(samples[0].end == instant("2021-12-18T08:27:36+08:00"))  // 6.108333 h = 21,990 s
        #expect(samples[0].sourceName == "Irvin’s Apple Watch")
        #expect(samples[1].value == .text("HKCategoryValueSleepAnalysisInBed"))
        #expect(samples[1].start == instant("2021-12-18T02:12:50+08:00"))
        #expect(samples[1].end == instant("2021-12-18T09:04:45+08:00"))
        #expect(samples[1].sourceName == "iPhone")
    }

    @Test("an unaggregated sleep sample is HealthKit's own: kept as is, identified by its content, not revisable")
    func unaggregated() throws {
        let read = try readPush(folder + "irvinlim__apple-health-ingester__sleep-unaggregated.json")
        let sample = try #require(read.samples.first)
        #expect(sample.value == .text("HKCategoryValueSleepAnalysisAsleepCore"))
        #expect(sample.start == instant("2021-12-18T02:21:06+08:00"))
        #expect(sample.end == instant("2021-12-18T08:57:06+08:00"))
        #expect(sample.sourceName == "Irvin's Apple Watch")
        #expect(!SampleIdentity.isSyncIdentified(try #require(read.events.first).entity))
        // Another day's send appends nothing.
        let again = try readPush(folder + "irvinlim__apple-health-ingester__sleep-unaggregated.json", receivedAt: instant("2024-06-01T00:00:00Z"))
        #expect(again.events.map(\.idempotencyKey) == read.events.map(\.idempotencyKey))
    }

    @Test("a version 1 walking workout: energy in kJ, no distance, its duration from its times")
    func workoutVersion1() throws {
        let workout = try #require(try readPush(folder + "irvinlim__apple-health-ingester__workout-v1-walking-route-hr.json").workouts.first)
        #expect(workout.activityType == "HKWorkoutActivityTypeWalking")
        #expect(workout.start == instant("2021-12-24T08:02:43+08:00"))
        #expect(workout.end == instant("2021-12-24T08:21:53+08:00"))
        #expect(workout.durationSeconds == 1150)
        #expect(workout.distanceMeters == nil)
        #expect(abs((workout.energyKilocalories ?? 0) - 226.21122641832523 / 4.184) < 1e-9)
        #expect(workout.sourceName == "Health Auto Export")
        #expect(workout.metadata.contains(MetadataEntry(key: "HAEName", value: "Walking")))
        #expect(workout.metadata.contains(MetadataEntry(key: "stepCount", value: "908.0 steps")))
    }
}
