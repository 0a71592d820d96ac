import StrideEvents
import Testing

/// The one rule that leaves a sample out of the figures, as the ingest summary and the daily
/// records both apply it. Hand-written cases, the control-character ones first: a listed
/// unit or sleep value is trusted without a scan, everything else is scanned.
@Suite("Sample quality")
struct SampleQualityTests {
    static let start = Timestamp(secondsSince1970: 1_714_550_400)

    static func facts(_ type: String, _ value: SampleValue, unit: String?, minutes: Int64 = 5) -> SampleFacts {
        SampleFacts(
            healthType: type, deviceClass: .watch, value: value, unit: unit, start: start,
            end: start.adding(milliseconds: minutes * 60_000))
    }

    static let cases: [(String, SampleFacts, String?)] = [
        (
            "a control character in an unlisted type's unit", facts("HKQuantityTypeIdentifierDietaryWater", .number(250), unit: "mL\u{7F}"),
            "it holds a control character"
        ),
        (
            "a control character in a category's text value",
            facts("HKCategoryTypeIdentifierMindfulSession", .text("HKCategoryValue\u{1}"), unit: nil), "it holds a control character"
        ),
        ("a tab is not a control character here", facts("HKCategoryTypeIdentifierMindfulSession", .text("a\tb"), unit: nil), nil),
        (
            "a control character in a listed type's unit: the unit is unknown",
            facts("HKQuantityTypeIdentifierStepCount", .number(10), unit: "count\u{0}"),
            "its unit \"count\u{0}\" is unknown for HKQuantityTypeIdentifierStepCount"
        ),
        (
            "a control character in a sleep value: the value is unknown",
            facts("HKCategoryTypeIdentifierSleepAnalysis", .text("HKCategoryValueSleepAnalysisAsleepCore\u{1B}"), unit: nil),
            "its sleep value \"HKCategoryValueSleepAnalysisAsleepCore\u{1B}\" is unknown"
        ),
        (
            "a control character in a sleep sample's unit",
            facts("HKCategoryTypeIdentifierSleepAnalysis", .text("HKCategoryValueSleepAnalysisAsleepCore"), unit: "\u{7}"),
            "it holds a control character"
        ),
        ("a heart rate as exported", facts("HKQuantityTypeIdentifierHeartRate", .number(61), unit: "count/min", minutes: 0), nil),
        ("a distance in miles", facts("HKQuantityTypeIdentifierDistanceWalkingRunning", .number(1.2), unit: "mi"), nil),
        ("steps whose value is text", facts("HKQuantityTypeIdentifierStepCount", .text("many"), unit: "count"), "its value is not a number"),
        (
            "a sample that ends before it starts", facts("HKQuantityTypeIdentifierStepCount", .number(10), unit: "count", minutes: -1),
            "it ends before it starts"
        ),
        ("an iOS 8 sleep value, 1: asleep", facts(sleep, .number(1), unit: "", minutes: 480), nil),
        ("a sleep value out of HealthKit's range", facts(sleep, .number(6), unit: nil), "its sleep value \"6\" is unknown"),
        ("a sleep value that is not whole", facts(sleep, .number(1.5), unit: nil), "its sleep value \"1.5\" is unknown"),
        ("a sleep sample of 48 hours", facts(sleep, .number(0), unit: nil, minutes: 48 * 60), nil),
        (
            "a sleep sample a minute over 48 hours", facts(sleep, .number(0), unit: nil, minutes: 48 * 60 + 1),
            "it spans more than 48 hours, too long for HKCategoryTypeIdentifierSleepAnalysis: no night's sleep lasts that long"
        ),
        (
            "a day's heart rate on the day the clocks go back",
            facts("HKQuantityTypeIdentifierHeartRate", .number(61), unit: "count/min", minutes: 25 * 60), nil
        ),
        (
            "a resting heart rate over 25 hours",
            facts("HKQuantityTypeIdentifierRestingHeartRate", .number(50), unit: "count/min", minutes: 25 * 60 + 1),
            "it spans more than 25 hours, too long for HKQuantityTypeIdentifierRestingHeartRate: its samples cover a day at most"
        ),
        ("a week's steps", facts("HKQuantityTypeIdentifierStepCount", .number(70_000), unit: "count", minutes: 7 * 24 * 60 + 60), nil),
        (
            "energy over 8 days", facts("HKQuantityTypeIdentifierActiveEnergyBurned", .number(9), unit: "kcal", minutes: 8 * 24 * 60 + 1),
            "it spans more than 8 days, too long for HKQuantityTypeIdentifierActiveEnergyBurned: apps write at most weekly totals"
        ),
        (
            "distance from the year 1 to 9999",
            SampleFacts(
                healthType: "HKQuantityTypeIdentifierDistanceWalkingRunning", deviceClass: .phone, value: .number(1), unit: "km",
                start: Timestamp(millisecondsSince1970: -62_135_596_800_000), end: Timestamp(millisecondsSince1970: 253_402_300_799_000)),
            "it spans more than 8 days, too long for HKQuantityTypeIdentifierDistanceWalkingRunning: apps write at most weekly totals"
        ),
        ("a type no figure reads takes any span", facts("HKQuantityTypeIdentifierBodyMass", .number(70), unit: "kg", minutes: 5_000_000), nil),
    ]

    static let sleep = "HKCategoryTypeIdentifierSleepAnalysis"

    @Test("HealthKit's raw sleep values, as iOS 8 and 9 exports wrote them, are its named ones")
    func rawSleepValues() {
        let named: [SleepValue?] = [.inBed, .asleepUnspecified, .awake, .asleepCore, .asleepDeep, .asleepREM]
        #expect((0...5).map { SleepValue(.number(Double($0))) } == named)
        #expect(SleepValue(.number(-1)) == nil)
        // Those exports left out a value of 0.
        #expect(SleepValue(.absent) == .inBed)
        #expect(SleepValue(.number(6)) == nil)
        #expect(SleepValue(.text("HKCategoryValueSleepAnalysisAwake")) == .awake)
    }

    @Test(
        "each sleep value is written by its name and read back from it, as the Health app exports it",
        arguments: [
            (SleepValue.inBed, "HKCategoryValueSleepAnalysisInBed"), (.asleepUnspecified, "HKCategoryValueSleepAnalysisAsleepUnspecified"),
            (.asleepCore, "HKCategoryValueSleepAnalysisAsleepCore"), (.asleepDeep, "HKCategoryValueSleepAnalysisAsleepDeep"),
            (.asleepREM, "HKCategoryValueSleepAnalysisAsleepREM"), (.awake, "HKCategoryValueSleepAnalysisAwake"),
        ])
    func sleepValueNames(value: SleepValue, name: String) {
        #expect(value.identifier == name)
        #expect(SleepValue(name) == value)
        #expect(SleepValue(.text(name)) == value)
    }

    @Test("the deprecated Asleep is asleep with no stage; a name not listed is no sleep value")
    func otherSleepNames() {
        #expect(SleepValue("HKCategoryValueSleepAnalysisAsleep") == .asleepUnspecified)
        #expect(SleepValue("HKCategoryValueSleepAnalysisAsleepLight") == nil)
        #expect(SleepValue("") == nil)
    }

    @Test("each case gives its reason, or none", arguments: cases)
    func reason(_ name: String, _ sample: SampleFacts, _ expected: String?) {
        #expect(SampleQuality.problem(with: sample, recordedAt: Self.start.adding(milliseconds: 86_400_000)) == expected, "\(name)")
    }

    static let heartRate = "HKQuantityTypeIdentifierHeartRate"
    static let steps = "HKQuantityTypeIdentifierStepCount"
    static let distance = "HKQuantityTypeIdentifierDistanceWalkingRunning"
    static let energy = "HKQuantityTypeIdentifierActiveEnergyBurned"

    /// Values and rates at the edges of their plausible ranges, hand-computed.
    static let rangeCases: [(String, SampleFacts, String?)] = [
        ("a heart rate of 20, the lowest believed", facts(heartRate, .number(20), unit: "count/min", minutes: 0), nil),
        (
            "a heart rate of 19.9", facts(heartRate, .number(19.9), unit: "count/min", minutes: 0),
            "its value 19.9 beats a minute is outside 20 to 300 beats a minute: no human heart beats outside it"
        ),
        ("a heart rate of 300", facts(heartRate, .number(300), unit: "count/min", minutes: 0), nil),
        (
            "a heart rate of 1e17, as one push sent", facts(heartRate, .number(1e17), unit: "count/min", minutes: 0),
            "its value 1e+17 beats a minute is outside 20 to 300 beats a minute: no human heart beats outside it"
        ),
        (
            "a resting heart rate of 201", facts("HKQuantityTypeIdentifierRestingHeartRate", .number(201), unit: "count/min", minutes: 0),
            "its value 201 beats a minute is outside 20 to 200 beats a minute: no resting heart beats outside it"
        ),
        ("a day's 30,000 steps written as an instant: no rate to judge", facts(steps, .number(30_000), unit: "count", minutes: 0), nil),
        ("250,000 steps in a day", facts(steps, .number(250_000), unit: "count", minutes: 24 * 60), nil),
        (
            "250,001 steps", facts(steps, .number(250_001), unit: "count", minutes: 24 * 60),
            "its value 250,001 steps is outside 0 to 250,000 steps: no one walks more in a day"
        ),
        ("negative steps", facts(steps, .number(-1), unit: "count"), "its value -1 steps is outside 0 to 250,000 steps: no one walks more in a day"),
        ("3,000 steps in ten minutes: 5 a second", facts(steps, .number(3_000), unit: "count", minutes: 10), nil),
        (
            "3,001 steps in ten minutes", facts(steps, .number(3_001), unit: "count", minutes: 10),
            "its rate of 5.002 steps a second is outside 0 to 5 steps a second: a sprinter's cadence is about 5"
        ),
        ("500 steps in nine minutes: too short a span to judge a rate", facts(steps, .number(5_000), unit: "count", minutes: 9), nil),
        ("7.5 km in ten minutes: 12.5 m a second", facts(distance, .number(7.5), unit: "km", minutes: 10), nil),
        (
            "5 miles in ten minutes", facts(distance, .number(5), unit: "mi", minutes: 10),
            "its rate of 13.41 m a second is outside 0 to 12.5 m a second: no one runs faster"
        ),
        (
            "351 km in a day", facts(distance, .number(351), unit: "km", minutes: 24 * 60),
            "its value 351,000 m is outside 0 to 350,000 m: no one runs farther in a day"
        ),
        ("150 km written as an instant, as one real export holds", facts(distance, .number(150), unit: "km", minutes: 0), nil),
        ("500 kcal in ten minutes: 3,000 an hour", facts(energy, .number(500), unit: "kcal", minutes: 10), nil),
        (
            "2,100 kJ in ten minutes", facts(energy, .number(2_100), unit: "kJ", minutes: 10),
            "its rate of 3011 kcal an hour is outside 0 to 3,000 kcal an hour: no one burns faster for long"
        ),
        (
            "20,001 kcal", facts(energy, .number(20_001), unit: "kcal", minutes: 0),
            "its value 20,001 kcal is outside 0 to 20,000 kcal: no one burns more in a day"
        ),
        ("a body mass of 1e17: no figure reads it", facts("HKQuantityTypeIdentifierBodyMass", .number(1e17), unit: "kg"), nil),
    ]

    @Test("values and rates: at the edge believed, past it left out with the range named", arguments: rangeCases)
    func ranges(_ name: String, _ sample: SampleFacts, _ expected: String?) {
        #expect(SampleQuality.problem(with: sample, recordedAt: Self.start.adding(milliseconds: 86_400_000)) == expected, "\(name)")
    }

    @Test("dates: from 2000-01-01 to ten minutes after the clock that recorded the sample")
    func dates() {
        let sample = Self.facts(Self.steps, .number(10), unit: "count")
        // Recorded at `start`: a sample starting ten minutes later is believed, a millisecond more is not.
        let tenMinutesEarlier = Self.start.adding(milliseconds: -10 * 60_000)
        #expect(SampleQuality.problem(with: sample, recordedAt: tenMinutesEarlier) == nil)
        #expect(
            SampleQuality.problem(with: sample, recordedAt: tenMinutesEarlier.adding(milliseconds: -1))
                == "it starts after the clock that recorded it (\(tenMinutesEarlier.adding(milliseconds: -1))), more than ten minutes ahead")
        var early = sample
        early.start = Timestamp(millisecondsSince1970: 946_684_800_000 - 1)
        early.end = early.start
        #expect(
            SampleQuality.problem(with: early, recordedAt: Self.start) == "it starts before 2000-01-01, before any device a runner has recorded")
        early.start = Timestamp(millisecondsSince1970: 946_684_800_000)
        early.end = early.start
        #expect(SampleQuality.problem(with: early, recordedAt: Self.start) == nil)
    }
}
