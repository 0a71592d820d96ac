import DailyHealth
import Foundation
import StrideEvents

/// How `daily explain` says things, in the command's text and on its page alike.
public enum ExplainWording {
    /// A measure's name as a runner reads it.
    public static func title(of measure: Measure) -> String {
        switch measure {
        case .sleep: "Sleep"
        case .heartRate: "Heart rate"
        case .restingHeartRate: "Resting heart rate"
        case .steps: "Steps"
        case .distance: "Walking and running distance"
        case .activeEnergy: "Active energy"
        }
    }

    /// An amount of a measure with its unit: `51,000 steps`, `13.99 km`, `641 kcal`, `78 bpm`,
    /// `7:48` of sleep; a dash when there is none.
    public static func amount(_ value: Double?, of measure: Measure) -> String {
        guard let value, value.isFinite else { return "–" }
        switch measure {
        case .steps: return number(value) + " steps"
        case .distance: return String(format: "%.2f km", value / 1000)
        case .activeEnergy: return number(value) + " kcal"
        case .heartRate, .restingHeartRate: return String(format: "%.1f bpm", value)
        case .sleep: return hoursAndMinutes(value.wholeForDisplay)
        }
    }

    /// A number as tables show it: whole when it is, else with one decimal; thousands grouped.
    public static func number(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e15 else { return "–" }
        let rounded = (value * 10).rounded() / 10
        let whole = Int64(rounded.rounded(.towardZero))
        let tenths = Int64(abs((rounded - Double(whole)) * 10).rounded())
        return (rounded < 0 && whole == 0 ? "-" : "") + whole.groupedDigits + (tenths == 0 ? "" : ".\(tenths)")
    }

    /// Seconds as `h:mm`, to the nearest minute (as ``hoursAndMinutesInWords(_:)``: the
    /// command line and the dashboard round a night alike).
    public static func hoursAndMinutes(_ seconds: Int) -> String {
        let minutes = nearestMinutes(seconds)
        return (minutes < 0 ? "-" : "") + "\(abs(minutes) / 60):" + String(format: "%02d", abs(minutes) % 60)
    }

    /// A time as a stopwatch shows it: `1:02:03`, `4:05` (an effort, a pace, a week's running).
    public static func stopwatch(_ seconds: Double) -> String {
        let total = Int(seconds.isFinite ? seconds.rounded() : 0)
        let (hours, minutes, rest) = (total / 3600, total % 3600 / 60, total % 60)
        return hours > 0 ? String(format: "%d:%02d:%02d", hours, minutes, rest) : String(format: "%d:%02d", minutes, rest)
    }

    /// Seconds as hours and minutes in words, to the nearest minute: `7 h 05 min`, `45 min`.
    public static func hoursAndMinutesInWords(_ seconds: Int) -> String {
        let minutes = abs(nearestMinutes(seconds))
        let sign = seconds < 0 && minutes > 0 ? "-" : ""
        guard minutes >= 60 else { return sign + "\(minutes) min" }
        return sign + "\(minutes / 60) h " + String(format: "%02d", minutes % 60) + " min"
    }

    /// Whole minutes nearest to `seconds`, half a minute rounded away from zero.
    static func nearestMinutes(_ seconds: Int) -> Int {
        Int((Double(seconds) / 60).rounded(.toNearestOrAwayFromZero))
    }

    /// How a sample counted, in a few words (with the reason one left out was left out).
    public static func outcome(_ outcome: SampleOutcome, reason: String?) -> String {
        switch outcome {
        case .counted: "counted"
        case .partlyOutranked(let better): "counted in part: the \(better) took some of its time"
        case .outranked(let better): "outranked: the \(better) covered it"
        case .coveredByDevices: "a summary the devices' own samples already account for"
        case .leftOut: "left out: " + (reason ?? "kept in the log, out of figures")
        }
    }

    /// An instant as a time of the day explained (`09:00:00`), with its date when it falls on
    /// another day (`2024-05-04 23:10:00`).
    public static func clock(_ instant: Timestamp, on day: CivilDate, time: LocalTime) -> String {
        let text = time.format(instant)
        let date = String(text.prefix(10))
        let clock = String(text.dropFirst(11).prefix(8))
        return date == day.description ? clock : "\(date) \(clock)"
    }
}
