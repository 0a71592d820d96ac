/// Names of the profile's numbers that Stride shows: sports, sub-sports, file types,
/// manufacturers and a few products. A number not listed is shown as its number.
public enum FITNames {
    /// The profile's name of a sport (`running`, `cycling`…), or `sport N`.
    public static func sport(_ number: UInt8?) -> String {
        guard let number else { return "generic" }
        return Int(number) < sports.count ? sports[Int(number)] : "sport \(number)"
    }

    /// The profile's name of a sub-sport (`treadmill`, `trail`…), or `sub-sport N`.
    public static func subSport(_ number: UInt8?) -> String? {
        guard let number else { return nil }
        return Int(number) < subSports.count ? subSports[Int(number)] : "sub-sport \(number)"
    }

    /// `file_id.type` of an activity: the only file type that holds workouts.
    public static let activityFileType: UInt8 = 4

    /// What a FIT file of a type is, named by the profile's file type in words:
    /// `FIT settings file (type 2)`, `FIT monitoring B files (type 32)`; `FIT file of type 99`
    /// for a type not listed. The one wording for a refused file and for files counted unread.
    public static func fileType(_ number: UInt8, plural: Bool = false) -> String {
        let file = plural ? "files" : "file"
        guard let name = fileTypes[number] else { return "FIT \(file) of type \(number)" }
        return "FIT \(name) \(file) (type \(number))"
    }

    /// The profile's name of a manufacturer (`garmin`, `wahoo_fitness`…), or nil.
    public static func manufacturer(_ number: UInt16?) -> String? {
        number.flatMap { manufacturers[$0]?.name }
    }

    /// A manufacturer's name as a person would write it (`Garmin`, `Wahoo Fitness`), or
    /// `manufacturer N`.
    public static func manufacturerDisplayName(_ number: UInt16?) -> String {
        guard let number else { return "Unknown device" }
        return manufacturers[number]?.display ?? "manufacturer \(number)"
    }

    /// A Garmin product's name as a person would write it, when listed.
    public static func productDisplayName(manufacturer: UInt16?, product: UInt16) -> String? {
        // Garmin's product numbers hold for Dynastream's (its subsidiary's) devices too.
        guard manufacturer == 1 || manufacturer == 13 || manufacturer == 15 else { return nil }
        return garminProducts[product]
    }

    private static let sports = [
        "generic", "running", "cycling", "transition", "fitness_equipment", "swimming", "basketball", "soccer", "tennis",
        "american_football", "training", "walking", "cross_country_skiing", "alpine_skiing", "snowboarding", "rowing",
        "mountaineering", "hiking", "multisport", "paddling", "flying", "e_biking", "motorcycling", "boating", "driving", "golf",
        "hang_gliding", "horseback_riding", "hunting", "fishing", "inline_skating", "rock_climbing", "sailing", "ice_skating",
        "sky_diving", "snowshoeing", "jetskiing", "stand_up_paddleboarding", "surfing", "wakeboarding", "water_skiing",
        "kayaking", "rafting", "windsurfing", "kitesurfing", "tactical", "jumpmaster", "boxing", "floor_climbing",
    ]

    private static let subSports = [
        "generic", "treadmill", "street", "trail", "track", "spin", "indoor_cycling", "road", "mountain", "downhill", "recumbent",
        "cyclocross", "hand_cycling", "track_cycling", "indoor_rowing", "elliptical", "stair_climbing", "lap_swimming",
        "open_water", "flexibility_training", "strength_training", "warm_up", "match", "exercise", "challenge", "indoor_skiing",
        "cardio_training", "indoor_walking", "e_bike_fitness", "bmx", "casual_walking", "speed_walking", "bike_to_run_transition",
        "run_to_bike_transition", "swim_to_bike_transition", "atv", "motocross", "backcountry", "resort", "rc_drone", "wingsuit",
        "whitewater", "skate_skiing", "yoga", "pilates", "indoor_running", "gravel_cycling", "e_bike_mountain", "commuting",
        "mixed_surface", "navigate", "track_me", "map", "single_gas_diving", "multi_gas_diving", "gauge_diving", "apnea_diving",
        "apnea_hunting", "virtual_activity", "obstacle",
    ]

    /// The profile's `file` type names of the common types, as words (`blood_pressure` is
    /// "blood pressure", `monitoring_a` "monitoring A").
    private static let fileTypes: [UInt8: String] = [
        1: "device", 2: "settings", 3: "sport", 4: "activity", 5: "workout", 6: "course", 7: "schedules", 9: "weight", 10: "totals",
        11: "goals", 14: "blood pressure", 15: "monitoring A", 20: "activity summary", 28: "monitoring daily", 32: "monitoring B",
        34: "segment", 35: "segment list",
    ]

    private static let manufacturers: [UInt16: (name: String, display: String)] = [
        1: ("garmin", "Garmin"), 13: ("dynastream_oem", "Dynastream"), 15: ("dynastream", "Dynastream"), 23: ("suunto", "Suunto"),
        32: ("wahoo_fitness", "Wahoo Fitness"), 70: ("sigmasport", "Sigma Sport"), 95: ("stryd", "Stryd"), 123: ("polar", "Polar"),
        255: ("development", "Development"), 294: ("coros", "COROS"), 307: ("onelap", "Onelap"),
    ]

    private static let garminProducts: [UInt16: String] = [
        1436: "Forerunner 70", 1765: "Forerunner 920XT", 1967: "fēnix 2", 2604: "fēnix 5X", 3992: "Forerunner 255",
        4315: "Forerunner 965",
    ]
}
