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
    /// Why it is left out of the figures; empty when it counts.
    public var leftOut: LeftOut

    /// Creates a fact.
    public init(
        start: Timestamp, end: Timestamp, value: Double, deviceClass: DeviceClass, sleep: SleepValue? = nil, sequence: UInt64 = 0,
        syncEntity: UInt128? = nil, leftOut: LeftOut = []
    ) {
        self.start = start
        self.end = end
        self.value = value
        self.deviceClass = deviceClass
        self.sleep = sleep
        self.sequence = sequence
        self.syncEntity = syncEntity
        self.leftOut = leftOut
    }

    /// Whether it counts in the figures.
    public var counts: Bool { leftOut.isEmpty }
}

/// Why a sample's fact is kept beside the day's figures but left out of them (`daily explain`
/// shows it with its reason). Several may hold at once: restoring a withdrawn sample with odd
/// content leaves it out still.
public struct LeftOut: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Odd content (see ``SampleQuality``): kept on its first day only.
    public static let odd = LeftOut(rawValue: 1)
    /// Withdrawn: deleted in Health, or rejected by the runner (`sample.withdrawn`).
    public static let withdrawn = LeftOut(rawValue: 2)
    /// A repeat of a sample recorded before it (`sample.repeated`).
    public static let repeated = LeftOut(rawValue: 4)
}

/// What the daily records read from a sample: which measure it feeds.
public enum Measure: UInt8, CaseIterable, Sendable {
    case sleep = 0
    case heartRate = 1
    case restingHeartRate = 2
    case steps = 3
    case distance = 4
    case activeEnergy = 5

    /// The measure samples of a HealthKit type feed, by the type's catalog code; nil for the
    /// types no figure reads.
    public static func of(typeCode: UInt64) -> Measure? {
        switch typeCode {
        case HealthTypeCatalog.sleepAnalysis: .sleep
        case HealthTypeCatalog.heartRate: .heartRate
        case HealthTypeCatalog.restingHeartRate: .restingHeartRate
        case HealthTypeCatalog.stepCount: .steps
        case HealthTypeCatalog.distanceWalkingRunning: .distance
        case HealthTypeCatalog.activeEnergyBurned: .activeEnergy
        default: nil
        }
    }

    /// The measure a sample feeds and its value in Stride's units; nil when it feeds none,
    /// or when ``SampleQuality`` leaves it out (`recordedAt`: when the log recorded it).
    public static func reading(_ sample: SampleFacts, recordedAt: Timestamp) -> (measure: Measure, value: Double, sleep: SleepValue?)? {
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
        guard SampleQuality.problem(with: sample, recordedAt: recordedAt) == nil else { return nil }
        return reading
    }
}

/// The facts of one local day: the samples of each measure that touch it (for sleep, those
/// overlapping its 18:00–18:00 window), in the order they were recorded — those that count,
/// and apart those kept but left out.
public struct DayFacts: Hashable, Sendable {
    /// Facts that count, by measure.
    public var facts: [[Fact]] = Array(repeating: [], count: Measure.allCases.count)
    /// Facts left out of the figures, by measure.
    public var leftOut: [[Fact]] = Array(repeating: [], count: Measure.allCases.count)
    /// The last sequence that changed the day.
    public var lastSequence: UInt64 = 0

    /// Creates empty facts.
    public init() {}

    /// The facts of one measure that count.
    public subscript(measure: Measure) -> [Fact] {
        get { facts[Int(measure.rawValue)] }
        set { facts[Int(measure.rawValue)] = newValue }
    }

    /// Adds a row's facts of `measure`, each where it belongs.
    mutating func add(_ rowFacts: [Fact], of measure: Measure) {
        let index = Int(measure.rawValue)
        guard rowFacts.contains(where: { !$0.leftOut.isEmpty }) else {
            facts[index] += rowFacts
            return
        }
        for fact in rowFacts {
            if fact.leftOut.isEmpty { facts[index].append(fact) } else { leftOut[index].append(fact) }
        }
    }

    /// The facts of one measure left out of the figures.
    public func leftOut(of measure: Measure) -> [Fact] { leftOut[Int(measure.rawValue)] }

    /// Whether any fact counts.
    public var hasFactsThatCount: Bool { facts.contains { !$0.isEmpty } }

    /// Whether the day has any fact, counted or left out.
    public var hasAnyFact: Bool { hasFactsThatCount || leftOut.contains { !$0.isEmpty } }
}
