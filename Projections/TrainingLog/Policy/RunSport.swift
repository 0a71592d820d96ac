import StrideEvents

/// Which kind of running a run was, from what its file or archive says: the training log's
/// volume per sport. Pure.
///
/// - `trail`: Strava's Trail Run (Traillauf), Garmin's trail_running, FIT's trail sub-sport;
/// - `treadmill`: Garmin's treadmill_running, FIT's treadmill sub-sport, and any indoor run
///   (the Health app's and FIT's `HKIndoorWorkout`);
/// - `virtual`: Strava's Virtual Run (Virtueller Lauf), FIT's virtual_activity;
/// - `track`: FIT's track sub-sport;
/// - `road`: every other run.
public enum RunSport {
    public static let all = ["road", "trail", "treadmill", "track", "virtual"]

    /// The sport of a running workout with this metadata.
    public static func of(_ metadata: [MetadataEntry]) -> String {
        func value(_ key: String) -> String? { metadata.first { $0.key == key }?.value }
        switch value("StravaActivityType") {
        case "Trail Run", "Traillauf": return "trail"
        case "Virtual Run", "Virtueller Lauf": return "virtual"
        default: break
        }
        switch value("GarminActivityType") {
        case "trail_running": return "trail"
        case "treadmill_running", "indoor_running": return "treadmill"
        case "track_running": return "track"
        default: break
        }
        switch value("FITSubSport") {
        case "trail": return "trail"
        case "treadmill": return "treadmill"
        case "track": return "track"
        case "virtual_activity": return "virtual"
        default: break
        }
        return value("HKIndoorWorkout") == "1" ? "treadmill" : "road"
    }
}
