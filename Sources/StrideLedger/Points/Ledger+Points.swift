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
    /// A spend that would reopen today, or a day to come: it is open already.
    case reopenNotPast(CivilDate, today: CivilDate)
    /// A spend that would reopen a day before the ledger's first: no such day earns.
    case reopenBeforeFirstDay(CivilDate, first: CivilDate)
    /// A spend that would reopen a day a spend reopened already.
    case alreadyReopened(CivilDate)

    public var description: String {
        switch self {
        case .overdraw(let balance, let wanted):
            "the balance is \(balance) point\(balance == 1 ? "" : "s"); spending \(wanted) would overdraw it, so nothing was spent — earn more first (`stride points` shows how)"
        case .emptyReason: "say what the points are for with --reason TEXT"
        case .emptyEntry: "a journal entry needs some text"
        case .notPositive(let points): "\(points) is not a number of points to spend; give a whole number of 1 or more"
        case .reopenNotPast(let day, let today):
            "\(day) is not a past day (today is \(today)): today is open already, and a day to come opens when it comes; nothing was spent"
        case .reopenBeforeFirstDay(let day, let first):
            "\(day) is before the ledger's first day, \(first): no earlier day earns, so nothing was spent"
        case .alreadyReopened(let day):
            "\(day) was reopened already: its check-in and entries earn as they are; nothing was spent"
        }
    }
}

extension Ledger {
    /// The local day of an instant, where the runner lived it (the zone timeline as it stands;
    /// the home zone if it cannot be read).
    public func localDay(_ instant: Timestamp) -> CivilDate { ((try? days()) ?? dailyHealth.days).day(of: instant) }

    /// The day a run starting at `start` counts on: the date its own file's clock showed, else
    /// the day it falls on where the runner lived (see ``LocalClocks``).
    public func day(ofRunStartingAt start: Timestamp) -> CivilDate {
        ((try? localClocks()) ?? LocalClocks(days: dailyHealth.days)).day(ofStart: start)
    }

    /// Checks in for the local day of `at` (now by default): the day's award when the day is
    /// open (``isOpen(_:)``), recorded for no point when it is closed, or nothing more when it
    /// has a check-in already (nothing is appended then). `sentBy` names the device that sent it through the server
    /// (nil on the machine); its award names that device too.
    /// - Throws: ``LedgerError/aheadOfClock(at:clock:timeZone:)`` when `at` is ahead of the clock.
    public func checkIn(at: Timestamp?, sentBy: String? = nil) throws -> CheckInOutcome {
        let when = try actionInstant(at)
        let day = localDay(when)
        // A closed day's check-in is recorded under a key of its own, so that the day's
        // check-in after a spend reopens it is still a first, and earns.
        let key = try isOpen(day) ? CheckedIn.key(day: day) : CheckedIn.closedKey(day: day)
        let outcome = try append([
            PendingEvent(.checkedIn(CheckedIn(day: day, sentBy: sentBy)), occurredAt: when, entity: .points, idempotencyKey: key)
        ])
        let earned = outcome.followUps.reduce(0) { total, event in
            if case .event(.pointsAwarded(let award)) = event.body { total + award.points } else { total }
        }
        return CheckInOutcome(day: day, isNew: outcome.appendedCount == 1, pointsEarned: earned, isOpen: try isOpen(day))
    }

    /// Whether a check-in or a journal entry for `day` earns now (Sayu's rule,
    /// ``PointAwardPolicy/earns(day:today:firstDay:isReopened:)``): today does; a past day only
    /// once a spend reopened it; a day before the ledger's first never.
    /// - Throws: a storage failure.
    public func isOpen(_ day: CivilDate) throws -> Bool {
        let state = try state(of: points)
        return PointAwardPolicy.earns(day: day, today: localDay(clock.now()), firstDay: try state.firstDay(), isReopened: try state.isReopened(day))
    }

    /// Adds a journal entry; returns the points it earned (none for a day that is not open,
    /// ``isOpen(_:)``). `sentBy` names the device that sent it through the server (nil on the
    /// machine); its awards name that device too.
    /// - Throws: ``PointsError/emptyEntry``; ``ValueRefusal`` past ``Plausible/journalCharacters``;
    ///   ``LedgerError/aheadOfClock(at:clock:timeZone:)`` when `at` is ahead of the clock.
    public func addJournalEntry(_ text: String, at: Timestamp?, sentBy: String? = nil) throws -> JournalOutcome {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw PointsError.emptyEntry }
        _ = try ValueRefusal.check(trimmed, longest: Plausible.journalCharacters, as: "the entry", multiline: true)
        let when = try actionInstant(at)
        let day = localDay(when)
        let outcome = try append([
            PendingEvent(.journalEntryAdded(JournalEntryAdded(text: trimmed, day: day, sentBy: sentBy)), occurredAt: when, entity: .journal)
        ])
        let awards = outcome.followUps.compactMap { if case .event(.pointsAwarded(let award)) = $0.body { award } else { nil } }
        return JournalOutcome(day: day, awards: awards, isOpen: try isOpen(day))
    }

    /// Spends points, only if the balance covers them — even with another process spending
    /// at the same moment: the spend expects the account unchanged since the balance was read.
    /// A spend that names a past day (`reopening`) reopens it: a check-in or journal entry for
    /// it earns from then on. `sentBy` names the device that sent it through the server (nil
    /// on the machine).
    /// - Throws: ``PointsError/overdraw(balance:wanted:)`` and the refusals of a day that cannot
    ///   be reopened (nothing appended); ``ValueRefusal`` outside ``Plausible/pointsSpent`` or
    ///   for a reason past ``Plausible/reasonCharacters``; ``LedgerError/aheadOfClock(at:clock:timeZone:)``
    ///   when `at` is ahead of the clock.
    public func spend(_ amount: Int, reason: String, reopening: CivilDate? = nil, at: Timestamp?, sentBy: String? = nil) throws -> Int {
        guard amount >= 1 else { throw PointsError.notPositive(amount) }
        _ = try ValueRefusal.check(Double(amount), in: Plausible.pointsSpent, as: "spending")
        let trimmed = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw PointsError.emptyReason }
        _ = try ValueRefusal.check(trimmed, longest: Plausible.reasonCharacters, as: "the reason")
        let when = try actionInstant(at)
        return try decideAndAppend(about: "the points") {
            let version = try store.version(of: .points)
            let state = try state(of: points)
            if let day = reopening {
                let today = localDay(clock.now())
                guard day < today else { throw PointsError.reopenNotPast(day, today: today) }
                if let first = try state.firstDay(), day < first { throw PointsError.reopenBeforeFirstDay(day, first: first) }
                guard try !state.isReopened(day) else { throw PointsError.alreadyReopened(day) }
            }
            let balance = try state.account().balance
            guard amount <= balance else { throw PointsError.overdraw(balance: balance, wanted: amount) }
            let spend = PointsSpent(points: amount, reason: trimmed, sentBy: sentBy, reopens: reopening)
            return Decision(
                events: [PendingEvent(.pointsSpent(spend), occurredAt: when, entity: .points)],
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

    /// The balance and one page of its history: the `limit` latest lines before sequence
    /// `before` (the latest when nil), oldest first, with the sequence that asks for the page
    /// before it (nil at the history's start).
    /// - Throws: a storage failure.
    public func pointsStatement(limit: Int, before: UInt64?) throws -> (statement: PointsStatement, earlier: UInt64?) {
        try state(of: points).statement(limit: limit, before: before)
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

/// What a check-in did.
public struct CheckInOutcome: Hashable, Sendable {
    /// The local day checked in for.
    public var day: CivilDate
    /// False when the day had a check-in already (nothing was appended).
    public var isNew: Bool
    /// The points it earned.
    public var pointsEarned: Int
    /// Whether the day is open (a past day that is not earns nothing).
    public var isOpen: Bool
}

/// What a journal entry did.
public struct JournalOutcome: Hashable, Sendable {
    /// The local day it was written for.
    public var day: CivilDate
    /// The points it earned.
    public var awards: [PointsAwarded]
    /// Whether the day is open (a past day that is not earns nothing).
    public var isOpen: Bool
}
