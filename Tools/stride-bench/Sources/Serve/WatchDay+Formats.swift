import Foundation
import StrideEvents

extension WatchDay {
    /// The day as Health Auto Export posts it: `{"data": {"metrics": [...]}}`, pretty-printed
    /// as the app prints it, dates like `2024-06-01 08:01:00 +0200`, heart rate as
    /// `Min`/`Avg`/`Max`, the night as unsummarised sleep stages.
    var healthAutoExportJSON: [UInt8] {
        var text = "{\n  \"data\" : {\n    \"metrics\" : [\n"
        let byMetric = Dictionary(grouping: points, by: \.metric)
        let metrics = Metric.all.filter { byMetric[$0] != nil }
        for (metricIndex, metric) in metrics.enumerated() {
            text += "      {\n        \"name\" : \"\(metric.name)\",\n        \"units\" : \"\(metric.unit)\",\n        \"data\" : [\n"
            let list = byMetric[metric] ?? []
            for (index, point) in list.enumerated() {
                var fields: [(String, String)]
                if let stage = point.stage {
                    fields = [
                        ("startDate", quoted(printed(point.minute))), ("endDate", quoted(printed(point.minute + point.minutes))),
                        ("value", quoted(stage)), ("date", "null"), ("qty", number(point.value)),
                    ]
                } else if let range = point.range {
                    fields = [
                        ("date", quoted(printed(point.minute))), ("Min", number(range.low)), ("Avg", number(point.value)),
                        ("Max", number(range.high)),
                    ]
                } else {
                    fields = [("date", quoted(printed(point.minute))), ("qty", number(point.value))]
                }
                fields.append(("source", quoted(Self.source)))
                text += "          {\n" + fields.map { "            \"\($0.0)\" : \($0.1)" }.joined(separator: ",\n") + "\n          }"
                text += index == list.count - 1 ? "\n" : ",\n"
            }
            text += "        ]\n      }" + (metricIndex == metrics.count - 1 ? "\n" : ",\n")
        }
        text += "    ]\n  }\n}\n"
        return Array(text.utf8)
    }

    /// The same points as NDJSON samples, one a line (`stride ingest`'s NDJSON schema).
    var ndjson: [UInt8] {
        var text = ""
        for point in points {
            let start = iso(point.minute)
            if let stage = point.stage {
                let value = "HKCategoryValueSleepAnalysis" + (stage == "Core" || stage == "Deep" || stage == "REM" ? "Asleep" + stage : stage)
                text +=
                    #"{"type":"\#(point.metric.healthType)","start":"\#(start)","end":"\#(iso(point.minute + point.minutes))","value":"\#(value)","source":"\#(Self.source)","device":"watch"}"#
            } else {
                let end = iso(point.metric == .heartRate || point.metric == .restingHeartRate ? point.minute : point.minute + 1)
                var line =
                    #"{"type":"\#(point.metric.healthType)","start":"\#(start)","end":"\#(end)","value":\#(number(point.value)),"unit":"\#(point.metric.unit)","source":"\#(Self.source)","device":"watch""#
                if let range = point.range { line += #","metadata":{"HAEMin":"\#(number(range.low))","HAEMax":"\#(number(range.high))"}"# }
                text += line + "}"
            }
            text += "\n"
        }
        return Array(text.utf8)
    }

    /// The local day as `yyyy-MM-dd`.
    var date: String {
        let (year, month, dayOfMonth) = Self.civil(day)
        return String(format: "%04d-%02d-%02d", year, month, dayOfMonth)
    }

    private func quoted(_ text: String) -> String { "\"" + text + "\"" }

    private func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String((value * 10_000).rounded() / 10_000)
    }

    /// `2024-06-01 08:01:00 +0200`: Health Auto Export's form.
    private func printed(_ minute: Int) -> String {
        let (year, month, dayOfMonth) = Self.civil(day + minute / 1_440)
        return String(format: "%04d-%02d-%02d %02d:%02d:00 ", year, month, dayOfMonth, minute % 1_440 / 60, minute % 60) + offset(separator: "")
    }

    /// `2024-06-01T08:01:00+02:00`: ISO 8601.
    private func iso(_ minute: Int) -> String {
        let (year, month, dayOfMonth) = Self.civil(day + minute / 1_440)
        return String(format: "%04d-%02d-%02dT%02d:%02d:00", year, month, dayOfMonth, minute % 1_440 / 60, minute % 60) + offset(separator: ":")
    }

    private func offset(separator: String) -> String {
        (offsetMinutes < 0 ? "-" : "+") + String(format: "%02d", abs(offsetMinutes) / 60) + separator
            + String(format: "%02d", abs(offsetMinutes) % 60)
    }

    /// The year, month and day of a count of days since 1970-01-01.
    static func civil(_ days: Int) -> (Int, Int, Int) {
        let date = CivilDate(daysSince1970: Int64(days))
        return (date.year, date.month, date.day)
    }

    /// Days since 1970-01-01 of a `yyyy-MM-dd` date.
    static func days(of date: String) -> Int? {
        CivilDate(date).map { Int($0.daysSince1970) }
    }
}
