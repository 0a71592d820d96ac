import Foundation
import PointsBalance
import StrideEvents
import StrideTestSupport
import Synchronization
import Testing

@testable import StrideLedger

/// A clock a test moves: a day at a time, as a runner lives them.
final class SettableClock: LedgerClock {
    private let instant: Mutex<Timestamp>

    init(_ instant: Timestamp) { self.instant = Mutex(instant) }

    func now() -> Timestamp { instant.withLock { $0 } }

    /// Sets the time.
    func set(_ new: Timestamp) { instant.withLock { $0 = new } }
}

@Suite("Points on a ledger")
struct PointsLedgerTests {
    /// A ledger created on 2024-05-01 at 08:00 in Seoul, its clock there until moved.
    func ledger(_ folder: String, zone: String = "Asia/Seoul", clock: SettableClock? = nil) throws -> Ledger {
        try Ledger.create(at: folder + "/ledger", timeZone: zone, clock: clock ?? SettableClock(at("2024-05-01T08:00:00+09:00")))
    }

    func at(_ text: String) -> Timestamp { ISO8601.parse(text) ?? Timestamp(millisecondsSince1970: 0) }

    func rules(_ ledger: Ledger) throws -> [String] { try ledger.pointsHistory().map(\.rule) }

    @Test("first use earns 10, once")
    func firstUse() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let ledger = try ledger(folder)
            #expect(try ledger.account().balance == 10)
            #expect(try rules(ledger) == ["firstUse"])
        }
    }

    @Test(
        "check-ins count per local day of the ledger's zone: 23:59 and 00:01 are two days; a second one the same day earns nothing and appends nothing"
    )
    func midnight() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let clock = SettableClock(at("2024-05-01T08:00:00+09:00"))
            let ledger = try ledger(folder, clock: clock)
            // In Seoul, 2024-05-01T23:59+09:00 and 2024-05-02T00:01+09:00 are two days, though both are May 1 in UTC.
            clock.set(at("2024-05-01T23:59:00+09:00"))
            #expect(try ledger.checkIn(at: nil).pointsEarned == 1)
            clock.set(at("2024-05-02T00:01:00+09:00"))
            let next = try ledger.checkIn(at: nil)
            #expect(next == CheckInOutcome(day: CivilDate(year: 2024, month: 5, day: 2), isNew: true, pointsEarned: 1, isOpen: true))
            let before = try ledger.store.lastSequence()
            clock.set(at("2024-05-02T09:00:00+09:00"))
            #expect(try !ledger.checkIn(at: nil).isNew)
            #expect(try ledger.store.lastSequence() == before)
            #expect(try ledger.account().balance == 12)
        }
    }

    @Test("Sayu's rule: a past day earns nothing until a spend reopens it, then once; today earns; a day before the first never")
    func openDays() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let clock = SettableClock(at("2024-05-01T08:00:00+09:00"))
            let ledger = try ledger(folder, clock: clock)
            clock.set(at("2024-05-05T20:00:00+09:00"))
            let may3 = CivilDate(year: 2024, month: 5, day: 3)
            let closed = try ledger.checkIn(at: at("2024-05-03T09:00:00+09:00"))
            #expect(closed == CheckInOutcome(day: may3, isNew: true, pointsEarned: 0, isOpen: false))
            #expect(try ledger.addJournalEntry("hills", at: at("2024-05-03T10:00:00+09:00")).awards.isEmpty)
            #expect(try ledger.account().balance == 10)
            // Reopening costs what the runner chooses to spend, and names the day.
            _ = try ledger.spend(2, reason: "missed it", reopening: may3, at: nil)
            #expect(try ledger.checkIn(at: at("2024-05-03T11:00:00+09:00")).pointsEarned == 1)
            #expect(try ledger.checkIn(at: at("2024-05-03T12:00:00+09:00")).isNew == false)
            // Entries keep their order in the day: the first was written while the day was closed and
            // earned nothing; the fifth, written after the reopening, earns.
            for (hour, text) in [(13, "tempo"), (14, "stretch"), (15, "sleep")] {
                #expect(try ledger.addJournalEntry(text, at: at("2024-05-03T\(hour):00:00+09:00")).awards.isEmpty)
            }
            #expect(try ledger.addJournalEntry("long run", at: at("2024-05-03T16:00:00+09:00")).awards.map(\.points) == [3])
            #expect(try ledger.account().balance == 10 - 2 + 1 + 3)
            #expect(throws: PointsError.alreadyReopened(may3)) { try ledger.spend(1, reason: "again", reopening: may3, at: nil) }
            #expect(
                throws: PointsError.reopenBeforeFirstDay(CivilDate(year: 2024, month: 4, day: 30), first: CivilDate(year: 2024, month: 5, day: 1))
            ) {
                try ledger.spend(1, reason: "before", reopening: CivilDate(year: 2024, month: 4, day: 30), at: nil)
            }
            #expect(throws: PointsError.reopenNotPast(CivilDate(year: 2024, month: 5, day: 5), today: CivilDate(year: 2024, month: 5, day: 5))) {
                try ledger.spend(1, reason: "today", reopening: CivilDate(year: 2024, month: 5, day: 5), at: nil)
            }
            #expect(try ledger.checkIn(at: nil).pointsEarned == 1)
        }
    }

    @Test("five journal entries in a day earn 3 for the first and 3 for the fifth")
    func journal() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let clock = SettableClock(at("2024-05-01T08:00:00+09:00"))
            let ledger = try ledger(folder, clock: clock)
            var earned: [Int] = []
            for hour in 8...13 {
                clock.set(at("2024-05-01T\(hour < 10 ? "0" : "")\(hour):00:00+09:00"))
                earned.append(try ledger.addJournalEntry("entry at \(hour)", at: nil).awards.reduce(0) { $0 + $1.points })
            }
            #expect(earned == [3, 0, 0, 0, 3, 0])
            #expect(try ledger.account().balance == 16)
            #expect(try ledger.journal().count == 6)
        }
    }

    @Test("step tiers come from the merged figure of overlapping watch and phone steps; re-ingesting awards nothing again")
    func steps() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let ledger = try ledger(folder)
            // The phone's 6,000 over 08:00–09:00 and the watch's 3,000 over 08:30–09:00: the watch
            // wins its half hour, so the day has 3,000 + 3,000 = 6,000 steps: tiers 1,000 and 5,000.
            let lines = [
                #"{"type":"HKQuantityTypeIdentifierStepCount","start":"2024-05-01T08:00:00+09:00","end":"2024-05-01T09:00:00+09:00","value":6000,"unit":"count","device":"phone"}"#,
                #"{"type":"HKQuantityTypeIdentifierStepCount","start":"2024-05-01T08:30:00+09:00","end":"2024-05-01T09:00:00+09:00","value":3000,"unit":"count","device":"watch"}"#,
            ]
            try lines.joined(separator: "\n").write(toFile: folder + "/steps.ndjson", atomically: true, encoding: .utf8)
            let first = try ledger.ingest(file: folder + "/steps.ndjson")
            #expect(first.stepAwards.map(\.rule) == [.steps1000, .steps5000])
            #expect(try ledger.dailyRecords(from: nil, through: nil).first?.steps?.value == 6000)
            let again = try ledger.ingest(file: folder + "/steps.ndjson")
            #expect(again.stepAwards.isEmpty)
            #expect(try ledger.account().balance == 13)
        }
    }

    @Test("spending more than the balance is refused and appends nothing; a rebuild gives the same account")
    func spendAndRebuild() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let ledger = try ledger(folder)
            let before = try ledger.store.lastSequence()
            #expect(throws: PointsError.overdraw(balance: 10, wanted: 11)) { _ = try ledger.spend(11, reason: "too much", at: nil) }
            #expect(try ledger.store.lastSequence() == before)
            #expect(try ledger.spend(10, reason: "all of it", at: nil) == 0)
            #expect(
                try ledger.account()
                    == {
                        var account = Account(); account.earned = 10; account.spent = 10; return account
                    }())
            let history = try ledger.pointsHistory()
            _ = try ledger.rebuild()
            #expect(try ledger.pointsHistory() == history)
            #expect(try ledger.verifyProjections().allSatisfy(\.matches))
        }
    }
}
