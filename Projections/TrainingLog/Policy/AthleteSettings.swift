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

    private func holding(on day: CivilDate, _ figure: KeyPath<Change, Double?>) -> Figure? {
        var best: Change?
        for change in changes where change[keyPath: figure] != nil {
            if let from = change.from, from > day { continue }
            // The latest day wins; all time (nil) is earliest; a tie goes to the later recorded.
            if let held = best, let heldFrom = held.from, (change.from.map { $0 < heldFrom } ?? true) { continue }
            best = change
        }
        return best.flatMap { change in change[keyPath: figure].map { Figure(value: $0, change: change) } }
    }

    /// The days on which any setting changes (dated changes), sorted: the figures hold still
    /// between two of them.
    public var changeDays: [CivilDate] { Array(Set(changes.compactMap(\.from))).sorted() }
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
