import DailyHealth
import Foundation
import StrideEvents
import StrideIngest
import StrideTestSupport
import Testing

@testable import StrideLedger

/// Health Auto Export pushes on a ledger: re-sends that revise, and days that arrive both
/// from an Apple Health export and from pushes.
@Suite("Health Auto Export on a ledger")
struct HealthAutoExportLedgerTests {
    let may1 = CivilDate(year: 2024, month: 5, day: 1)

    func ledger(_ folder: String) throws -> Ledger {
        try Ledger.create(at: folder + "/ledger", timeZone: "Europe/Paris", clock: FixedClock(Timestamp(secondsSince1970: 1_714_644_000)))
    }

    func at(_ text: String) -> Timestamp { ISO8601.parse(text) ?? Timestamp(millisecondsSince1970: 0) }

    /// Ingests a push as the server will: its grouping header and when it was received.
    func ingestPush(_ ledger: Ledger, _ file: String, received: String, header: String? = "Hours") throws -> FileIngestReport {
        try ledger.ingest(
            file: file,
            options: IngestOptions(
                healthAutoExport: HealthAutoExportContext(aggregationHeader: header, receivedAt: at(received)),
                expectedFormat: .healthAutoExport))
    }

    func write(_ text: String, _ name: String, in folder: String) throws -> String {
        try text.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8)
        return folder + "/" + name
    }

    /// A push of step buckets: `(date, qty)` pairs.
    func stepPush(_ points: [(String, Double)], heartRates: [(String, Double)] = []) -> String {
        let steps = points.map { #"{"date": "\#($0.0)", "qty": \#($0.1), "source": "Marie’s Apple Watch"}"# }
        let rates = heartRates.map { #"{"date": "\#($0.0)", "Min": \#($0.1), "Avg": \#($0.1), "Max": \#($0.1), "source": "Marie’s Apple Watch"}"# }
        var metrics = [#"{"name": "step_count", "units": "count", "data": [\#(steps.joined(separator: ", "))]}"#]
        if !rates.isEmpty { metrics.append(#"{"name": "heart_rate", "units": "count/min", "data": [\#(rates.joined(separator: ", "))]}"#) }
        return #"{"data": {"metrics": [\#(metrics.joined(separator: ", "))]}}"#
    }

    func steps(_ ledger: Ledger) throws -> Double? {
        try ledger.dailyRecords(from: may1, through: may1).first?.steps?.value
    }

    @Test("a re-send with one grown value appends one event; the day's steps are the new value, not the sum; the log keeps both")
    func resend() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let ledger = try ledger(folder)
            let morning = try write(stepPush([("2024-05-01 08:00:00 +0200", 1000), ("2024-05-01 09:00:00 +0200", 500)]), "morning.json", in: folder)
            let first = try ingestPush(ledger, morning, received: "2024-05-01T09:30:00+02:00")
            #expect(first.appended == 2)
            #expect(try steps(ledger) == 1500)
            let later = try write(stepPush([("2024-05-01 08:00:00 +0200", 1000), ("2024-05-01 09:00:00 +0200", 800)]), "later.json", in: folder)
            let second = try ingestPush(ledger, later, received: "2024-05-01T10:05:00+02:00")
            #expect(second.appended == 1)
            #expect(second.duplicates == 1)
            #expect(try steps(ledger) == 1800)
            // The identical re-send appends nothing.
            let third = try ingestPush(ledger, later, received: "2024-05-01T11:05:00+02:00")
            #expect(third.appended == 0)
            #expect(third.duplicates == 2)
            let samples = try ledger.events(from: 1, limit: 100, type: .sampleRecorded).compactMap { event -> SampleRecorded? in
                if case .sampleRecorded(let sample) = event.event { sample } else { nil }
            }
            #expect(samples.map(\.value) == [.number(1000), .number(500), .number(800)])
            #expect(
                samples.map { $0.metadata.first { $0.key == "HKMetadataKeySyncVersion" }?.value } == [
                    "1714548600000", "1714548600000", "1714550700000",
                ])
            #expect(try ledger.dailyRecords(from: may1, through: may1).first?.steps?.classes == [.summary])
            // A rebuild from the log gives the same figure.
            _ = try ledger.rebuild(["daily"])
            #expect(try steps(ledger) == 1800)
        }
    }

    /// A watch's steps and heart rate on 2024-05-01 as the Health app exports them: 2,000
    /// steps between 08:05 and 09:30; heart rates of 60, 70 and 80.
    static let export = """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="fr_FR">
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Marie’s Apple Watch" device="&lt;&lt;HKDevice&gt;, name:Apple Watch, model:Watch&gt;" unit="count" startDate="2024-05-01 08:05:00 +0200" endDate="2024-05-01 08:15:00 +0200" value="600"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Marie’s Apple Watch" device="&lt;&lt;HKDevice&gt;, name:Apple Watch, model:Watch&gt;" unit="count" startDate="2024-05-01 08:40:00 +0200" endDate="2024-05-01 08:50:00 +0200" value="400"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Marie’s Apple Watch" device="&lt;&lt;HKDevice&gt;, name:Apple Watch, model:Watch&gt;" unit="count" startDate="2024-05-01 09:10:00 +0200" endDate="2024-05-01 09:30:00 +0200" value="1000"/>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Marie’s Apple Watch" unit="count/min" startDate="2024-05-01 08:10:00 +0200" endDate="2024-05-01 08:10:00 +0200" value="60"/>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Marie’s Apple Watch" unit="count/min" startDate="2024-05-01 08:45:00 +0200" endDate="2024-05-01 08:45:00 +0200" value="70"/>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Marie’s Apple Watch" unit="count/min" startDate="2024-05-01 09:20:00 +0200" endDate="2024-05-01 09:20:00 +0200" value="80"/>
        </HealthData>

        """

    @Test("the same day from an export and from pushes, in either order: the export's figures, once", arguments: [true, false])
    func bothWays(exportFirst: Bool) throws {
        try withTemporaryDirectory { (folder: String) throws in
            let ledger = try ledger(folder)
            let export = try write(Self.export, "export.xml", in: folder)
            // The app's hour buckets of the same samples, and its readings at their seconds.
            let pushed = try write(
                stepPush(
                    [("2024-05-01 08:00:00 +0200", 1000), ("2024-05-01 09:00:00 +0200", 1000)],
                    heartRates: [("2024-05-01 08:10:00 +0200", 60), ("2024-05-01 08:45:00 +0200", 70), ("2024-05-01 09:20:00 +0200", 80)]),
                "push.json", in: folder)
            let heartRates = try write(
                #"{"data": {"metrics": [{"name": "heart_rate", "units": "count/min", "data": [{"date": "2024-05-01 08:10:00 +0200", "Min": 60, "Avg": 60, "Max": 60}, {"date": "2024-05-01 08:45:00 +0200", "Min": 70, "Avg": 70, "Max": 70}, {"date": "2024-05-01 09:20:00 +0200", "Min": 80, "Avg": 80, "Max": 80}]}]}}"#,
                "rates.json", in: folder)
            if exportFirst {
                _ = try ledger.ingest(file: export)
                _ = try ingestPush(ledger, pushed, received: "2024-05-01T10:00:00+02:00", header: "Hours")
                _ = try ingestPush(ledger, heartRates, received: "2024-05-01T10:00:00+02:00", header: nil)
            } else {
                _ = try ingestPush(ledger, pushed, received: "2024-05-01T10:00:00+02:00", header: "Hours")
                _ = try ingestPush(ledger, heartRates, received: "2024-05-01T10:00:00+02:00", header: nil)
                _ = try ledger.ingest(file: export)
            }
            let record = try #require(try ledger.dailyRecords(from: may1, through: may1).first)
            #expect(record.steps?.value == 2000)
            #expect(record.steps?.classes == [.watch])
            #expect(record.steps?.samplesUsed == 3)
            let rate = try #require(record.heartRate)
            #expect([rate.average, rate.minimum, rate.maximum] == [70, 60, 80])
            #expect(rate.count == 3)
            #expect(rate.source == .watch)
            #expect(try ledger.verify().isIntact)
        }
    }

    @Test("a push's hour the export did not have yet is added to the export's figure")
    func laterHour() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let ledger = try ledger(folder)
            _ = try ledger.ingest(file: try write(Self.export, "export.xml", in: folder))
            let pushed = try write(
                stepPush([("2024-05-01 08:00:00 +0200", 1000), ("2024-05-01 09:00:00 +0200", 1000), ("2024-05-01 10:00:00 +0200", 300)]),
                "push.json", in: folder)
            _ = try ingestPush(ledger, pushed, received: "2024-05-01T11:00:00+02:00")
            let steps = try #require(try ledger.dailyRecords(from: may1, through: may1).first?.steps)
            #expect(steps.value == 2300)
            #expect(steps.classes == [.watch, .summary])
        }
    }

    @Test("a pushed run goes to the default shoe like any other")
    func autoAssignment() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let ledger = try ledger(folder)
            try ledger.registerShoe(
                name: "Pegasus 40", brand: nil, startKilometers: 0, goalKilometers: nil, makeDefault: true, at: at("2024-04-30T00:00:00Z"))
            let run = try write(
                #"{"data": {"workouts": [{"id": "A1", "name": "Outdoor Run", "start": "2024-05-01 07:00:00 +0200", "end": "2024-05-01 07:30:00 +0200", "distance": {"qty": 5.02, "units": "km"}}]}}"#,
                "run.json", in: folder)
            let report = try ingestPush(ledger, run, received: "2024-05-01T08:00:00+02:00", header: nil)
            #expect(report.autoAssigned == 1)
            #expect(try ledger.shoes().first?.shoe.kilometers == 5.02)
            #expect(try ingestPush(ledger, run, received: "2024-05-01T09:00:00+02:00", header: nil).appended == 0)
        }
    }

    @Test("a pushed bucket the runner withdraws stays withdrawn when the app re-sends it grown; restored, the latest version counts")
    func withdrawnBucketAcrossVersions() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let ledger = try ledger(folder)
            let morning = try write(
                stepPush([("2024-05-01 08:00:00 +0200", 1000), ("2024-05-01 09:00:00 +0200", 15000)]), "morning.json", in: folder)
            _ = try ingestPush(ledger, morning, received: "2024-05-01T09:30:00+02:00")
            #expect(try steps(ledger) == 16000)
            let report = try ledger.explainDay(may1, measures: [.steps])
            let bogus = try #require(report.measures.first?.samples.first { $0.explained.fact.value == 15000 })
            _ = try ledger.withdrawSamples([bogus.id], reason: "the phone was in a tumble dryer", at: nil)
            #expect(try steps(ledger) == 1000)
            // The app sends the bucket again, grown: a new version of the same sample.
            let later = try write(stepPush([("2024-05-01 08:00:00 +0200", 1000), ("2024-05-01 09:00:00 +0200", 16000)]), "later.json", in: folder)
            #expect(try ingestPush(ledger, later, received: "2024-05-01T10:05:00+02:00").appended == 1)
            #expect(try steps(ledger) == 1000)
            _ = try ledger.restoreSamples([bogus.id], at: nil)
            #expect(try steps(ledger) == 17000)
            #expect(try ledger.verifyProjections().allSatisfy(\.matches))
        }
    }
}
