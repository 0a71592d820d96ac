import DailyHealth
import PointsBalance
import ShoeMileage
import StrideContract
import StrideEvents
import StrideLedger

/// The ledger as one page reads it: as it stands, or as it stood at a sequence of the past.
/// Every read goes through the contract's documents; a past is one `ReplayDocument`
/// (computed once, on the first read that needs it) and, for what a replay does not carry,
/// the present documents cut at the sequence.
final class Snapshot {
    let ledger: Ledger
    let time: LocalTime
    /// The past shown, nil for the present.
    let past: Past?
    /// The local day taken as today: the past's, or the clock's.
    let today: CivilDate
    /// The figures a replay of the past folds: those the page shows.
    private let figures: Set<Ledger.ReplayedFigures>
    private var replayed: Ledger.ReplayedState?
    /// Every workout, read once per page (a page asks for several ranges).
    private var everyWorkout: [Workout]?

    /// A point of the past as the banner names it.
    struct Past: Sendable, Hashable {
        /// The last sequence included.
        var sequence: UInt64
        /// When that event was recorded (nil before the first).
        var recordedAt: Timestamp?
        /// The instant asked for, when one was.
        var instant: Timestamp?
    }

    /// Resolves the time travel (an instant becomes the last sequence recorded by then).
    /// - Throws: a storage failure.
    init(_ ledger: Ledger, context: PageContext, figures: Set<Ledger.ReplayedFigures> = Set(Ledger.ReplayedFigures.allCases)) throws {
        self.ledger = ledger
        self.figures = figures
        time = LocalTime(timeZone: ledger.timeZone)
        if let travel = context.timeTravel, travel.sequence != nil || travel.instant != nil {
            let last = try ledger.lastSequence()
            var sequence = min(travel.sequence ?? last, last)
            if let instant = travel.instant { sequence = min(sequence, try ledger.sequence(recordedBy: instant)) }
            let recordedAt = sequence == 0 ? nil : try ledger.event(at: sequence)?.recordedAt
            past = Past(sequence: sequence, recordedAt: recordedAt, instant: travel.instant)
            today = ledger.localDay(travel.instant ?? recordedAt ?? context.now ?? ledger.clock.now())
        } else {
            past = nil
            today = ledger.localDay(context.now ?? ledger.clock.now())
        }
    }

    /// Whether an event of this sequence belongs to the state shown.
    func includes(_ sequence: UInt64) -> Bool {
        guard let past else { return true }
        return sequence <= past.sequence
    }

    /// The past's figures, replayed on the first read that needs them.
    private func replay(through sequence: UInt64) throws -> Ledger.ReplayedState {
        if let replayed { return replayed }
        let state = try ledger.replayedState(through: sequence, figures: figures)
        replayed = state
        return state
    }

    /// The daily records of a range (days with data only).
    func days(from first: CivilDate?, through last: CivilDate?) throws -> [DailyRecord] {
        guard let past else { return try DailyDocument(ledger, from: first, through: last).days }
        return try replay(through: past.sequence).days(from: first, through: last)
    }

    /// One measure of a day down to its samples, as it stood.
    func explain(day: CivilDate, measure: Measure, offset: Int, limit: Int) throws -> DailyExplainDocument {
        let replayed = try past.map { try replay(through: $0.sequence) }
        return try DailyExplainDocument(ledger, day: day, measures: [measure], offset: offset, limit: limit, replayed: replayed)
    }

    /// The latest day with a daily record, not after today: one cursor step on the stored
    /// state or on the replay's.
    func lastDayWithData() throws -> CivilDate? {
        guard let past else { return try ledger.lastDayWithRecord(through: today) }
        return try replay(through: past.sequence).lastDayWithRecord(through: today)
    }

    /// The day the pages end on: the latest day with a daily record or a run's start, not
    /// after today (today when there is neither), so that an old export still shows its weeks.
    func lastActiveDay() throws -> CivilDate {
        let lastRun = try workouts(through: today).last.map { ledger.localDay($0.start) }
        let lastRecord = try lastDayWithData()
        return [lastRun, lastRecord].compactMap { $0 }.max() ?? today
    }

    /// The shoes, sorted by name.
    func shoes() throws -> [ShoeView] {
        guard let past else { return try ShoesDocument(ledger).shoes }
        return try replay(through: past.sequence).shoes()
    }

    /// The points account and history.
    func points() throws -> PointsStatement {
        guard let past else { return try PointsDocument(ledger).statement }
        return try replay(through: past.sequence).statement()
    }

    /// The workouts recorded by then, by start. Their shoes are today's: in the past, a
    /// shoe's runs come from its audit (see ``runs(of:)``).
    func workouts(from first: CivilDate? = nil, through last: CivilDate? = nil, unassignedOnly: Bool = false) throws -> [Workout] {
        if everyWorkout == nil { everyWorkout = try WorkoutsDocument(ledger).workouts.filter { includes($0.recordedSequence) } }
        guard first != nil || last != nil || unassignedOnly else { return everyWorkout ?? [] }
        return (everyWorkout ?? []).filter { workout in
            let day = ledger.localDay(workout.start)
            return (first.map { $0 <= day } ?? true) && (last.map { day <= $0 } ?? true)
                && (!unassignedOnly || (workout.shoe == nil && workout.runOf == nil))
        }
    }

    /// A shoe's audit as it stood: the steps up to the past's sequence (each step is one
    /// event, so the prefix is the audit of then, and its last total the figure of then).
    func audit(of shoe: ShoeView) throws -> [ShoeAuditDocument.Step] {
        try ShoeAuditDocument(ledger, shoe: ShoeID.text(shoe.shoe.id)).steps.filter { includes($0.entry.sequence) }
    }

    /// The workouts on a shoe as they stood, folded from its audit: an assignment puts a
    /// run on it, an unassignment or a move takes it off.
    func runs(of shoe: ShoeView) throws -> Set<UInt128> {
        var runs: Set<UInt128> = []
        for step in try audit(of: shoe) {
            guard let workout = step.entry.workout else { continue }
            switch step.entry.kind {
            case .assigned: runs.insert(workout)
            case .unassigned, .movedToAnotherShoe, .countedAsCopy: runs.remove(workout)
            case .registered, .distanceReplaced, .copyNoted: break
            }
        }
        return runs
    }

    /// The outbox as it stood, oldest first.
    func notifications() throws -> [ShoeMileage.Notification] {
        try NotificationsDocument(ledger).notifications.filter { includes($0.sequence) }
    }

    /// The journal as it stood, oldest first.
    func journal() throws -> [JournalLine] {
        try JournalDocument(ledger).entries.filter { includes($0.sequence) }
    }
}
