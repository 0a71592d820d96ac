import StrideEvents

/// The runner's heart-rate settings over time, as set (`athlete.settingsChanged`), and the one
/// that holds on a day. Pure.
///
/// A change holds from its day until the next dated change; one without a day holds for all
/// time before any dated change. Of two changes from the same day, the later recorded holds.
/// Each figure (maximum, resting) is resolved on its own: a change that sets one leaves the
/// other as it was.
public struct AthleteSettings: Sendable, Hashable {
    /// One change, as recorded.
    public struct Change: Sendable, Hashable {
        public var sequence: UInt64
        public var recordedAt: Timestamp
        public var from: CivilDate?
        public var maximumHeartRate: Double?
        public var restingHeartRate: Double?
        public var sentBy: String?

        public init(
            sequence: UInt64, recordedAt: Timestamp, from: CivilDate?, maximumHeartRate: Double?, restingHeartRate: Double?,
            sentBy: String? = nil
        ) {
            self.sequence = sequence
            self.recordedAt = recordedAt
            self.from = from
            self.maximumHeartRate = maximumHeartRate
            self.restingHeartRate = restingHeartRate
            self.sentBy = sentBy
        }
    }

    /// The changes, in the order recorded.
    public var changes: [Change]

    public init(changes: [Change] = []) {
        self.changes = changes
    }

    /// A figure as it holds on a day: its value, and the change that set it (nil for an
    /// estimate).
    public struct Figure: Sendable, Hashable {
        public var value: Double
        public var change: Change?
        /// How an estimate was made; nil for a figure the runner set.
        public var estimate: String?

        public init(value: Double, change: Change?, estimate: String? = nil) {
            self.value = value
            self.change = change
            self.estimate = estimate
        }

        /// Whether Stride estimated it.
        public var isEstimated: Bool { change == nil }
    }

    /// The maximum heart rate the runner set for a day, if any change covers it.
    public func maximumHeartRate(on day: CivilDate) -> Figure? {
        holding(on: day, \.maximumHeartRate)
    }

    /// The resting heart rate the runner set for a day, if any change covers it.
    public func restingHeartRate(on day: CivilDate) -> Figure? {
        holding(on: day, \.restingHeartRate)
    }

    /// `day` nil: the days before any dated change.
    private func holding(on day: CivilDate?, _ figure: KeyPath<Change, Double?>) -> Figure? {
        var best: Change?
        for change in changes where change[keyPath: figure] != nil {
            if let from = change.from {
                guard let day, from <= day else { continue }
            }
            // The latest day wins; all time (nil) is earliest; a tie goes to the later recorded.
            if let held = best, let heldFrom = held.from, (change.from.map { $0 < heldFrom } ?? true) { continue }
            best = change
        }
        return best.flatMap { change in change[keyPath: figure].map { Figure(value: $0, change: change) } }
    }

    /// The days on which any setting changes (dated changes), sorted: the figures hold still
    /// between two of them.
    public var changeDays: [CivilDate] { Array(Set(changes.compactMap(\.from))).sorted() }

    /// Why a pair of settings in force on some days makes no sense.
    public enum Problem: Sendable, Hashable {
        /// The maximum is not above the resting rate: the heart-rate reserve is none, and every
        /// TRIMP would be 0.
        case noReserve
        /// A figure lies outside its plausible range (a value an earlier Stride accepted).
        case maximumOutOfRange, restingOutOfRange
    }

    /// A stretch of days on which the settings would make no sense.
    public struct Inconsistency: Sendable, Hashable {
        /// The stretch's first day; nil for the days before any dated change (all time, when
        /// there is none).
        public var from: CivilDate?
        public var problem: Problem
        /// The figures in force there.
        public var maximum: Figure?
        public var resting: Figure?
    }

    /// The first stretch of days on which `change`, once added, holds a figure and the pair in
    /// force makes no sense — a maximum not above the resting rate, or a figure outside its
    /// plausible range — or nil when every day it reaches stays consistent.
    ///
    /// The whole timeline is checked, not only the change's first day: an undated resting
    /// rate reaches every day no dated change of its own covers, dated maximums included.
    public func inconsistency(adding change: Change) -> Inconsistency? {
        let settings = AthleteSettings(changes: changes + [change])
        let stretches: [CivilDate?] = [nil] + settings.changeDays.map { $0 }
        for from in stretches {
            let maximum = settings.holding(on: from, \.maximumHeartRate)
            let resting = settings.holding(on: from, \.restingHeartRate)
            guard maximum?.change == change || resting?.change == change else { continue }
            let problem: Problem? =
                if let maximum, !Plausible.maximumHeartRateSetting.contains(maximum.value) {
                    .maximumOutOfRange
                } else if let resting, !Plausible.restingHeartRateSetting.contains(resting.value) {
                    .restingOutOfRange
                } else if let maximum, let resting, maximum.value <= resting.value {
                    .noReserve
                } else {
                    nil
                }
            if let problem { return Inconsistency(from: from, problem: problem, maximum: maximum, resting: resting) }
        }
        return nil
    }
}

/// Heart-rate settings a runner has not set, estimated from the ledger. Pure.
public enum AthleteEstimate {
    /// A maximum is the highest heart rate a run held for this long in all: a spike of a
    /// second or two is a strap's noise, not the runner's heart.
    public static let sustainedSeconds = 10.0
    /// Assumed when no run has a heart rate: a common maximum.
    public static let assumedMaximum = 190.0
    /// Assumed when the ledger has no resting heart rate.
    public static let assumedResting = 60.0
    /// The resting rate is estimated from the days of this many of the latest runs.
    public static let restingDays = 90

    /// The highest heart rate any run held for ``sustainedSeconds`` in all (its readings at or
    /// above it), or nil when no run has one.
    public static func maximum(_ runs: [[HeartRateTime]]) -> Double? {
        var best: Double?
        for run in runs {
            var held = 0.0
            for time in run.reversed() {
                held += time.seconds
                if held >= sustainedSeconds {
                    best = max(best ?? time.heartRate, time.heartRate)
                    break
                }
            }
        }
        return best
    }

    /// The median of the daily resting heart rates, or nil with none.
    public static func resting(_ daily: [Double]) -> Double? {
        let sorted = daily.filter(Plausible.restingHeartRate.contains).sorted()
        guard !sorted.isEmpty else { return nil }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
