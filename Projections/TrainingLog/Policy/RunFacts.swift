import StrideEvents

/// What the training log keeps of one run's stream: everything its figures need, whatever the
/// runner's heart-rate settings (those change, and a change reaches back), so that the stream
/// is read once, when it is recorded. Pure.
public struct RunFacts: Sendable, Hashable {
    /// The best effort over each of ``BestEffortPolicy/Distance/all`` the run covers.
    public struct Effort: Sendable, Hashable {
        /// `5k`: the distance's name.
        public var distance: String
        /// Seconds from the run's start to the effort's start and end.
        public var startSeconds: Double
        public var endSeconds: Double
        public var seconds: Double { endSeconds - startSeconds }

        public init(distance: String, startSeconds: Double, endSeconds: Double) {
            self.distance = distance
            self.startSeconds = startSeconds
            self.endSeconds = endSeconds
        }
    }

    /// The sequence of the `workout.streamRecorded` event read.
    public var sequence: UInt64
    /// Where the stream was read (the file, and the session or track in it).
    public var source: String
    /// When the stream starts.
    public var start: Timestamp
    /// Readings, and the seconds from the first to the last.
    public var readings: Int
    public var seconds: Double
    /// Seconds in motion (see ``moving(_:)``).
    public var movingSeconds: Double
    /// Metres climbed (see ``climb(_:)``).
    public var climbMetres: Double
    /// The best efforts, in the order of ``BestEffortPolicy/Distance/all``.
    public var efforts: [Effort]
    /// How long the heart rate held each value; empty when the file has none.
    public var heartRate: [HeartRateTime]

    public init(
        sequence: UInt64, source: String, start: Timestamp, readings: Int, seconds: Double, movingSeconds: Double, climbMetres: Double,
        efforts: [Effort], heartRate: [HeartRateTime]
    ) {
        self.sequence = sequence
        self.source = source
        self.start = start
        self.readings = readings
        self.seconds = seconds
        self.movingSeconds = movingSeconds
        self.climbMetres = climbMetres
        self.efforts = efforts
        self.heartRate = heartRate
    }

    /// The facts of a stream.
    public init(_ stream: RunStreamCodec, sequence: UInt64, source: String) {
        let run = RunStream(stream.readings)
        self.init(
            sequence: sequence, source: source, start: stream.start, readings: stream.readings.count,
            seconds: max(0, (stream.readings.last?.seconds ?? 0) - (stream.readings.first?.seconds ?? 0)),
            movingSeconds: Self.moving(run), climbMetres: Self.climb(run),
            efforts: zip(BestEffortPolicy.Distance.all, BestEffortPolicy.best(run, over: BestEffortPolicy.Distance.all)).compactMap {
                distance, best in
                best.map { Effort(distance: distance.name, startSeconds: $0.startSeconds, endSeconds: $0.endSeconds) }
            },
            heartRate: TrainingHeartRate.timeAtHeartRates(run))
    }

    /// The slowest pace that is still moving: 0.5 m/s (a slow walk is 1 m/s).
    public static let slowestMoving = 0.5

    /// Seconds in motion: each stretch between two readings, at most 10 s
    /// (``RunStream/longestHold``), in which the distance grew at ``slowestMoving`` or faster;
    /// a stream without distances is in motion throughout (each reading holding, as ever, at
    /// most 10 s). A watch's auto-pause writes no readings, so its pauses are not counted.
    public static func moving(_ stream: RunStream) -> Double {
        let readings = stream.readings
        guard readings.count >= 2 else { return 0 }
        let hasDistance = readings.contains { $0.metres != nil }
        var total = 0.0
        for index in 1..<readings.count {
            let took = readings[index].seconds - readings[index - 1].seconds
            guard took > 0 else { continue }
            if hasDistance {
                guard let from = readings[index - 1].metres, let to = readings[index].metres, (to - from) / took >= slowestMoving else { continue }
            }
            total += min(took, RunStream.longestHold)
        }
        return total
    }

    /// A climb is counted once the altitude has risen this far above the lowest point since
    /// the last counted rise: a GPS or barometer's noise of a metre or two climbs nothing.
    public static let climbStep = 3.0

    /// Metres climbed: the rises of the altitude, each counted once it reaches ``climbStep``
    /// above where it last turned upwards.
    public static func climb(_ stream: RunStream) -> Double {
        var total = 0.0
        var reference: Double?
        for reading in stream.readings {
            guard let altitude = reading.altitude, altitude.isFinite else { continue }
            guard let base = reference else {
                reference = altitude
                continue
            }
            if altitude >= base + climbStep {
                total += altitude - base
                reference = altitude
            } else if altitude < base {
                reference = altitude
            }
        }
        return total
    }
}
