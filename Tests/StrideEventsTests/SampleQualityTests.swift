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

    @Test("each case gives its reason, or none", arguments: cases)
    func reason(_ name: String, _ sample: SampleFacts, _ expected: String?) {
        #expect(SampleQuality.problem(with: sample) == expected, "\(name)")
    }
}
