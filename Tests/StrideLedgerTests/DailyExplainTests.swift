import DailyHealth
import Foundation
import StrideEvents
import StrideTestSupport
import Testing

@testable import StrideLedger

@Suite("daily explain: every figure of a day down to its samples")
struct DailyExplainTests {
    /// The figure `stride daily` prints for a measure of a record.
    static func figure(of measure: Measure, in record: DailyRecord?) -> Double? {
        guard let record else { return nil }
        switch measure {
        case .sleep: return record.sleep.map { Double($0.asleep ?? $0.inBed) }
        case .heartRate: return record.heartRate?.average
        case .restingHeartRate: return record.restingHeartRate
        case .steps: return record.steps?.value
        case .distance: return record.distance?.value
        case .activeEnergy: return record.activeEnergy?.value
        }
    }

    @Test(
        "on every day of a real export, each measure's last running total is the figure `stride daily` prints, to the last bit",
        .enabled(if: fixturesFolder() != nil, "needs ../shared/fixtures"), arguments: ["bwassim/export.zip", "apple-health-grafana/test-export.zip"])
    func lastTotalIsTheFigure(name: String) throws {
        let file = try #require(fixturesFolder()) + "/" + name
        try withTemporaryDirectory { folder in
            let ledger = try Ledger.create(at: folder + "/ledger", timeZone: "Europe/Paris")
            _ = try ledger.ingest(file: file)
            let records = try ledger.dailyRecords(from: nil, through: nil)
            #expect(records.count > 100)
            var checked = 0
            for record in records {
                let report = try ledger.explainDay(record.date, limit: 1)
                for measure in report.measures {
                    let figure = Self.figure(of: measure.explanation.measure, in: record)
                    #expect(measure.explanation.figure == figure, "\(record.date) \(measure.explanation.measure)")
                    // The whole day's running totals, whatever the page.
                    let last = measure.explanation.samples.last { $0.runningTotal != nil }?.runningTotal
                    #expect(last == figure, "\(record.date) \(measure.explanation.measure): the last running total")
                    if figure != nil { checked += 1 }
                }
            }
            #expect(checked > records.count)
        }
    }

    @Test("a sample's id in the explanation is what withdrawal takes; afterwards the day explains it as withdrawn, with the reason")
    func idsRoundTrip() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Ledger.create(at: folder + "/ledger", timeZone: "Europe/Paris")
            try quietSunday().write(toFile: folder + "/sunday.xml", atomically: true, encoding: .utf8)
            _ = try ledger.ingest(file: folder + "/sunday.xml")
            let sunday = CivilDate(year: 2024, month: 5, day: 5)
            let before = try #require(try ledger.explainDay(sunday, measures: [.steps]).measures.first)
            #expect(before.explanation.figure == 51_000)
            let bogus = try #require(before.samples.first { $0.explained.fact.value == 48_000 })
            #expect(bogus.sourceName == "StepBooster")
            _ = try ledger.withdrawSamples([bogus.id], reason: "car rides", at: nil)
            let after = try #require(try ledger.explainDay(sunday, measures: [.steps]).measures.first)
            #expect(after.explanation.figure == 3_000)
            let line = try #require(after.samples.first { $0.id == bogus.id })
            #expect(line.explained.outcome == .leftOut(.withdrawn))
            #expect(line.reason == "withdrawn by the runner: car rides")
        }
    }

    @Test("a day of 20,000 heart-rate samples lists them a page at a time, with the whole day's running average")
    func paging() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Ledger.create(at: folder + "/ledger", timeZone: "UTC")
            var lines = ""
            for index in 0..<20_000 {
                let second = index * 4
                let instant = String(format: "2024-05-02T%02d:%02d:%02dZ", second / 3600, second / 60 % 60, second % 60)
                lines +=
                    "{\"type\":\"HKQuantityTypeIdentifierHeartRate\",\"value\":\(60 + index % 40),\"unit\":\"count/min\",\"start\":\"\(instant)\",\"end\":\"\(instant)\",\"device\":\"watch\"}\n"
            }
            try lines.write(toFile: folder + "/heart.ndjson", atomically: true, encoding: .utf8)
            _ = try ledger.ingest(file: folder + "/heart.ndjson")
            let day = CivilDate(year: 2024, month: 5, day: 2)
            let page = try #require(try ledger.explainDay(day, measures: [.heartRate], offset: 19_950, limit: 100).measures.first)
            #expect(page.samplesTotal == 20_000)
            #expect(page.offset == 19_950)
            #expect(page.samples.count == 50)
            let record = try #require(try ledger.dailyRecords(from: day, through: day).first)
            #expect(page.samples.last?.explained.runningTotal == record.heartRate?.average)
            #expect(Set(page.samples.map(\.id)).count == 50)
        }
    }
}
