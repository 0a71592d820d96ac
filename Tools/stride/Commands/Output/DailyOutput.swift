import DailyHealth
import StrideContract
import StrideEvents

/// Daily records as a readable table.
enum DailyOutput {
    static func table(_ records: [DailyRecord]) -> String {
        var table = TextTable([
            .init(heading: "date"), .init(heading: "sleep", isNumeric: true), .init(heading: "in bed", isNumeric: true),
            .init(heading: "core/deep/REM/awake"), .init(heading: "heart rate", isNumeric: true),
            .init(heading: "resting", isNumeric: true), .init(heading: "steps", isNumeric: true), .init(heading: "km", isNumeric: true),
            .init(heading: "kcal", isNumeric: true),
        ])
        for record in records {
            let sleep = record.sleep
            let stages =
                sleep.flatMap { sleep in
                    sleep.asleepCore.map { _ in
                        [sleep.asleepCore, sleep.asleepDeep, sleep.asleepREM, sleep.awake].map { clock($0) }.joined(separator: "/")
                    }
                } ?? "–"
            let heart = record.heartRate.map { "\($0.average.wholeForDisplay) (\($0.minimum.wholeForDisplay)–\($0.maximum.wholeForDisplay))" } ?? "–"
            // A day lived away, or of travel, says where and, when not 24 hours, how long.
            let date =
                record.lived.map { lived in
                    "\(record.date) (\(lived.place)" + (lived.seconds == 86_400 ? ")" : ", \(lived.hoursShown) h)")
                } ?? record.date.description
            table.add([
                date, clock(sleep?.asleep), clock(sleep?.inBed), stages, heart,
                record.restingHeartRate.map { String($0.wholeForDisplay) } ?? "–",
                record.steps.map { Format.count($0.value.wholeForDisplay) } ?? "–",
                record.distance.map { String(format: "%.2f", $0.value / 1000) } ?? "–",
                record.activeEnergy.map { String($0.value.wholeForDisplay) } ?? "–",
            ])
        }
        return table.text
    }

    /// Seconds as h:mm to the nearest minute, or a dash.
    static func clock(_ seconds: Int?) -> String {
        seconds.map(ExplainWording.hoursAndMinutes) ?? "–"
    }
}
