import Foundation
import StrideEvents

/// A day of Garmin Connect's `DI-Connect-Aggregator/UDSFile_*.json`: the watch's totals for
/// the runner's local day where they were.
public struct GarminDay: Equatable, Sendable {
    /// `calendarDate`: the runner's local day where they were that day.
    public var date: CivilDate
    public var steps: Double?
    public var metres: Double?
    public var restingHeartRate: Double?
    public var minimumHeartRate: Double?
    public var maximumHeartRate: Double?
    /// The offset of the zone the runner was in, from `wellnessStartTimeLocal` beside
    /// `wellnessStartTimeGmt`, in seconds (nil when not given).
    public var offsetSeconds: Int?
}

/// A night of Garmin Connect's `DI-Connect-Wellness/*_sleepData.json`: its span and the
/// seconds of each stage.
public struct GarminNight: Equatable, Sendable {
    /// `calendarDate`: the day the night ends on.
    public var date: CivilDate
    public var start: Timestamp
    public var end: Timestamp
    public var deepSeconds: Double
    public var lightSeconds: Double
    public var remSeconds: Double
    public var awakeSeconds: Double
}

/// Reading Garmin Connect's daily totals and nights. Pure.
public enum GarminWellness {
    /// The days of a parsed `UDSFile_*.json` (an array of days; a day without a
    /// `calendarDate` is refused, naming it).
    /// - Throws: ``GarminFieldError``.
    public static func days(_ document: JSONNode) throws -> [GarminDay] {
        try entries(document).enumerated().map { index, object in
            let field = "[\(index)]"
            guard let date = civilDate(object["calendarDate"]) else {
                throw GarminFieldError(field: field + ".calendarDate", problem: "is missing or not a date (yyyy-MM-dd)")
            }
            var offset: Int?
            if let local = instant(object["wellnessStartTimeLocal"]), let gmt = instant(object["wellnessStartTimeGmt"]) {
                let seconds = Int(((Double(local.millisecondsSince1970 - gmt.millisecondsSince1970) / 900_000).rounded())) * 900
                guard abs(seconds) <= 14 * 3_600 else {
                    throw GarminFieldError(field: field + ".wellnessStartTimeLocal", problem: "is more than 14 hours from wellnessStartTimeGmt")
                }
                offset = seconds
            }
            return GarminDay(
                date: date, steps: try number(object, "totalSteps", field), metres: try number(object, "totalDistanceMeters", field),
                restingHeartRate: try number(object, "restingHeartRate", field), minimumHeartRate: try number(object, "minHeartRate", field),
                maximumHeartRate: try number(object, "maxHeartRate", field), offsetSeconds: offset)
        }
    }

    /// The nights of a parsed `*_sleepData.json`; an entry without its start and end is no
    /// night (Garmin writes days the watch was not worn so) and is skipped.
    /// - Throws: ``GarminFieldError``.
    public static func nights(_ document: JSONNode) throws -> [GarminNight] {
        try entries(document).enumerated().compactMap { index, object in
            let field = "[\(index)]"
            guard let start = instant(object["sleepStartTimestampGMT"]), let end = instant(object["sleepEndTimestampGMT"]) else { return nil }
            guard start <= end else { throw GarminFieldError(field: field + ".sleepEndTimestampGMT", problem: "is before sleepStartTimestampGMT") }
            let date = civilDate(object["calendarDate"]) ?? CivilDate(daysSince1970: end.millisecondsSince1970 / 86_400_000)
            return GarminNight(
                date: date, start: start, end: end, deepSeconds: try number(object, "deepSleepSeconds", field) ?? 0,
                lightSeconds: try number(object, "lightSleepSeconds", field) ?? 0, remSeconds: try number(object, "remSleepSeconds", field) ?? 0,
                awakeSeconds: try number(object, "awakeSleepSeconds", field) ?? 0)
        }
    }

    private static func entries(_ document: JSONNode) throws -> [[String: JSONNode]] {
        guard case .array(let items) = document else { throw GarminFieldError(field: "", problem: "is not an array") }
        return try items.enumerated().map { index, item in
            guard case .object(let object) = item else { throw GarminFieldError(field: "[\(index)]", problem: "is not an object") }
            return object
        }
    }

    private static func number(_ object: [String: JSONNode], _ name: String, _ field: String) throws -> Double? {
        switch object[name] {
        case nil, .null?: return nil
        case .number(let value)? where value.isFinite: return value
        default: throw GarminFieldError(field: field + "." + name, problem: "is not a number")
        }
    }

    /// `2024-03-04` (and the date of `2024-03-04T22:30:00.0`).
    static func civilDate(_ node: JSONNode?) -> CivilDate? {
        guard case .string(let text)? = node else { return nil }
        return CivilDate(text.prefix(10))
    }

    /// Epoch milliseconds, or `2024-03-04T22:30:00.0` (as written, no zone: GMT or local as
    /// the field's name says).
    static func instant(_ node: JSONNode?) -> Timestamp? {
        switch node {
        case .number(let value)? where value.isFinite: return Timestamp(millisecondsSince1970: Int64(value))
        case .string(let text)?:
            guard let date = civilDate(node), text.count >= 19 else { return nil }
            let time = text.dropFirst(11).prefix(8).split(separator: ":").compactMap { Int($0) }
            guard time.count == 3, (0..<24).contains(time[0]), (0..<60).contains(time[1]), (0..<61).contains(time[2]) else { return nil }
            var fraction: Int64 = 0
            if text.count > 20, text[text.index(text.startIndex, offsetBy: 19)] == "." {
                let digits = text.dropFirst(20).prefix(3).filter(\.isNumber)
                fraction = Int64(digits + String(repeating: "0", count: 3 - digits.count)) ?? 0
            }
            let seconds = date.daysSince1970 * 86_400 + Int64(time[0] * 3_600 + time[1] * 60 + time[2])
            return Timestamp(millisecondsSince1970: seconds * 1000 + fraction)
        default: return nil
        }
    }
}
