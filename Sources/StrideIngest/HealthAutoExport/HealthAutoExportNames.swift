/// Health Auto Export's metric names and units in HealthKit's terms.
///
/// The app never sends HealthKit identifiers: its metrics are named in snake case after
/// their display names (`walking_running_distance`), and those names drift between app
/// versions, hence the aliases. Names are matched in any case; a name not listed becomes the
/// type `HAE:<name>`, kept like any type Stride does not read.
enum HealthAutoExportNames {
    /// The HealthKit type of a metric name.
    static func healthType(ofMetric name: String) -> String {
        let key = name.lowercased()
        return metricTypes[key] ?? "HAE:\(name)"
    }

    private static let metricTypes: [String: String] = {
        let quantity = "HKQuantityTypeIdentifier"
        let table: [(String, [String])] = [
            ("StepCount", ["step_count"]),
            ("DistanceWalkingRunning", ["walking_running_distance"]),
            ("ActiveEnergyBurned", ["active_energy"]),
            ("BasalEnergyBurned", ["basal_energy_burned"]),
            ("HeartRate", ["heart_rate"]),
            ("RestingHeartRate", ["resting_heart_rate"]),
            ("WalkingHeartRateAverage", ["walking_heart_rate_average", "walking_heart_rate"]),
            ("HeartRateVariabilitySDNN", ["heart_rate_variability"]),
            ("RespiratoryRate", ["respiratory_rate"]),
            ("OxygenSaturation", ["blood_oxygen_saturation"]),
            ("VO2Max", ["vo2_max", "vo2max"]),
            ("AppleExerciseTime", ["apple_exercise_time"]),
            ("AppleStandTime", ["apple_stand_time"]),
            ("FlightsClimbed", ["flights_climbed"]),
            ("PhysicalEffort", ["physical_effort"]),
            ("WalkingSpeed", ["walking_speed"]),
            ("WalkingStepLength", ["walking_step_length"]),
            ("WalkingAsymmetryPercentage", ["walking_asymmetry_percentage"]),
            ("WalkingDoubleSupportPercentage", ["walking_double_support_percentage"]),
            ("StairAscentSpeed", ["stair_speed_up", "stair_speed:_up"]),
            ("StairDescentSpeed", ["stair_speed_down", "stair_speed:_down"]),
            ("RunningSpeed", ["running_speed"]),
            ("RunningPower", ["running_power"]),
            ("RunningStrideLength", ["running_stride_length"]),
            ("RunningGroundContactTime", ["running_ground_contact_time"]),
            ("RunningVerticalOscillation", ["running_vertical_oscillation"]),
            ("HeartRateRecoveryOneMinute", ["cardio_recovery"]),
            ("BodyMass", ["weight_body_mass"]),
            ("BodyFatPercentage", ["body_fat_percentage"]),
            ("LeanBodyMass", ["lean_body_mass"]),
            ("BodyMassIndex", ["body_mass_index"]),
            ("AppleSleepingWristTemperature", ["apple_sleeping_wrist_temperature"]),
            ("TimeInDaylight", ["time_in_daylight"]),
            ("AppleSleepingBreathingDisturbances", ["breathing_disturbances"]),
            ("EnvironmentalAudioExposure", ["environmental_audio_exposure", "environmental_audio"]),
        ]
        var types: [String: String] = [:]
        for (type, names) in table {
            for name in names { types[name] = quantity + type }
        }
        types["apple_stand_hour"] = "HKCategoryTypeIdentifierAppleStandHour"
        types["sleep_analysis"] = sleepAnalysis
        return types
    }()

    /// `HKCategoryTypeIdentifierSleepAnalysis`.
    static let sleepAnalysis = "HKCategoryTypeIdentifierSleepAnalysis"
    /// `HKQuantityTypeIdentifierBloodPressureSystolic`, `…Diastolic`: `blood_pressure` points
    /// carry both.
    static let bloodPressure = [
        ("systolic", "HKQuantityTypeIdentifierBloodPressureSystolic"),
        ("diastolic", "HKQuantityTypeIdentifierBloodPressureDiastolic"),
    ]

    /// The unit as HealthKit (and so Stride's unit rules) spells it: `bpm` is `count/min`,
    /// a workout's `steps` are `count`; every other unit as written (`count`, `km`, `mi`,
    /// `kcal`, `kJ`, `ms`, `%`…). Nil for none.
    static func healthKitUnit(_ units: String?) -> String? {
        guard let units, !units.isEmpty else { return nil }
        switch units {
        case "bpm", "BPM": return "count/min"
        case "steps": return "count"
        default: return units
        }
    }

    /// The `HKCategoryValueSleepAnalysis…` value of an unaggregated sleep sample's `value`
    /// (`In Bed` or `InBed`, `Asleep`, `Core`, `Deep`, `REM`, `Awake`, `Unspecified`); nil
    /// for another.
    static func sleepValue(_ value: String) -> String? {
        switch value.lowercased().filter({ $0 != " " }) {
        case "inbed": "HKCategoryValueSleepAnalysisInBed"
        case "asleep", "unspecified", "asleepunspecified": "HKCategoryValueSleepAnalysisAsleepUnspecified"
        case "core", "asleepcore": "HKCategoryValueSleepAnalysisAsleepCore"
        case "deep", "asleepdeep": "HKCategoryValueSleepAnalysisAsleepDeep"
        case "rem", "asleeprem": "HKCategoryValueSleepAnalysisAsleepREM"
        case "awake": "HKCategoryValueSleepAnalysisAwake"
        default: nil
        }
    }
}
