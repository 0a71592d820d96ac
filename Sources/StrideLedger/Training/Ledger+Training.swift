import DailyHealth
import Foundation
import ShoeMileage
import StrideEvents
import StrideProjection
import StrideStore
import Synchronization
import TrainingLog

/// The training log as the ledger reads it: every run once, from its best copy (the mileage's
/// runs), joined to its stream's facts and the heart-rate settings of its day.
extension Ledger {
    /// The training-log projection.
    var training: TrainingLogProjection { TrainingLogProjection() }

    /// The runs and settings behind every training-log figure, at one point in time.
    public struct TrainingView: Sendable {
        /// The runs, by start.
        public var runs: [TrainingRun]
        /// The settings, as the runner changed them.
        public var settings: AthleteSettings
        /// What holds where the runner set nothing: an estimate, and how it was made.
        public var estimatedMaximum: AthleteSettings.Figure
        public var estimatedResting: AthleteSettings.Figure
        /// The last day the figures run through: today, or the day asked for.
        public var through: CivilDate
        /// The sequence the view reads through.
        public var sequence: UInt64
        /// The rack, as the view reads it (for the shoes' outlook).
        public var shoes: [ShoeView]

        /// The runs started from `first` through `last` (local days; all when nil).
        public func runs(from first: CivilDate?, through last: CivilDate?) -> [TrainingRun] {
            runs.filter { run in (first.map { run.day >= $0 } ?? true) && (last.map { run.day <= $0 } ?? true) }
        }
    }

    /// The training log now, as of a moment of the runner's life (the runs started by then, as
    /// the ledger knows them now), or as recorded through a sequence (the events recorded by
    /// then, folded from the nearest snapshot).
    /// - Throws: a storage or projection failure.
    public func trainingView(asOf instant: Timestamp? = nil, asRecordedThrough sequence: UInt64? = nil) throws -> TrainingView {
        _ = try state(of: training)  // caught up, outside a view
        let point = try figuresPoint()
        // As recorded at or past the log's end is the present: nothing to fold.
        let recorded = sequence.flatMap { point.isCurrent && $0 >= point.logEnd ? nil : $0 }
        // The present is kept while the figures and the day are unchanged: a page and its
        // documents, or a phone's few reads, put it together once. Kept under the sequence the
        // figures stand at, and only when that is the log's end.
        guard instant == nil, recorded == nil else { return try makeTrainingView(asOf: instant, asRecordedThrough: recorded, at: point) }
        let today = try days().day(of: clock.now())
        if let kept = trainingViewCache.view(at: point.sequence, on: today) { return kept }
        let view = try makeTrainingView(asOf: nil, asRecordedThrough: nil, at: point)
        if point.isCurrent { trainingViewCache.keep(view, at: point.sequence, on: today) }
        return view
    }

    private func makeTrainingView(asOf instant: Timestamp?, asRecordedThrough sequence: UInt64?, at point: FiguresPoint) throws -> TrainingView {
        let clocks = try localClocks(asRecordedThrough: sequence.map { min($0, point.logEnd) })
        let calendar = clocks.days
        let mileageState: ProjectionState<ShoeMileageProjection>
        let trainingState: ProjectionState<TrainingLogProjection>
        let dailyState: ProjectionState<DailyHealthProjection>
        let through: UInt64
        if let sequence {
            through = min(sequence, point.logEnd)
            let rows = try store.rowsAsRecorded([mileage, training], through: through)
            mileageState = ProjectionState(mileage, source: InMemoryRows(rows[0]))
            trainingState = ProjectionState(training, source: InMemoryRows(rows[1]))
            dailyState = try recordedDaily(through: through)
        } else {
            through = point.sequence
            mileageState = try state(of: mileage)
            trainingState = try state(of: training)
            dailyState = try self.dailyState()
        }
        // Never past today: a moment asked for in the future shows today (and the load's days
        // stay bounded by the clock, whatever is asked).
        let lastDay = min(calendar.day(of: instant ?? clock.now()), calendar.day(of: clock.now()))
        // The rack as it stood then, as of a moment (its shoes' kilometres by then); as recorded,
        // the recorded state's.
        let rack = try instant.map { try shoes(asOf: $0) } ?? mileageState.shoes()
        let shoeNames = Dictionary(rack.map { ($0.shoe.id, $0.shoe.name) }, uniquingKeysWith: { first, _ in first })
        let facts = try trainingState.runFacts()
        let settings = try trainingState.settings()
        let sports = try trainingState.sports()
        let workouts = try mileageState.workouts()

        // The runs, each with the stream of its best copy that has one.
        var drafts: [(run: Workout, counted: Workout, stream: UInt128?)] = []
        for workout in workouts where workout.runOf == nil && workout.isRunning && workout.startLeftOut == nil {
            if let instant, workout.start > instant { continue }
            // The record is the run's counted copy; the stream is its own, else a copy's.
            let counted = workout
            let candidates = [workout.id] + workout.copies
            drafts.append((workout, counted, candidates.first { facts[$0] != nil }))
        }
        let estimatedMaximum = Self.estimate(
            AthleteEstimate.maximum(drafts.compactMap { $0.stream.flatMap { facts[$0]?.heartRate } }),
            how: "estimated: the highest heart rate a run held for \(Int(AthleteEstimate.sustainedSeconds)) s",
            else: AthleteEstimate.assumedMaximum, because: "assumed: no run has a heart rate to estimate it from", option: "--max-hr")
        // The resting rate on the days of the latest runs: a day's rows are found by their keys,
        // not by walking years of facts.
        var restingDays: [Double] = []
        var daysLooked: Set<CivilDate> = []
        for draft in drafts.sorted(by: { $0.counted.start > $1.counted.start }) {
            let day = clocks.day(ofStart: draft.counted.start)
            guard daysLooked.insert(day).inserted else { continue }
            if let resting = try dailyState.restingHeartRate(on: day) { restingDays.append(resting) }
            if daysLooked.count >= AthleteEstimate.restingDays { break }
        }
        let estimatedResting = Self.estimate(
            AthleteEstimate.resting(restingDays),
            how: "estimated: the median resting heart rate of \(restingDays.count) of the days of the latest \(daysLooked.count) runs",
            else: AthleteEstimate.assumedResting, because: "assumed: the ledger holds no resting heart rate", option: "--resting-hr")

        var runs: [TrainingRun] = []
        runs.reserveCapacity(drafts.count)
        for (workout, counted, stream) in drafts {
            let day = clocks.day(ofStart: counted.start)
            let streamFacts = stream.flatMap { facts[$0] }
            var heartRate = streamFacts?.heartRate ?? []
            var heartRateSource: String? = heartRate.isEmpty ? nil : "stream"
            if heartRate.isEmpty {
                heartRate = try Self.healthHeartRate(dailyState, from: counted.start, through: counted.end)
                if !heartRate.isEmpty { heartRateSource = "health samples" }
            }
            runs.append(
                TrainingRun(
                    workout: workout.id, copies: workout.copies, recordedSequence: workout.recordedSequence, start: counted.start,
                    end: counted.end, day: day, kilometres: workout.kilometers,
                    distanceSource: counted.distanceAsWritten ?? counted.distanceSource.description,
                    sourceName: counted.sourceName, shoe: workout.shoe.flatMap { shoeNames[$0] },
                    // The sport any copy names beyond a plain run (an archive's trail run recorded by the Health app too).
                    sport: ([counted.id, workout.id] + workout.copies).lazy.compactMap { sports[$0] }.first { $0 != "road" } ?? "road",
                    streamWorkout: stream,
                    facts: streamFacts, heartRate: heartRate, heartRateSource: heartRateSource,
                    maximumHeartRate: settings.maximumHeartRate(on: day) ?? estimatedMaximum,
                    restingHeartRate: settings.restingHeartRate(on: day) ?? estimatedResting))
        }
        runs.sort { $0.start < $1.start }
        return TrainingView(
            runs: runs, settings: settings, estimatedMaximum: estimatedMaximum, estimatedResting: estimatedResting, through: lastDay,
            sequence: through, shoes: rack)
    }

    /// A setting the runner has not made: the estimate and how it was made, else the assumed
    /// value and why; each says which option of `stride athlete set` ends it.
    static func estimate(_ value: Double?, how: String, else assumed: Double, because why: String, option: String) -> AthleteSettings.Figure {
        let advice = " (set it with `stride athlete set \(option)`)"
        return value.map { AthleteSettings.Figure(value: $0, change: nil, estimate: how + advice) }
            ?? AthleteSettings.Figure(value: assumed, change: nil, estimate: why + advice)
    }

    /// How long the heart rate held each value during a run, from the samples a watch wrote
    /// into the Health app then: each holds until the next, at most 10 s, as a stream's do.
    static func healthHeartRate(
        _ daily: ProjectionState<DailyHealthProjection>, from start: Timestamp, through end: Timestamp
    ) throws
        -> [HeartRateTime]
    {
        let samples = try daily.heartRateFacts(from: start, through: end).filter { $0.deviceClass == .watch }
        guard samples.count >= 2 else { return [] }
        let readings = samples.map {
            RunStream.Reading(seconds: Double($0.start.millisecondsSince1970 - start.millisecondsSince1970) / 1000, heartRate: $0.value)
        }
        return TrainingHeartRate.timeAtHeartRates(RunStream(readings))
    }
}

/// The training log's present view, kept while the log and the day are unchanged.
final class TrainingViewCache: Sendable {
    private let kept = Mutex<(sequence: UInt64, day: CivilDate, view: Ledger.TrainingView)?>(nil)

    func view(at sequence: UInt64, on day: CivilDate) -> Ledger.TrainingView? {
        kept.withLock { kept in kept.flatMap { $0.sequence == sequence && $0.day == day ? $0.view : nil } }
    }

    func keep(_ view: Ledger.TrainingView, at sequence: UInt64, on day: CivilDate) {
        kept.withLock { $0 = (sequence, day, view) }
    }
}
