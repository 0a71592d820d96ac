import DailyHealth
import PointsBalance
import ShoeMileage
import StrideContract
import StrideEvents
import StrideLedger

/// The ledger as one page reads it: as it stands; as of a moment of the runner's life
/// (the present documents, cut at that moment: see ``lived``); or as recorded at a sequence
/// of the past. Every read goes through the contract's documents; a recorded past is one
/// `ReplayDocument` (computed once, on the first read that needs it) and, for what a replay
/// does not carry, the present documents cut at the sequence.
final class PageReader {
    let ledger: Ledger
    let time: LocalTime
    /// The recorded past shown (`?asRecorded=`), nil otherwise.
    let past: Past?
    /// The moment of the runner's life shown (`?asOf=`), nil otherwise: what had happened by
    /// then, as the ledger knows it now.
    let lived: Timestamp?
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

    /// Resolves the time travel (an instant of recording becomes the last sequence recorded
    /// by then).
    /// - Throws: a storage failure.
    init(_ ledger: Ledger, context: PageContext, figures: Set<Ledger.ReplayedFigures> = Set(Ledger.ReplayedFigures.allCases)) throws {
        self.ledger = ledger
        self.figures = figures
        time = LocalTime(ledger)
        switch context.timeTravel {
        case .asOf(let instant):
            past = nil
            lived = instant
            today = ledger.localDay(instant)
        case .asRecorded(let sequence, let instant) where sequence != nil || instant != nil:
            let through = try context.timeTravel?.recordedSequence(in: ledger) ?? 0
            let recordedAt = through == 0 ? nil : try ledger.event(at: through)?.recordedAt
            past = Past(sequence: through, recordedAt: recordedAt, instant: instant)
            lived = nil
            today = ledger.localDay(instant ?? recordedAt ?? context.now ?? ledger.clock.now())
        case .asRecorded, nil:
            past = nil
            lived = nil
            today = ledger.localDay(context.now ?? ledger.clock.now())
        }
    }

    /// Whether the page shows a past of either kind (and so has no forms).
    var isPast: Bool { past != nil || lived != nil }

    /// The time the page shows, resolved: as of a moment lived, as recorded through a
    /// sequence, or nil for now.
    var timeTravel: TimeTravel? {
        if let lived { return .asOf(lived) }
        return past.map { TimeTravel(sequence: $0.sequence) }
    }

    /// Whether something recorded by this sequence and happening at `moment` belongs to the
    /// state shown.
    func includes(_ sequence: UInt64, happened moment: Timestamp) -> Bool {
        if let lived { return moment <= lived }
        return includes(sequence)
    }

    /// Whether an event of this sequence belongs to the recorded state shown.
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

    /// The daily records of a range (days with data only); as of a moment, through its day.
    func days(from first: CivilDate?, through last: CivilDate?) throws -> [DailyRecord] {
        if lived != nil {
            let end = last.map { min($0, today) } ?? today
            return first.map { end < $0 } == true ? [] : try DailyDocument(ledger, from: first, through: end).days
        }
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
        let lastRun = try workouts(through: today).last.map { ledger.day(ofRunStartingAt: $0.start) }
        let lastRecord = try lastDayWithData()
        return [lastRun, lastRecord].compactMap { $0 }.max() ?? today
    }

    /// The shoes, sorted by name.
    func shoes() throws -> [ShoeView] {
        if let lived { return try ShoesDocument(ledger, asOf: lived).shoes }
        guard let past else { return try ShoesDocument(ledger).shoes }
        return try replay(through: past.sequence).shoes()
    }

    /// The points account and history; as of a moment, the awards for days through its day
    /// and the spends made by then (``PointsStatement/asOf(day:instant:)``).
    func points() throws -> PointsStatement {
        if let lived { return try PointsDocument(ledger).statement.asOf(day: today, instant: lived) }
        guard let past else { return try PointsDocument(ledger).statement }
        return try replay(through: past.sequence).statement()
    }

    /// The workouts recorded by then (as of a moment: started by then), by start. Their
    /// shoes are today's: in a recorded past, a shoe's runs come from its audit (see
    /// ``runs(of:)``).
    func workouts(from first: CivilDate? = nil, through last: CivilDate? = nil, unassignedOnly: Bool = false) throws -> [Workout] {
        if everyWorkout == nil {
            everyWorkout = try WorkoutsDocument(ledger).workouts.filter { includes($0.recordedSequence, happened: $0.start) }
        }
        guard first != nil || last != nil || unassignedOnly else { return everyWorkout ?? [] }
        return (everyWorkout ?? []).filter { workout in
            let day = ledger.day(ofRunStartingAt: workout.start)
            return (first.map { $0 <= day } ?? true) && (last.map { day <= $0 } ?? true)
                && (!unassignedOnly || (workout.shoe == nil && workout.runOf == nil))
        }
    }

    /// A shoe's audit as it stood: the steps up to the past's sequence (each step is one
    /// event, so the prefix is the audit of then, and its last total the figure of then).
    /// As of a moment of the runner's life: today's steps about its registration and about
    /// the runs that had started by then, totals summed again; a run's steps on a shoe add up
    /// to its kilometres there now, so the last total is the figure as of then.
    func audit(of shoe: ShoeView) throws -> [ShoeAuditDocument.Step] {
        let steps = try ShoeAuditDocument(ledger, shoe: ShoeID.text(shoe.shoe.id)).steps
        guard lived != nil else { return steps.filter { includes($0.entry.sequence) } }
        // The workouts started by then, read once for the page (a page of shoes asks each shoe's audit).
        let started = Set(try workouts().map(\.id))
        var total = 0.0
        return steps.compactMap { step in
            if let workout = step.entry.workout, !started.contains(workout) { return nil }
            total += step.entry.kilometers
            return ShoeAuditDocument.Step(entry: step.entry, runningTotal: total)
        }
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

    /// The outbox as it stood (as of a moment: the notes written by then), oldest first.
    func notifications() throws -> [ShoeMileage.Notification] {
        try NotificationsDocument(ledger).notifications.filter { includes($0.sequence, happened: $0.at) }
    }

    /// The journal as it stood (as of a moment: the entries written by then), oldest first.
    func journal() throws -> [JournalLine] {
        try JournalDocument(ledger).entries.filter { includes($0.sequence, happened: $0.at) }
    }
}
