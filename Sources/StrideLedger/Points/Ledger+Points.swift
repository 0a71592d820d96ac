import DailyHealth
import Foundation
import PointsBalance
import StrideEvents
import StrideProjection
import StrideStore

/// Why a points command was refused; nothing was appended.
public enum PointsError: Error, Equatable, Sendable, CustomStringConvertible {
    case overdraw(balance: Int, wanted: Int)
    case emptyReason
    case emptyEntry
    case notPositive(Int)

    public var description: String {
        switch self {
        case .overdraw(let balance, let wanted):
            "the balance is \(balance) point\(balance == 1 ? "" : "s"); spending \(wanted) would overdraw it, so nothing was spent — earn more first (`stride points` shows how)"
        case .emptyReason: "say what the points are for with --reason TEXT"
        case .emptyEntry: "a journal entry needs some text"
        case .notPositive(let points): "\(points) is not a number of points to spend; give a whole number of 1 or more"
        }
    }
}

extension Ledger {
    /// The local day of an instant, in the ledger's time zone.
    public func localDay(_ instant: Timestamp) -> CivilDate { dailyHealth.calendar.day(of: instant) }

    /// Checks in for the local day of `at` (now by default). Returns false when that day
    /// already has a check-in (nothing is appended then). `sentBy` names the device that sent
    /// it through the server (nil on the machine); its award names that device too.
    /// - Throws: ``LedgerError/aheadOfClock(at:clock:timeZone:)`` when `at` is ahead of the clock.
    public func checkIn(at: Timestamp?, sentBy: String? = nil) throws -> (day: CivilDate, isNew: Bool) {
        let when = try actionInstant(at)
        let day = localDay(when)
        let outcome = try append([
            PendingEvent(.checkedIn(CheckedIn(day: day, sentBy: sentBy)), occurredAt: when, entity: .points, idempotencyKey: CheckedIn.key(day: day))
        ])
        return (day, outcome.appendedCount == 1)
    }

    /// Adds a journal entry; returns the points it earned. `sentBy` names the device that sent
    /// it through the server (nil on the machine); its awards name that device too.
    /// - Throws: ``PointsError/emptyEntry``; ``LedgerError/aheadOfClock(at:clock:timeZone:)`` when `at` is ahead of the clock.
    public func addJournalEntry(_ text: String, at: Timestamp?, sentBy: String? = nil) throws -> [PointsAwarded] {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw PointsError.emptyEntry }
        let when = try actionInstant(at)
        let outcome = try append([
            PendingEvent(
                .journalEntryAdded(JournalEntryAdded(text: trimmed, day: localDay(when), sentBy: sentBy)), occurredAt: when, entity: .journal)
        ])
        return outcome.followUps.compactMap { if case .event(.pointsAwarded(let award)) = $0.body { award } else { nil } }
    }

    /// Spends points, only if the balance covers them — even with another process spending
    /// at the same moment: the spend expects the account unchanged since the balance was read.
    /// `sentBy` names the device that sent it through the server (nil on the machine).
    /// - Throws: ``PointsError/overdraw(balance:wanted:)`` (nothing appended); ``LedgerError/aheadOfClock(at:clock:timeZone:)`` when `at` is ahead of the clock.
    public func spend(_ amount: Int, reason: String, at: Timestamp?, sentBy: String? = nil) throws -> Int {
        guard amount >= 1 else { throw PointsError.notPositive(amount) }
        let trimmed = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw PointsError.emptyReason }
        let when = try actionInstant(at)
        return try decideAndAppend(about: "the points") {
            let version = try store.version(of: .points)
            let balance = try account().balance
            guard amount <= balance else { throw PointsError.overdraw(balance: balance, wanted: amount) }
            return Decision(
                events: [PendingEvent(.pointsSpent(PointsSpent(points: amount, reason: trimmed, sentBy: sentBy)), occurredAt: when, entity: .points)],
                expecting: [VersionExpectation(.points, version: version)], value: balance - amount)
        }
    }

    // MARK: Reading

    /// The balance, earned and spent.
    public func account() throws -> Account {
        try state(of: points).account()
    }

    /// The balance with every award and spend behind it, read together.
    public func pointsStatement() throws -> PointsStatement {
        try state(of: points).statement()
    }

    /// Every award and spend, oldest first.
    public func pointsHistory() throws -> [HistoryLine] {
        try pointsStatement().history
    }

    /// Every journal entry, oldest first.
    public func journal() throws -> [JournalLine] {
        try state(of: points).journal()
    }
}

extension Ledger {
    /// The local days the step samples among `samples` touch.
    func stepDays(of samples: [SampleReference]) -> Set<CivilDate> {
        samples.filter { HealthTypeCatalog.code(of: $0.healthType) == HealthTypeCatalog.stepCount }.reduce(into: Set<CivilDate>()) { days, sample in
            dailyHealth.insertStepDays(start: sample.start, end: sample.end, into: &days)
        }
    }
}
