import StrideEvents
import StrideProjection

/// The award rules as pure functions (Sayu's points, with the spec's fixes).
public enum PointAwardPolicy {
    /// The step tiers a day's merged step count reaches; tiers stack.
    public static func stepRules(steps: Double?) -> [PointRule] {
        guard let steps else { return [] }
        return PointRule.stepTiers.filter { steps >= $0.steps }.map(\.rule)
    }

    /// The rule a journal entry earns by its place among the day's entries (1st or 5th).
    public static func journalRule(ordinal: Int) -> PointRule? {
        switch ordinal {
        case 1: .firstJournalEntry
        case 5: .fifthJournalEntry
        default: nil
        }
    }

    /// Whether a check-in or journal entry for `day` earns, recorded on the local day `today`
    /// (Sayu's rule): today earns (and the next day, which only a clock a few minutes ahead
    /// reaches); a past day only once a spend reopened it; a day before the ledger's first
    /// (`firstDay`, nil before its first-use award) never.
    public static func earns(day: CivilDate, today: CivilDate, firstDay: CivilDate?, isReopened: Bool) -> Bool {
        if let firstDay, day < firstDay { return false }
        return day >= today || isReopened
    }

    /// The pending award of a rule for a day: idempotent per rule and day (the first use,
    /// once ever), so the same award is never appended twice. `sentBy` is the device that sent
    /// what earned it through the server, if one did.
    public static func award(_ rule: PointRule, day: CivilDate, at: Timestamp, sentBy: String? = nil, generation: Int = 0) -> PendingEvent {
        PendingEvent(
            .pointsAwarded(PointsAwarded(rule: rule, points: rule.points, day: day, sentBy: sentBy)), occurredAt: at, entity: .points,
            idempotencyKey: PointsAwarded.key(rule, day: day, generation: generation))
    }
}

/// The award rules as a reaction: the first use when the ledger is created, a check-in, the
/// day's first and fifth journal entries, in the transaction that appends them — for a day
/// that is open (``PointAwardPolicy/earns(day:today:firstDay:isReopened:)``). An award
/// carries the sender of the check-in or entry that earned it.
public struct PointAwards: LedgerReaction {
    let points: PointsBalanceProjection
    /// The local day of an instant, in the ledger's time zone.
    let localDay: @Sendable (Timestamp) -> CivilDate

    /// The reaction for a ledger's calendar.
    public init(points: PointsBalanceProjection, localDay: @escaping @Sendable (Timestamp) -> CivilDate) {
        self.points = points
        self.localDay = localDay
    }

    public var answeredTypes: Set<EventType> { [.ledgerCreated, .checkedIn, .journalEntryAdded] }

    public func react(to appended: [ProjectionEvent], state: any ProjectionStateReader) throws -> [PendingEvent] {
        var awards: [PendingEvent] = []
        var laterEntries: [CivilDate: Int] = [:]
        let firstDay: CivilDate? = if case .firstDay(let day)? = try state.row(.firstDay, of: points) { day } else { nil }
        func earns(_ day: CivilDate, recordedAt: Timestamp) throws -> Bool {
            PointAwardPolicy.earns(
                day: day, today: localDay(recordedAt), firstDay: firstDay, isReopened: try state.row(.reopened(day), of: points) != nil)
        }
        // Walk back, so each journal entry knows how many of the day's entries follow it here.
        for event in appended.reversed() {
            guard case .event(let content) = event.content else { continue }
            switch content {
            case .ledgerCreated:
                awards.append(PointAwardPolicy.award(.firstUse, day: localDay(event.occurredAt), at: event.occurredAt))
            case .checkedIn(let checkIn):
                guard try earns(checkIn.day, recordedAt: event.recordedAt) else { continue }
                awards.append(PointAwardPolicy.award(.dailyCheckIn, day: checkIn.day, at: event.occurredAt, sentBy: checkIn.sentBy))
            case .journalEntryAdded(let entry):
                let count: Int
                if case .journalDay(let stored)? = try state.row(.journalDay(entry.day), of: points) { count = stored } else { count = 0 }
                let ordinal = count - laterEntries[entry.day, default: 0]
                laterEntries[entry.day, default: 0] += 1
                if let rule = PointAwardPolicy.journalRule(ordinal: ordinal), try earns(entry.day, recordedAt: event.recordedAt) {
                    awards.append(PointAwardPolicy.award(rule, day: entry.day, at: event.occurredAt, sentBy: entry.sentBy))
                }
            default:
                break
            }
        }
        return awards.reversed()
    }
}
