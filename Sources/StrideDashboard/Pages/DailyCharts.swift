import DailyHealth
import StrideEvents

/// The daily records' charts, built from the contract's `DailyRecord`s: sleep by stage,
/// heart rate, steps and distance. `days` is every day of the range (a day without a record
/// is an empty slot), `records` the records by day.
enum DailyCharts {
    /// The legend of the device classes, in the order the daily policy prefers them.
    static let deviceClasses: [(DeviceClass, String)] = [
        (.watch, "watch"), (.phone, "phone"), (.other, "other device"), (.summary, "pushed summary"),
    ]

    /// Sleep per night as stacked stages; a night only a phone (or another app) recorded is
    /// one bar of time in bed.
    static func sleep(days: [CivilDate], records: [CivilDate: DailyRecord], id: String) -> String {
        let series: [StackedBarChart.Series] = [
            .init(key: "deep", label: "Deep", className: "deep"), .init(key: "core", label: "Core", className: "core"),
            .init(key: "rem", label: "REM", className: "rem"), .init(key: "unspecified", label: "Asleep, no stage", className: "unspecified"),
            .init(key: "awake", label: "Awake", className: "awake"), .init(key: "inBed", label: "In bed (no watch)", className: "inbed"),
        ]
        let columns = days.map { day -> StackedBarChart.Column in
            guard let night = records[day]?.sleep else { return .init(key: day.description, label: Format.shortDate(day.description), values: [:]) }
            let source = night.source == .watch ? "watch" : night.source == .summary ? "pushed summary" : "phone or app"
            if night.asleep != nil {
                let values: [String: Double?] = [
                    "deep": night.asleepDeep.map(Double.init), "core": night.asleepCore.map(Double.init),
                    "rem": night.asleepREM.map(Double.init), "unspecified": night.asleepUnspecified.map(Double.init),
                    "awake": night.awake.map(Double.init),
                ]
                return .init(
                    key: day.description, label: Format.shortDate(day.description), values: values.compactMapValues { $0 },
                    note: source + ", \(Format.duration(seconds: night.inBed)) in bed")
            }
            return .init(
                key: day.description, label: Format.shortDate(day.description), values: ["inBed": Double(night.inBed)],
                note: source + ": in bed only")
        }
        let chart = StackedBarChart(
            id: id, title: "Sleep per night, by stage",
            summary:
                "Hours of sleep each night (the window from 18:00 the day before), stacked by stage: deep, core, REM, asleep with no stage, awake. A night only a phone or app recorded shows time in bed.",
            unit: "hours", categoryUnit: "night ending", series: series, columns: columns,
            emptyMessage: "No sleep recorded in this range.", scale: 1.0 / 3600,
            tickText: { Format.fixed($0, $0 == $0.rounded() ? 0 : 1) }, valueText: { Format.duration(seconds: $0.wholeForDisplay) },
            categoryHeading: "Night ending", noteHeading: "Recorded by")
        return chart.render()
    }

    /// Heart rate: the day's minimum-to-maximum band, the average line, the resting line.
    static func heartRate(days: [CivilDate], records: [CivilDate: DailyRecord], id: String) -> String {
        let points = days.map { day in
            let record = records[day]
            return RangeChart.Point(
                key: day.description, label: Format.shortDate(day.description), minimum: record?.heartRate?.minimum,
                maximum: record?.heartRate?.maximum, average: record?.heartRate?.average, marker: record?.restingHeartRate)
        }
        let chart = RangeChart(
            id: id, title: "Heart rate",
            summary:
                "Each day's heart rate from its lowest to its highest sample, a line through the day's average, and a dashed line through the resting heart rate.",
            unit: "bpm", categoryUnit: "day", points: points, emptyMessage: "No heart rate recorded in this range.",
            headings: ["Day", "Minimum (bpm)", "Maximum (bpm)", "Average (bpm)", "Resting (bpm)"], bandLabel: "lowest to highest",
            averageLabel: "average", markerLabel: "resting")
        return chart.render()
    }

    /// Steps per day, each bar coloured by the device class that won the day.
    static func steps(days: [CivilDate], records: [CivilDate: DailyRecord], id: String, title: String = "Steps per day") -> String {
        activity(
            days: days, id: id, title: title, unit: "steps", total: { records[$0]?.steps },
            summary: "Steps each day, counted once where devices overlap; each bar's colour is the device class that won the day.",
            empty: "No steps recorded in this range.", scale: 1, heading: "Steps",
            valueText: { Format.count($0.wholeForDisplay) }, tickText: { Format.count($0.wholeForDisplay) })
    }

    /// Walking and running distance per day, coloured like the steps.
    static func distance(days: [CivilDate], records: [CivilDate: DailyRecord], id: String) -> String {
        activity(
            days: days, id: id, title: "Walking and running distance per day", unit: "km", total: { records[$0]?.distance },
            summary:
                "Kilometres walked and run each day, counted once where devices overlap; each bar's colour is the device class that won the day.",
            empty: "No distance recorded in this range.", scale: 0.001, heading: "Distance (m)",
            valueText: { Format.count($0.wholeForDisplay) + " m" }, tickText: { Format.fixed($0, $0 == $0.rounded() ? 0 : 1) })
    }

    private static func activity(
        days: [CivilDate], id: String, title: String, unit: String, total: (CivilDate) -> ActivityTotal?, summary: String, empty: String,
        scale: Double, heading: String, valueText: @escaping (Double) -> String, tickText: @escaping (Double) -> String
    ) -> String {
        var seen: Set<DeviceClass> = []
        let bars = days.map { day -> BarChart.Bar in
            guard let value = total(day) else {
                return .init(key: day.description, label: Format.shortDate(day.description), value: nil, className: "")
            }
            let winner = value.classes.first ?? .other
            seen.insert(winner)
            return .init(
                key: day.description, label: Format.shortDate(day.description), value: value.value, className: winner.description,
                note: value.classes.map(\.description).joined(separator: ", "))
        }
        let chart = BarChart(
            id: id, title: title, summary: summary, unit: unit, categoryUnit: "day", bars: bars, emptyMessage: empty, scale: scale,
            tickText: tickText, valueText: valueText, headings: ["Day", heading, "Device classes (the first won)"],
            legend: deviceClasses.filter { seen.contains($0.0) }.map { ($0.0.description, $0.1 + " won the day") })
        return chart.render()
    }
}
