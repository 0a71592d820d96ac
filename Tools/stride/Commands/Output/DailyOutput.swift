import DailyHealth
import StrideEvents

/// Daily records as the contract's JSON and as a readable table.
enum DailyOutput {
    static func json(_ records: [DailyRecord]) -> JSONValue {
        .array(records.map(json))
    }

    static func json(_ record: DailyRecord) -> JSONValue {
        .object([
            "date": .string(record.date.description),
            "sleep": record.sleep.map { sleep in
                .object([
                    "inBed": .integer(sleep.inBed), "asleepUnspecified": .integer(sleep.asleepUnspecified),
                    "asleepCore": .integer(sleep.asleepCore), "asleepDeep": .integer(sleep.asleepDeep),
                    "asleepREM": .integer(sleep.asleepREM), "awake": .integer(sleep.awake), "asleep": .integer(sleep.asleep),
                    "source": .string(sleep.source == .watch ? "watch" : "other"),
                ])
            } ?? .null,
            "heartRate": record.heartRate.map { rate in
                .object([
                    "average": .number(rate.average), "minimum": .number(rate.minimum), "maximum": .number(rate.maximum),
                    "count": .integer(rate.count),
                ])
            } ?? .null,
            "restingHeartRate": .number(record.restingHeartRate),
            "steps": .number(record.steps?.value),
            "distanceMeters": .number(record.distance?.value),
            "activeEnergyKilocalories": .number(record.activeEnergy?.value),
            "provenance": .object([
                "lastSequence": .integer(record.lastSequence),
                "sleep": provenance(record.sleep.map { ([$0.source], $0.samples) }),
                "heartRate": provenance(record.heartRate.map { ([$0.source], $0.count) }),
                "steps": provenance(record.steps.map { ($0.classes, $0.samplesUsed) }),
                "distance": provenance(record.distance.map { ($0.classes, $0.samplesUsed) }),
                "activeEnergy": provenance(record.activeEnergy.map { ($0.classes, $0.samplesUsed) }),
            ]),
        ])
    }

    private static func provenance(_ used: ([DeviceClass], Int)?) -> JSONValue {
        guard let (classes, samples) = used else { return .null }
        return .object(["deviceClasses": .array(classes.map { .string($0.description) }), "samples": .integer(samples)])
    }

    static func table(_ records: [DailyRecord]) -> String {
        var table = TextTable([
            .init(heading: "date"), .init(heading: "sleep", isNumeric: true), .init(heading: "in bed", isNumeric: true),
            .init(heading: "core/deep/REM/awake"), .init(heading: "heart rate", isNumeric: true),
            .init(heading: "resting", isNumeric: true), .init(heading: "steps", isNumeric: true), .init(heading: "km", isNumeric: true),
            .init(heading: "kcal", isNumeric: true),
        ])
        for record in records {
            let sleep = record.sleep
            let stages = sleep.flatMap { sleep in
                sleep.asleepCore.map { _ in
                    [sleep.asleepCore, sleep.asleepDeep, sleep.asleepREM, sleep.awake].map { clock($0) }.joined(separator: "/")
                }
            } ?? "–"
            let heart = record.heartRate.map { "\(Int($0.average.rounded())) (\(Int($0.minimum))–\(Int($0.maximum)))" } ?? "–"
            table.add([
                record.date.description, clock(sleep?.asleep), clock(sleep?.inBed), stages, heart,
                record.restingHeartRate.map { String(Int($0.rounded())) } ?? "–",
                record.steps.map { Format.count(Int($0.value.rounded())) } ?? "–",
                record.distance.map { String(format: "%.2f", $0.value / 1000) } ?? "–",
                record.activeEnergy.map { String(Int($0.value.rounded())) } ?? "–",
            ])
        }
        return table.text
    }

    /// Seconds as h:mm, or a dash.
    static func clock(_ seconds: Int?) -> String {
        guard let seconds else { return "–" }
        return "\(seconds / 3600):" + String(format: "%02d", seconds / 60 % 60)
    }
}
