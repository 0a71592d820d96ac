import Foundation

/// A day of an Apple Watch's data, as Health Auto Export's REST automation pushes it with
/// minute grouping — steps, distance, active and basal energy per minute, heart rate every
/// five minutes (every minute when moving), resting heart rate, HRV and breathing in the
/// night, exercise minutes, the night's sleep stages — about 3,000 points, 1 MB of the app's
/// pretty-printed JSON. The same points can be written as NDJSON samples.
struct WatchDay {
    /// One value of one metric: a minute's bucket, or a sleep stage's span.
    struct Point {
        var metric: Metric
        /// Minutes after local midnight.
        var minute: Int
        /// Minutes it lasts (1 for a bucket).
        var minutes = 1
        var value: Double
        /// Heart rate's bucket: the lowest and highest beside the average in `value`.
        var range: (low: Double, high: Double)?
        /// A sleep stage: `Core`, `Deep`, `REM`, `Awake`.
        var stage: String?
    }

    /// A metric: its Health Auto Export name, its HealthKit type, its unit.
    struct Metric: Hashable {
        var name: String
        var healthType: String
        var unit: String

        static let steps = Metric(name: "step_count", healthType: "HKQuantityTypeIdentifierStepCount", unit: "count")
        static let distance = Metric(name: "walking_running_distance", healthType: "HKQuantityTypeIdentifierDistanceWalkingRunning", unit: "km")
        static let activeEnergy = Metric(name: "active_energy", healthType: "HKQuantityTypeIdentifierActiveEnergyBurned", unit: "kcal")
        static let basalEnergy = Metric(name: "basal_energy_burned", healthType: "HKQuantityTypeIdentifierBasalEnergyBurned", unit: "kcal")
        static let heartRate = Metric(name: "heart_rate", healthType: "HKQuantityTypeIdentifierHeartRate", unit: "count/min")
        static let restingHeartRate = Metric(name: "resting_heart_rate", healthType: "HKQuantityTypeIdentifierRestingHeartRate", unit: "count/min")
        static let variability = Metric(name: "heart_rate_variability", healthType: "HKQuantityTypeIdentifierHeartRateVariabilitySDNN", unit: "ms")
        static let breathing = Metric(name: "respiratory_rate", healthType: "HKQuantityTypeIdentifierRespiratoryRate", unit: "count/min")
        static let exercise = Metric(name: "apple_exercise_time", healthType: "HKQuantityTypeIdentifierAppleExerciseTime", unit: "min")
        static let sleep = Metric(name: "sleep_analysis", healthType: "HKCategoryTypeIdentifierSleepAnalysis", unit: "hr")

        static let all: [Metric] = [steps, distance, activeEnergy, basalEnergy, heartRate, restingHeartRate, variability, breathing, exercise, sleep]
    }

    static let source = "Marie’s Apple Watch"

    /// Days since 1970-01-01 of the local day.
    let day: Int
    /// The local day's offset from UTC, in minutes.
    let offsetMinutes: Int
    let points: [Point]

    /// The day `day` (days since 1970) in `timeZone`; the same day always gives the same points.
    init(day: Int, timeZone: TimeZone) {
        self.day = day
        offsetMinutes = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(day * 86_400 + 43_200))) / 60
        points = Self.plan(day: day)
    }

    private static func plan(day: Int) -> [Point] {
        var random = SplitMix(state: UInt64(day) &* 0x2545_F491_4F6C_DD1D)
        func uniform(_ range: ClosedRange<Double>) -> Double {
            range.lowerBound + Double(random.next() % 10_000) / 10_000 * (range.upperBound - range.lowerBound)
        }
        // Walks through the day, and a run on one day in three.
        var moving = [Double](repeating: 0, count: 1_440)
        for _ in 0..<8 {
            let start = 7 * 60 + Int(random.next() % (15 * 60))
            for minute in start..<min(start + 5 + Int(random.next() % 25), 1_440) { moving[minute] = uniform(80...118) }
        }
        if day % 3 == 0 { for minute in (18 * 60)..<(18 * 60 + 42) { moving[minute] = uniform(162...176) } }
        var points: [Point] = []
        for minute in 0..<1_440 {
            let awake = minute >= 7 * 60 && minute < 23 * 60
            var steps = moving[minute]
            if steps == 0, awake, random.next() % 10 < 3 { steps = uniform(4...40) }
            if steps > 0 {
                points.append(Point(metric: .steps, minute: minute, value: steps.rounded()))
                points.append(Point(metric: .distance, minute: minute, value: steps * (steps > 150 ? 0.00115 : 0.00072)))
            }
            if awake { points.append(Point(metric: .activeEnergy, minute: minute, value: 0.4 + steps * 0.09 + uniform(0...0.8))) }
            if minute % 2 == 0 { points.append(Point(metric: .basalEnergy, minute: minute, value: uniform(2.1...2.4))) }
            if minute % 5 == 0 || steps > 60 {
                let average = (awake ? 68 : 54) + steps * 0.5 + uniform(-4...4)
                points.append(
                    Point(
                        metric: .heartRate, minute: minute, value: average.rounded(),
                        range: ((average - uniform(0...5)).rounded(), (average + uniform(0...5)).rounded())))
            }
            if moving[minute] > 0 { points.append(Point(metric: .exercise, minute: minute, value: 1)) }
            if minute < 7 * 60, minute >= 30, minute % 15 == 0 { points.append(Point(metric: .breathing, minute: minute, value: uniform(12...16))) }
            if minute < 7 * 60, minute % 80 == 40 { points.append(Point(metric: .variability, minute: minute, value: uniform(35...80))) }
        }
        points.append(Point(metric: .restingHeartRate, minute: 7 * 60, value: uniform(48...56).rounded()))
        // The night: stages from 00:30 to 07:00.
        var minute = 30
        let stages = ["Core", "Deep", "Core", "REM", "Awake"]
        var index = 0
        while minute < 7 * 60 {
            let length = min(7 * 60 - minute, stages[index % stages.count] == "Awake" ? 2 + Int(random.next() % 6) : 15 + Int(random.next() % 40))
            points.append(Point(metric: .sleep, minute: minute, minutes: length, value: Double(length) / 60, stage: stages[index % stages.count]))
            minute += length
            index += 1
        }
        return points
    }
}
