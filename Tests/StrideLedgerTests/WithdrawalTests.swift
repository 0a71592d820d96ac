import DailyHealth
import Foundation
import PointsBalance
import StrideEvents
import StrideTestSupport
import Testing

@testable import StrideLedger

/// A quiet Sunday: 3,000 steps from the phone, and 48,000 that a third-party app wrote (it also
/// wrote 800 steps on Monday). An export holding them, made on `exportDate`; `withoutBogus`
/// leaves the app's Sunday record out, as the Health app exports after the runner deleted it.
func quietSunday(exportDate: String = "2024-05-06 20:00:00 +0200", withoutBogus: Bool = false) -> String {
    let offset = "+0200"
    func record(_ source: String, _ device: String?, _ start: String, _ end: String, _ value: Int) -> String {
        let device = device.map { " device=\"\($0)\"" } ?? ""
        return
            " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"\(source)\" sourceVersion=\"2.1\"\(device) unit=\"count\" creationDate=\"\(end) \(offset)\" startDate=\"\(start) \(offset)\" endDate=\"\(end) \(offset)\" value=\"\(value)\"/>"
    }
    let phone = "&lt;&lt;HKDevice: 0x28e1a4c0&gt;, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone14,2, software:17.4&gt;"
    var records = [
        record("iPhone", phone, "2024-05-05 09:00:00", "2024-05-05 09:30:00", 1000),
        record("iPhone", phone, "2024-05-05 13:00:00", "2024-05-05 13:30:00", 1000),
        record("iPhone", phone, "2024-05-05 18:00:00", "2024-05-05 18:30:00", 1000),
        record("StepBooster", nil, "2024-05-06 10:00:00", "2024-05-06 11:00:00", 800),
    ]
    if !withoutBogus { records.append(record("StepBooster", nil, "2024-05-05 12:00:00", "2024-05-05 12:05:00", 48000)) }
    return """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <ExportDate value="\(exportDate)"/>
        \(records.joined(separator: "\n"))
        </HealthData>

        """
}

@Suite("Withdrawals: what Health deleted, and what the runner rejects")
struct WithdrawalTests {
    static let sunday = CivilDate(year: 2024, month: 5, day: 5)
    static let clock = FixedClock(Timestamp(secondsSince1970: 1_715_100_000))

    static func steps(_ ledger: Ledger, on day: CivilDate = sunday) throws -> Double? {
        try ledger.dailyRecords(from: day, through: day).first?.steps?.value
    }

    static func ledger(in folder: String) throws -> Ledger {
        try Ledger.create(at: folder + "/ledger", timeZone: "Europe/Paris", clock: clock)
    }

    static func write(_ text: String, _ name: String, in folder: String) throws -> String {
        try text.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8)
        return folder + "/" + name
    }

    @Test("a later export that no longer holds a sample withdraws it: it leaves the figures, the award follows, the log keeps it")
    func deletedInHealth() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Self.ledger(in: folder)
            _ = try ledger.ingest(file: try Self.write(quietSunday(), "first.xml", in: folder))
            #expect(try Self.steps(ledger) == 51_000)
            #expect(try ledger.account().balance == 10 + 6 + 0)
            let beforeWithdrawal = try ledger.store.lastSequence()

            // The runner deleted the app's Sunday record in Health, and exported again a month on.
            let edited = try Self.write(quietSunday(withoutBogus: true), "edited.xml", in: folder)
            let later = folder + "/later.xml"
            try reExport(edited, to: later, offset: "+0900")
            let report = try ledger.ingest(file: later)
            #expect(report.appended == 0)
            #expect(report.export?.withdrawn.count == 1)
            #expect(report.stepReversals.map(\.rule) == [.steps5000, .steps10000])
            #expect(try Self.steps(ledger) == 3_000)
            #expect(try ledger.account().balance == 10 + 1)
            #expect(try ledger.statistics().withdrawnSamples == 1)
            let withdrawn = try #require(try ledger.withdrawnSamples().first)
            #expect(withdrawn.value == "48000 count")
            #expect(withdrawn.cause == .deletedInHealth(exportDate: try #require(ISO8601.parse("2024-06-05T20:00:00+02:00"))))
            // Still in the log; the day as it stood before the withdrawal is still there.
            #expect(try ledger.statistics().samplesByHealthType.first { $0.name == "HKQuantityTypeIdentifierStepCount" }?.count == 5)
            let past = try ledger.replay(through: beforeWithdrawal)
            #expect(past.days.first { $0.date == Self.sunday }?.steps?.value == 51_000)

            // The same later export again withdraws nothing more.
            let again = try ledger.ingest(file: later)
            #expect(again.export?.withdrawn.isEmpty == true)
            #expect(try ledger.statistics().withdrawnSamples == 1)
        }
    }

    @Test("the older export read after the newer one ends at the same figures: what it brings the newer one no longer held is withdrawn")
    func orderOfExports() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Self.ledger(in: folder)
            let later = try Self.write(quietSunday(exportDate: "2024-06-05 20:00:00 +0200", withoutBogus: true), "later.xml", in: folder)
            _ = try ledger.ingest(file: later)
            let older = try ledger.ingest(file: try Self.write(quietSunday(), "first.xml", in: folder))
            #expect(older.appended == 1)
            #expect(older.export?.newerExportRead != nil)
            #expect(older.export?.withdrawn.count == 1)
            #expect(try Self.steps(ledger) == 3_000)
            #expect(try ledger.account().balance == 10 + 1)
        }
    }

    @Test("an export withdraws nothing of another source, nothing outside its span, nothing that came by another way")
    func whatAnExportDoesNotWithdraw() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Self.ledger(in: folder)
            _ = try ledger.ingest(file: try Self.write(quietSunday(), "first.xml", in: folder))
            // An app's sample pushed as NDJSON, from a source the exports hold, inside their span.
            let pushed = """
                {"type":"HKQuantityTypeIdentifierStepCount","value":500,"unit":"count","start":"2024-05-05T15:00:00+02:00","end":"2024-05-05T15:10:00+02:00","source":"iPhone"}

                """
            _ = try ledger.ingest(file: try Self.write(pushed, "pushed.ndjson", in: folder))
            // A later export of the phone alone: the app's samples are of a source it does not hold.
            let phoneOnly = quietSunday(exportDate: "2024-06-05 20:00:00 +0200").split(separator: "\n").filter { !$0.contains("StepBooster") }
                .joined(separator: "\n")
            let report = try ledger.ingest(file: try Self.write(phoneOnly, "phone.xml", in: folder))
            #expect(report.export?.withdrawn.isEmpty == true)
            #expect(try Self.steps(ledger) == 51_500)
        }
    }

    @Test("the runner withdraws a sample by a prefix of its id, and restores it; the awards follow each time, under keys of their own")
    func byHand() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Self.ledger(in: folder)
            _ = try ledger.ingest(file: try Self.write(quietSunday(), "first.xml", in: folder))
            let bogus = try #require(
                try ledger.events(from: 1, limit: 100, type: .sampleRecorded).first { event in
                    if case .sampleRecorded(let sample) = event.event { sample.value == .number(48000) } else { false }
                })
            let prefix = String(bogus.entity.shortID.prefix(8))
            let withdrawn = try ledger.withdrawSamples([prefix], reason: "StepBooster counts car rides", at: nil)
            #expect(withdrawn.samples.map(\.id) == [bogus.entity.shortID])
            #expect(withdrawn.stepAwards.reversed.map(\.takenBack) == [2, 3])
            #expect(try Self.steps(ledger) == 3_000)
            #expect(try ledger.withdrawnSamples().first?.cause == .rejectedByRunner(reason: "StepBooster counts car rides"))

            let restored = try ledger.restoreSamples([bogus.entity.shortID], at: nil)
            #expect(restored.stepAwards.awarded.map(\.rule) == [.steps5000, .steps10000])
            #expect(try Self.steps(ledger) == 51_000)
            #expect(try ledger.account().balance == 10 + 6)
            // A second round takes and gives again: each award and reversal is its own event.
            _ = try ledger.withdrawSamples([prefix], reason: "again", at: nil)
            #expect(try ledger.account().balance == 10 + 1)
            #expect(try ledger.pointsHistory().filter { $0.kind == .reversal }.count == 4)
            #expect(try ledger.verifyProjections().allSatisfy(\.matches))
        }
    }

    @Test("unknown, ambiguous, already withdrawn or not withdrawn samples and empty reasons are refused, naming them, appending nothing")
    func refusals() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Self.ledger(in: folder)
            let file = try Self.write(quietSunday(), "first.xml", in: folder)
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                _ = try? ledger.ingest(file: file)
                done.signal()
            }
            thread.stackSize = 64 << 20
            thread.start()
            done.wait()
            let ids = try ledger.events(from: 1, limit: 100, type: .sampleRecorded).map(\.entity.shortID)
            let last = try ledger.store.lastSequence()
            #expect(throws: SampleError.unknownSample("ffffffffffffffff")) {
                _ = try ledger.withdrawSamples(["ffffffffffffffff"], reason: "x", at: nil)
            }
            #expect(throws: SampleError.unknownSample("not-hex")) { _ = try ledger.withdrawSamples(["not-hex"], reason: "x", at: nil) }
            #expect(throws: SampleError.emptyReason) { _ = try ledger.withdrawSamples([ids[0]], reason: "  ", at: nil) }
            #expect(throws: SampleError.reasonTooLong(501)) {
                _ = try ledger.withdrawSamples([ids[0]], reason: String(repeating: "a", count: 501), at: nil)
            }
            #expect(throws: SampleError.notWithdrawn(ids[1])) { _ = try ledger.restoreSamples([ids[1]], at: nil) }
            // Every id shares the empty prefix's first digit with some other, or is unique: a
            // one-digit prefix that two ids share is ambiguous.
            let shared = Dictionary(grouping: ids, by: { $0.prefix(1) }).first { $0.value.count > 1 }
            if let (digit, matches) = shared {
                #expect(throws: SampleError.ambiguousSample(String(digit), matches: matches.sorted())) {
                    _ = try ledger.withdrawSamples([String(digit)], reason: "x", at: nil)
                }
            }
            #expect(try ledger.store.lastSequence() == last)
            _ = try ledger.withdrawSamples([ids[0]], reason: "one", at: nil)
            #expect(throws: SampleError.self) { _ = try ledger.withdrawSamples([ids[2], ids[0]], reason: "two", at: nil) }
            #expect(try ledger.statistics().withdrawnSamples == 1)
        }
    }
}
