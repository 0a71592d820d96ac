import DailyHealth
import Foundation
import StrideEvents
import StrideTestSupport
import Testing

@testable import StrideLedger

/// Ingests whose cost or figures once went wrong: exports from iOS 8 and 9 (2014–2015),
/// and samples whose span is absurd for their type.
@Suite("Legacy exports and absurd spans on a ledger")
struct IngestBoundsTests {
    func ledger(_ folder: String) throws -> Ledger {
        try Ledger.create(at: folder + "/ledger", timeZone: "Europe/Berlin", clock: FixedClock(Timestamp(secondsSince1970: 1_714_543_200)))
    }

    static func sleep(_ source: String, _ value: Int, _ start: String, _ end: String) -> String {
        " <Record type=\"HKCategoryTypeIdentifierSleepAnalysis\" source=\"\(source)\" unit=\"\" startDate=\"\(start)+0200\" endDate=\"\(end)+0200\" value=\"\(value)\"/>"
    }

    /// A phone's night (in bed 8 hours, asleep within it), then a watch's night in stages,
    /// all as raw values in compact dates.
    static let nights = [
        sleep("Sleep Cycle", 0, "20150601230000", "20150602070000"), sleep("Sleep Cycle", 1, "20150601233000", "20150602063000"),
        sleep("Apple Watch", 3, "20150602230000", "20150603010000"), sleep("Apple Watch", 4, "20150603010000", "20150603020000"),
        sleep("Apple Watch", 5, "20150603020000", "20150603030000"), sleep("Apple Watch", 2, "20150603030000", "20150603033000"),
        sleep("Apple Watch", 1, "20150603033000", "20150603060000"),
    ].joined(separator: "\n")

    @Test("numeric sleep values of an iOS 8 export reach the daily records, stage by stage")
    func legacySleep() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let ledger = try ledger(folder)
            let file = folder + "/export.xml"
            try "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"de_DE\">\n\(Self.nights)\n</HealthData>\n"
                .write(toFile: file, atomically: true, encoding: .utf8)
            let report = try ledger.ingest(file: file)
            #expect(report.appended == 7)
            #expect(report.counts.leftOut.isEmpty)
            let days = try ledger.dailyRecords(from: nil, through: nil)
            let phone = try #require(days.first { $0.date == CivilDate(year: 2015, month: 6, day: 2) }?.sleep)
            #expect(phone.source == .other)
            #expect(phone.inBed == 8 * 3600)
            #expect(phone.asleep == nil)
            let watch = try #require(days.first { $0.date == CivilDate(year: 2015, month: 6, day: 3) }?.sleep)
            #expect(watch.source == .watch)
            #expect(watch.asleepCore == 7200)
            #expect(watch.asleepDeep == 3600)
            #expect(watch.asleepREM == 3600)
            #expect(watch.awake == 1800)
            #expect(watch.asleepUnspecified == 9000)
            #expect(watch.asleep == 23_400)
        }
    }

    @Test(
        "a real iOS 8 export, ingested again, appends nothing: its compact dates give stable identities",
        .enabled(if: fixturesFolder() != nil, "needs ../shared/fixtures"), arguments: ["legacy-ios8/export.xml", "legacy-ios8/Exportieren.xml"])
    func legacyTwice(file: String) throws {
        let path = try #require(fixturesFolder()) + "/" + file
        try withTemporaryDirectory { (folder: String) throws in
            let ledger = try ledger(folder)
            let first = try ledger.ingest(file: path)
            #expect(first.appended == first.counts.samples)
            #expect(try ledger.dailyRecords(from: nil, through: nil).contains { $0.sleep != nil })
            let before = try ledger.store.lastSequence()
            let again = try ledger.ingest(file: path)
            #expect(again.appended == 0)
            #expect(again.duplicates == first.appended)
            #expect(try ledger.store.lastSequence() == before)
        }
    }

    @Test("a sample from the year 1 to 9999 is one event, counted as left out, in no daily record and no award")
    func absurdSpan() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let ledger = try ledger(folder)
            let file = folder + "/absurd.ndjson"
            try
                #"{"type":"HKQuantityTypeIdentifierStepCount","start":"0001-01-01T00:00:00Z","end":"9999-12-31T23:59:59Z","value":100000,"unit":"count"}"#
                .write(toFile: file, atomically: true, encoding: .utf8)
            let before = try ledger.store.lastSequence()
            let report = try ledger.ingest(file: file)
            // It once took 30 s and 3.5 GB, visiting every day; bounded, it takes milliseconds.
            // The bound here is loose, for a loaded machine.
            #expect(report.seconds < 10)
            #expect(report.appended == 1)
            #expect(try ledger.store.lastSequence() == before + 1)
            let reason = "it spans more than 8 days, too long for HKQuantityTypeIdentifierStepCount: apps write at most weekly totals"
            #expect(report.counts.leftOut[reason]?.count == 1)
            #expect(report.stepAwards.isEmpty)
            #expect(try ledger.dailyRecords(from: nil, through: nil).isEmpty)
        }
    }

    @Test("step samples dated the year 1 and 9999 are kept and left out, naming the year 2000 and the clock; nothing between them is visited")
    func farApart() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let ledger = try ledger(folder)
            let file = folder + "/far.ndjson"
            try [
                #"{"type":"HKQuantityTypeIdentifierStepCount","start":"0001-01-01T10:00:00Z","end":"0001-01-01T11:00:00Z","value":1500,"unit":"count"}"#,
                #"{"type":"HKQuantityTypeIdentifierStepCount","start":"9999-12-31T10:00:00Z","end":"9999-12-31T11:00:00Z","value":1500,"unit":"count"}"#,
            ].joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
            let report = try ledger.ingest(file: file)
            #expect(report.seconds < 10)
            #expect(report.appended == 2)
            #expect(report.counts.leftOut["it starts before 2000-01-01, before any device a runner has recorded"]?.count == 1)
            #expect(report.counts.leftOut.keys.contains { $0.hasPrefix("it starts after the clock that recorded it") })
            #expect(report.stepAwards.isEmpty)
            #expect(try ledger.dailyRecords(from: nil, through: nil).isEmpty)
            #expect(try ledger.verifyProjections().allSatisfy(\.matches))
        }
    }
}
