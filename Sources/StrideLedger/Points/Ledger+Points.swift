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

    /// Awards the step tiers reached by each day's merged step count (never taking any back),
    /// naming `sentBy`, the device that sent the ingest that ended, when there is one.
    func awardSteps(for days: Set<CivilDate>, sentBy: String? = nil) throws -> [PointsAwarded] {
        let ordered = days.sorted()
        guard var first = ordered.first, let last = ordered.last else { return [] }
        var next = 0
        let now = clock.now()
        let daily = try state(of: dailyHealth)
        // Two months of records at a time, their halves totalled at once (the totals are the
        // last thing an ingest waits for), letting go of the pages read in between: years of
        // history do not pile up in memory.
        var awards: [PendingEvent] = []
        while first <= last {
            let windowEnd = min(first.adding(days: 61), last)
            let half = first.adding(days: Int(windowEnd.daysSince1970 - first.daysSince1970) / 2)
            var halves = [(first: first, last: half)]
            if half < windowEnd { halves.append((half.adding(days: 1), windowEnd)) }
            let totals = try halves.concurrentMap { part in try daily.stepTotals(from: part.first, through: part.last) }
            awards += totals.joined().filter { days.contains($0.day) }.flatMap { total in
                PointAwardPolicy.stepRules(steps: total.steps).map { PointAwardPolicy.award($0, day: total.day, at: now, sentBy: sentBy) }
            }
            store.releaseMappedPages()
            // The next window starts at the next day touched: days centuries apart cost no
            // windows in between.
            while next < ordered.count, ordered[next] <= windowEnd { next += 1 }
            guard next < ordered.count else { break }
            first = ordered[next]
        }
        guard !awards.isEmpty else { return [] }
        let outcome = try append(awards)
        return zip(awards, outcome.sequences).compactMap { pending, sequence in
            guard sequence != nil, case .event(.pointsAwarded(let award)) = pending.body else { return nil }
            return award
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

extension DailyHealthProjection {
    /// The local days the step samples of a batch touch.
    func stepDays(of batch: [PendingEvent]) -> Set<CivilDate> {
        var days = Set<CivilDate>()
        for index in batch.indices where batch[index].typeCode == EventType.sampleRecorded.code {
            // A sample the quality rule leaves out counts on no day (and may span millennia).
            guard case .event(.sampleRecorded(let sample)) = batch[index].body, sample.healthType == "HKQuantityTypeIdentifierStepCount",
                SampleQuality.problem(with: sample) == nil
            else { continue }
            let fact = Fact(start: sample.start, end: max(sample.end, sample.start), value: 0, deviceClass: sample.deviceClass)
            var (day, last) = dayRange(of: fact, for: .steps)
            while day <= last {
                days.insert(day)
                day = day.adding(days: 1)
            }
        }
        return days
    }
}
