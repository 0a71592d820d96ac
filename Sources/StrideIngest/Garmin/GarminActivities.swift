import Foundation
import StrideEvents

/// An activity of a Garmin Connect account export's `*_summarizedActivities.json`: Garmin's
/// summary of a workout, in Garmin's units (durations in ms, distances in cm, times in epoch ms).
public struct GarminActivity: Equatable, Sendable {
    /// `activityId`: what the gear's links and the uploaded files' summaries name.
    public var id: String
    public var name: String
    /// `activityType` as written (`running`, `treadmill_running`, `cycling`…).
    public var type: String
    /// Whether Stride counts it as a run: running, trail_running and treadmill_running, and
    /// Garmin's other running types.
    public var isRun: Bool
    /// `startTimeGmt`.
    public var start: Timestamp
    /// `startTimeLocal − startTimeGmt`: the offset of the runner's clock then (a real archive
    /// moves between UTC+0, +1, +5:30, +7 and +8), rounded to the quarter hour.
    public var localOffsetSeconds: Int
    /// Whether `startTimeLocal` was written: without it the offset is 0 by default, and says
    /// nothing of where the runner was.
    public var hasLocalStart: Bool
    /// `duration`, in seconds.
    public var durationSeconds: Double?
    /// `distance`, in metres (Garmin writes centimetres).
    public var distanceMeters: Double?
    public var averageHeartRate: Double?
    public var maximumHeartRate: Double?
}

/// Reading `*_summarizedActivities.json`: `[{"summarizedActivitiesExport": [ … ]}]`, split across
/// several files in one archive.
public enum GarminActivities {
    /// The HealthKit activity type of a Garmin type; `Other` for one HealthKit has no name for
    /// (the type is kept as written in the metadata).
    public static func activityType(_ type: String) -> String {
        let name: String =
            switch type {
            case _ where GarminGear.runningTypes.contains(type): "Running"
            case "cycling", "road_biking", "mountain_biking", "indoor_cycling", "virtual_ride", "gravel_cycling", "e_bike_fitness": "Cycling"
            case "walking", "casual_walking", "speed_walking": "Walking"
            case "hiking": "Hiking"
            case "lap_swimming", "open_water_swimming", "swimming": "Swimming"
            case "strength_training": "TraditionalStrengthTraining"
            case "yoga": "Yoga"
            case "elliptical": "Elliptical"
            case "indoor_rowing", "rowing": "Rowing"
            default: "Other"
            }
        return "HKWorkoutActivityType" + name
    }

    /// The activities of one parsed file, in its order.
    /// - Throws: ``GarminFieldError`` (a field not as Garmin writes it, named with its path).
    public static func read(_ document: JSONNode) throws -> [GarminActivity] {
        guard case .array(let parts) = document else { throw GarminFieldError(field: "", problem: "is not an array") }
        var activities: [GarminActivity] = []
        for (part, node) in parts.enumerated() {
            guard case .object(let object) = node else { throw GarminFieldError(field: "[\(part)]", problem: "is not an object") }
            guard case .array(let list)? = object["summarizedActivitiesExport"] else {
                throw GarminFieldError(field: "[\(part)].summarizedActivitiesExport", problem: "is not an array")
            }
            for (index, entry) in list.enumerated() {
                activities.append(try activity(entry, field: "[\(part)].summarizedActivitiesExport[\(index)]"))
            }
        }
        return activities
    }

    private static func activity(_ node: JSONNode, field: String) throws -> GarminActivity {
        guard case .object(let object) = node else { throw GarminFieldError(field: field, problem: "is not an object") }
        func number(_ name: String) throws -> Double? {
            switch object[name] {
            case nil, .null?: return nil
            case .number(let value)? where value.isFinite: return value
            default: throw GarminFieldError(field: field + "." + name, problem: "is not a number")
            }
        }
        guard let id = try number("activityId").flatMap({ $0 > 0 ? ArchiveID.text($0) : nil }) else {
            throw GarminFieldError(field: field + ".activityId", problem: "is missing")
        }
        guard let startMilliseconds = try number("startTimeGmt") else {
            throw GarminFieldError(field: field + ".startTimeGmt", problem: "is missing")
        }
        // A local start beside it gives the offset; without one, UTC.
        let writtenLocal = try number("startTimeLocal")
        let local = writtenLocal ?? startMilliseconds
        let offset = Int(((local - startMilliseconds) / 900_000).rounded()) * 900
        guard abs(offset) <= 14 * 3_600 else {
            throw GarminFieldError(field: field + ".startTimeLocal", problem: "is more than 14 hours from startTimeGmt")
        }
        let type: String
        switch object["activityType"] {
        case .string(let text)?: type = text
        case .object(let typed)?:
            // Some generations write {"typeKey": "running", …}.
            if case .string(let key)? = typed["typeKey"] { type = key } else { type = "" }
        default: type = ""
        }
        var name = ""
        if case .string(let text)? = object["name"] { name = text }
        return GarminActivity(
            id: id, name: name, type: type, isRun: type.contains("running"),
            start: Timestamp(millisecondsSince1970: Int64(startMilliseconds)), localOffsetSeconds: offset,
            hasLocalStart: writtenLocal != nil, durationSeconds: try number("duration").map { $0 / 1_000 },
            distanceMeters: try number("distance").map { $0 / 100 },
            averageHeartRate: try number("avgHr"), maximumHeartRate: try number("maxHr"))
    }
}
