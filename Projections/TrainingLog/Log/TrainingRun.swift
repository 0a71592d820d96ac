import StrideEvents

/// One run as the training log counts it: once, from its best copy, at its start, with that
/// copy's distance, its stream's facts (those of the best copy that has a stream) and the
/// heart-rate settings that held on its day. Built by the ledger from the mileage's workouts
/// and this projection's rows; the figures below are pure functions of a list of these.
public struct TrainingRun: Sendable, Hashable {
    /// The run's own record (the workout it is counted under).
    public var workout: UInt128
    /// Its other copies (a watch's file, the Health app, an archive).
    public var copies: [UInt128]
    /// The sequence that recorded it.
    public var recordedSequence: UInt64
    /// When it started and ended, and its local day.
    public var start: Timestamp
    public var end: Timestamp
    public var day: CivilDate
    /// The distance it counts, in kilometres, and where that came from.
    public var kilometres: Double
    public var distanceSource: String
    /// The app or device that recorded the counted copy.
    public var sourceName: String
    /// The shoe it is on, by name; nil on none.
    public var shoe: String?
    /// Its sport (``RunSport``): `road`, `trail`, `treadmill`, `track` or `virtual`.
    public var sport: String
    /// The workout whose stream counts, and that stream's facts; nil without a stream.
    public var streamWorkout: UInt128?
    public var facts: RunFacts?
    /// How long the heart rate held each value: the stream's, else the Health app's samples
    /// from a watch during the run; empty without either.
    public let heartRate: [HeartRateTime]
    /// Where the heart rate came from: `stream`, `health samples` or nil.
    public var heartRateSource: String?
    /// The settings on its day.
    public let maximumHeartRate: AthleteSettings.Figure
    public let restingHeartRate: AthleteSettings.Figure
    /// Banister's TRIMP with the settings of its day (computed once, with the run).
    public let trimp: Double
    /// Seconds in each zone (index 0 is Z1) with the maximum of its day (computed once).
    public let secondsInZones: [Double]

    public init(
        workout: UInt128, copies: [UInt128], recordedSequence: UInt64, start: Timestamp, end: Timestamp, day: CivilDate, kilometres: Double,
        distanceSource: String, sourceName: String, shoe: String?, sport: String = "road", streamWorkout: UInt128?, facts: RunFacts?,
        heartRate: [HeartRateTime],
        heartRateSource: String?, maximumHeartRate: AthleteSettings.Figure, restingHeartRate: AthleteSettings.Figure
    ) {
        self.workout = workout
        self.copies = copies
        self.recordedSequence = recordedSequence
        self.start = start
        self.end = end
        self.day = day
        self.kilometres = kilometres
        self.distanceSource = distanceSource
        self.sourceName = sourceName
        self.shoe = shoe
        self.sport = sport
        self.streamWorkout = streamWorkout
        self.facts = facts
        self.heartRate = heartRate
        self.heartRateSource = heartRateSource
        self.maximumHeartRate = maximumHeartRate
        self.restingHeartRate = restingHeartRate
        trimp = TrainingHeartRate.trimp(heartRate, resting: restingHeartRate.value, maximum: maximumHeartRate.value)
        secondsInZones = TrainingHeartRate.secondsInZones(heartRate, maximum: maximumHeartRate.value)
    }

    /// Seconds from start to end, pauses included.
    public var elapsedSeconds: Double { Double(end.millisecondsSince1970 - start.millisecondsSince1970) / 1000 }
    /// Seconds in motion: the stream's, else the elapsed time.
    public var movingSeconds: Double { facts?.movingSeconds ?? elapsedSeconds }
    /// Metres climbed, from the stream (0 without one).
    public var climbMetres: Double { facts?.climbMetres ?? 0 }
}
