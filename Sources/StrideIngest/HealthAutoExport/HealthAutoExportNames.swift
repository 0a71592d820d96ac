import StrideEvents

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
        // The types the daily records read by the catalogue's names; the others spelled here.
        func quantity(_ name: String) -> String { "HKQuantityTypeIdentifier" + name }
        let table: [(String, [String])] = [
            (HealthTypeCatalog.Identifier.stepCount, ["step_count"]),
            (HealthTypeCatalog.Identifier.distanceWalkingRunning, ["walking_running_distance"]),
            (HealthTypeCatalog.Identifier.activeEnergyBurned, ["active_energy"]),
            (HealthTypeCatalog.Identifier.heartRate, ["heart_rate"]),
            (HealthTypeCatalog.Identifier.restingHeartRate, ["resting_heart_rate"]),
            (quantity("BasalEnergyBurned"), ["basal_energy_burned"]),
            (quantity("WalkingHeartRateAverage"), ["walking_heart_rate_average", "walking_heart_rate"]),
            (quantity("HeartRateVariabilitySDNN"), ["heart_rate_variability"]),
            (quantity("RespiratoryRate"), ["respiratory_rate"]),
            (quantity("OxygenSaturation"), ["blood_oxygen_saturation"]),
            (quantity("VO2Max"), ["vo2_max", "vo2max"]),
            (quantity("AppleExerciseTime"), ["apple_exercise_time"]),
            (quantity("AppleStandTime"), ["apple_stand_time"]),
            (quantity("FlightsClimbed"), ["flights_climbed"]),
            (quantity("PhysicalEffort"), ["physical_effort"]),
            (quantity("WalkingSpeed"), ["walking_speed"]),
            (quantity("WalkingStepLength"), ["walking_step_length"]),
            (quantity("WalkingAsymmetryPercentage"), ["walking_asymmetry_percentage"]),
            (quantity("WalkingDoubleSupportPercentage"), ["walking_double_support_percentage"]),
            (quantity("StairAscentSpeed"), ["stair_speed_up", "stair_speed:_up"]),
            (quantity("StairDescentSpeed"), ["stair_speed_down", "stair_speed:_down"]),
            (quantity("RunningSpeed"), ["running_speed"]),
            (quantity("RunningPower"), ["running_power"]),
            (quantity("RunningStrideLength"), ["running_stride_length"]),
            (quantity("RunningGroundContactTime"), ["running_ground_contact_time"]),
            (quantity("RunningVerticalOscillation"), ["running_vertical_oscillation"]),
            (quantity("HeartRateRecoveryOneMinute"), ["cardio_recovery"]),
            (quantity("BodyMass"), ["weight_body_mass"]),
            (quantity("BodyFatPercentage"), ["body_fat_percentage"]),
            (quantity("LeanBodyMass"), ["lean_body_mass"]),
            (quantity("BodyMassIndex"), ["body_mass_index"]),
            (quantity("AppleSleepingWristTemperature"), ["apple_sleeping_wrist_temperature"]),
            (quantity("TimeInDaylight"), ["time_in_daylight"]),
            (quantity("AppleSleepingBreathingDisturbances"), ["breathing_disturbances"]),
            (quantity("EnvironmentalAudioExposure"), ["environmental_audio_exposure", "environmental_audio"]),
        ]
        var types: [String: String] = [:]
        for (type, names) in table {
            for name in names { types[name] = type }
        }
        types["apple_stand_hour"] = "HKCategoryTypeIdentifierAppleStandHour"
        types["sleep_analysis"] = sleepAnalysis
        return types
    }()

    /// `HKCategoryTypeIdentifierSleepAnalysis`.
    static let sleepAnalysis = HealthTypeCatalog.Identifier.sleepAnalysis
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
        let stage: SleepValue? =
            switch value.lowercased().filter({ $0 != " " }) {
            case "inbed": .inBed
            case "asleep", "unspecified", "asleepunspecified": .asleepUnspecified
            case "core", "asleepcore": .asleepCore
            case "deep", "asleepdeep": .asleepDeep
            case "rem", "asleeprem": .asleepREM
            case "awake": .awake
            default: nil
            }
        return stage?.identifier
    }
}
