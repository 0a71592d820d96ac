import StrideEvents

/// One sample as the daily records use it: its span, its value in Stride's units (metres,
/// kilocalories, beats per minute, steps), its device class, and where it came from.
public struct Fact: Hashable, Sendable {
    // The 16-byte-aligned entity first, the one-byte fields last: 64 bytes a fact instead of
    // 80, and a rebuild holds one fact per sample.
    /// Its entity, when a sync identifier identifies it (a later version replaces it).
    public var syncEntity: UInt128?
    /// When it starts.
    public var start: Timestamp
    /// When it ends.
    public var end: Timestamp
    /// Its value (for sleep, 0: the stage says it all).
    public var value: Double
    /// The sequence of its event.
    public var sequence: UInt64
    /// Its device class.
    public var deviceClass: DeviceClass
    /// The stage, for a sleep sample.
    public var sleep: SleepValue?

    /// Creates a fact.
    public init(
        start: Timestamp, end: Timestamp, value: Double, deviceClass: DeviceClass, sleep: SleepValue? = nil, sequence: UInt64 = 0,
        syncEntity: UInt128? = nil
    ) {
        self.start = start
        self.end = end
        self.value = value
        self.deviceClass = deviceClass
        self.sleep = sleep
        self.sequence = sequence
        self.syncEntity = syncEntity
    }
}

/// What the daily records read from a sample: which measure it feeds.
public enum Measure: UInt8, CaseIterable, Sendable {
    case sleep = 0
    case heartRate = 1
    case restingHeartRate = 2
    case steps = 3
    case distance = 4
    case activeEnergy = 5

    /// The measure a sample feeds and its value in Stride's units; nil when it feeds none,
    /// or when ``SampleQuality`` leaves it out.
    public static func reading(_ sample: SampleFacts) -> (measure: Measure, value: Double, sleep: SleepValue?)? {
        let reading: (measure: Measure, value: Double, sleep: SleepValue?)?
        switch sample.typeCode {
        case HealthTypeCatalog.sleepAnalysis:
            reading = SleepValue(sample.value).map { (.sleep, 0, $0) }
        case HealthTypeCatalog.heartRate:
            reading = sample.value.number.map { (.heartRate, $0, nil) }
        case HealthTypeCatalog.restingHeartRate:
            reading = sample.value.number.map { (.restingHeartRate, $0, nil) }
        case HealthTypeCatalog.stepCount:
            reading = sample.value.number.map { (.steps, $0, nil) }
        case HealthTypeCatalog.distanceWalkingRunning:
            reading = sample.value.number.flatMap { value in
                HealthUnits.metres(per: sample.unit ?? "m").map { (.distance, value * $0, nil) }
            }
        case HealthTypeCatalog.activeEnergyBurned:
            reading = sample.value.number.flatMap { value in
                HealthUnits.kilocalories(per: sample.unit ?? "kcal").map { (.activeEnergy, value * $0, nil) }
            }
        default:
            // Types no measure reads are not checked for quality: most samples are of them.
            return nil
        }
        guard SampleQuality.problem(with: sample) == nil else { return nil }
        return reading
    }
}

/// The facts of one local day: the samples of each measure that touch it (for sleep, those
/// overlapping its 18:00–18:00 window), in the order they were recorded.
public struct DayFacts: Hashable, Sendable {
    /// Facts by measure.
    public var facts: [[Fact]] = Array(repeating: [], count: Measure.allCases.count)
    /// The last sequence that changed the day.
    public var lastSequence: UInt64 = 0

    /// Creates empty facts.
    public init() {}

    /// The facts of one measure.
    public subscript(measure: Measure) -> [Fact] {
        get { facts[Int(measure.rawValue)] }
        set { facts[Int(measure.rawValue)] = newValue }
    }

}
