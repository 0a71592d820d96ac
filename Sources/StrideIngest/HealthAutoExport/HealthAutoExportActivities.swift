/// Health Auto Export's workout names as HealthKit activity types.
///
/// A workout's `name` is the display name the phone shows, not an identifier: `Running`,
/// `Outdoor Run`, `Indoor Cycling`, `Traditional Strength Training`… and, since iOS 26, in
/// the phone's language (`Outdoor Ausführen`). The location prefix is dropped and the rest
/// looked up in any case; a name not listed (a localised one among them) is
/// `HKWorkoutActivityTypeOther`. The name as written is always kept with the workout.
enum HealthAutoExportActivities {
    /// The activity type of a workout name.
    static func activityType(of name: String) -> String {
        var words = name.lowercased().split(whereSeparator: { $0 == " " || $0 == "-" || $0 == "_" }).map(String.init)
        if let first = words.first, ["outdoor", "indoor", "pool", "open"].contains(first), words.count > 1 {
            words.removeFirst()
            if first == "open", words.first == "water", words.count > 1 { words.removeFirst() }
        }
        let key = words.joined(separator: " ")
        return "HKWorkoutActivityType" + (types[key] ?? "Other")
    }

    private static let types: [String: String] = {
        let table: [(String, [String])] = [
            ("Running", ["run", "running", "jog", "jogging", "trail run", "trail running"]),
            ("Walking", ["walk", "walking"]),
            ("Hiking", ["hike", "hiking"]),
            ("Cycling", ["cycle", "cycling", "bike", "biking", "ride"]),
            ("Swimming", ["swim", "swimming"]),
            ("Rowing", ["row", "rowing"]),
            ("Elliptical", ["elliptical"]),
            ("StairClimbing", ["stair stepper", "stair climbing", "stairs"]),
            ("Yoga", ["yoga"]),
            ("Pilates", ["pilates"]),
            ("Dance", ["dance", "dancing"]),
            ("TraditionalStrengthTraining", ["traditional strength training"]),
            ("FunctionalStrengthTraining", ["functional strength training"]),
            ("HighIntensityIntervalTraining", ["high intensity interval training", "hiit"]),
            ("CoreTraining", ["core training"]),
            ("Cooldown", ["cooldown", "cool down"]),
            ("Flexibility", ["flexibility"]),
            ("MixedCardio", ["mixed cardio"]),
            ("CrossTraining", ["cross training"]),
            ("Other", ["other"]),
        ]
        var types: [String: String] = [:]
        for (type, names) in table {
            for name in names { types[name] = type }
        }
        return types
    }()
}
