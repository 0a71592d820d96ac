import StrideFIT

/// FIT sports as HealthKit activity types. HealthKit has no trail or treadmill run: both are
/// `HKWorkoutActivityTypeRunning`, a treadmill (and every indoor sub-sport) marked with the
/// `HKIndoorWorkout` metadata as the Health app marks it. Sports with no HealthKit type are
/// `HKWorkoutActivityTypeOther`; the sport and sub-sport are kept as written in the metadata.
enum FITActivities {
    /// The activity type of a session's sport and sub-sport.
    static func activityType(sport: UInt8?, subSport: UInt8?) -> String {
        let name: String =
            switch (sport ?? 0, subSport ?? 0) {
            case (1, _): "Running"
            case (2, _), (21, _): "Cycling"
            case (3, _): "Transition"
            case (4, 1), (4, 45): "Running"
            case (4, 6), (4, 5): "Cycling"
            case (4, 14): "Rowing"
            case (4, 15): "Elliptical"
            case (4, 16): "StairClimbing"
            case (4, 27): "Walking"
            case (5, _): "Swimming"
            case (6, _): "Basketball"
            case (7, _): "Soccer"
            case (8, _): "Tennis"
            case (9, _): "AmericanFootball"
            case (10, 20): "TraditionalStrengthTraining"
            case (10, 43): "Yoga"
            case (10, 44): "Pilates"
            case (10, 19): "Flexibility"
            case (10, 26): "MixedCardio"
            case (11, _): "Walking"
            case (12, _): "CrossCountrySkiing"
            case (13, _): "DownhillSkiing"
            case (14, _): "Snowboarding"
            case (15, _): "Rowing"
            case (16, _), (31, _): "Climbing"
            case (17, _): "Hiking"
            case (19, _), (37, _), (41, _): "PaddleSports"
            case (25, _): "Golf"
            case (30, _), (33, _): "SkatingSports"
            case (32, _): "Sailing"
            case (35, _): "SnowSports"
            case (38, _): "SurfingSports"
            case (47, _): "Boxing"
            default: "Other"
            }
        return "HKWorkoutActivityType" + name
    }

    /// Whether a sub-sport is done indoors (treadmill, trainer, indoor rowing…).
    static func isIndoor(sport: UInt8?, subSport: UInt8?) -> Bool {
        if sport == 4 { return true }
        return [1, 5, 6, 14, 15, 16, 25, 27, 45, 58].contains(subSport ?? 0)
    }
}
