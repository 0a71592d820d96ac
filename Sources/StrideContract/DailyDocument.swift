import DailyHealth
import StrideEvents
import StrideLedger

/// `daily --json`: the daily records of a range of local days.
public struct DailyDocument: ContractDocument {
    /// The ledger's time zone, in which the days are local.
    public var timeZone: String
    /// The days that have any data, in date order.
    public var days: [DailyRecord]

    /// The records from `first` through `last` (open ends when nil).
    /// - Throws: a storage or projection failure.
    public init(_ ledger: Ledger, from first: CivilDate?, through last: CivilDate?) throws {
        timeZone = ledger.timeZoneIdentifier
        days = try ledger.dailyRecords(from: first, through: last)
    }

    public var json: JSONValue {
        .object(["timeZone": .string(timeZone), "days": Self.json(days)])
    }

    /// Records as the contract's array of days (also inside a replay's document).
    static func json(_ records: [DailyRecord]) -> JSONValue {
        .array(records.map(json))
    }

    static func json(_ record: DailyRecord) -> JSONValue {
        let document = JSONValue.object([
            "date": .string(record.date.description),
            "sleep": record.sleep.map { sleep in
                .object([
                    "inBed": .integer(sleep.inBed), "asleepUnspecified": .integer(sleep.asleepUnspecified),
                    "asleepCore": .integer(sleep.asleepCore), "asleepDeep": .integer(sleep.asleepDeep),
                    "asleepREM": .integer(sleep.asleepREM), "awake": .integer(sleep.awake), "asleep": .integer(sleep.asleep),
                    "source": .string(sleepSource(sleep.source)),
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
        // Only a day lived away from home, or of travel, says where: a runner who never left
        // home reads the same documents as before the zone timeline.
        guard let lived = record.lived, case .object(var members) = document else { return document }
        members.insert(JSONValue.Member("lived", json(lived)), at: 1)
        return .object(members)
    }

    /// Where a day was lived: its zone, the zone's offset at the day's start, its length in
    /// hours, and the zone as a runner reads it.
    static func json(_ lived: DayLived) -> JSONValue {
        .object([
            "zone": .string(lived.zone), "offsetSeconds": .integer(lived.offsetSeconds), "hours": .number(lived.hours),
            "place": .string(lived.place),
        ])
    }

    /// A night's source as the contract names it: `watch`, `other` (whatever else wrote it),
    /// or `summary` (Health Auto Export's nights alone).
    private static func sleepSource(_ deviceClass: DeviceClass) -> String {
        switch deviceClass {
        case .watch: "watch"
        case .summary: "summary"
        case .phone, .other: "other"
        }
    }

    private static func provenance(_ used: ([DeviceClass], Int)?) -> JSONValue {
        guard let (classes, samples) = used else { return .null }
        return .object(["deviceClasses": .array(classes.map { .string($0.description) }), "samples": .integer(samples)])
    }
}
