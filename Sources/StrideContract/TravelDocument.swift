import StrideEvents
import StrideLedger

/// `travel --json`: where the runner lived — the periods they set, those the inputs show, and
/// the timeline the days are cut by.
public struct TravelDocument: ContractDocument {
    public var plan: TravelPlan

    /// - Throws: a storage or projection failure.
    public init(_ ledger: Ledger) throws {
        plan = try ledger.travelPlan()
    }

    public var json: JSONValue {
        .object([
            "home": .string(plan.home),
            "set": .array(
                plan.runner.map { entry in
                    .object([
                        "sequence": .integer(entry.sequence), "zone": .string(entry.period.zone), "from": .string(entry.period.from.description),
                        "to": entry.period.to.map { .string($0.description) } ?? .null,
                    ])
                }),
            "learned": .array(plan.learned.map(Self.json)),
            "timeline": .array(plan.timeline.map(Self.json)),
            "observations": .integer(plan.observations),
        ])
    }

    static func json(_ period: ZonePeriod) -> JSONValue {
        .object([
            "zone": .string(period.zone.identifier), "from": .string(period.from.description),
            "to": period.to.map { .string($0.description) } ?? .null,
        ])
    }
}

/// `travel explain DATE --json`: the zone a date is cut in, and why.
public struct TravelExplainDocument: ContractDocument {
    public var explanation: TravelExplanation
    public var time: LocalTime

    /// - Throws: a storage or projection failure.
    public init(_ ledger: Ledger, date: CivilDate) throws {
        explanation = try ledger.explainTravel(on: date)
        time = LocalTime(ledger)
    }

    public var json: JSONValue {
        let reason: JSONValue
        switch explanation.reason {
        case .runner(let sequence, let period):
            reason = .object([
                "kind": .string("runner"), "sequence": .integer(sequence), "from": .string(period.from.description),
                "to": period.to.map { .string($0.description) } ?? .null,
            ])
        case .inputs(let period):
            reason = .object(["kind": .string("inputs"), "period": TravelDocument.json(period)])
        case .home:
            reason = .object(["kind": .string("home")])
        }
        return .object([
            "date": .string(explanation.date.description), "zone": .string(explanation.zone), "home": .string(explanation.home),
            "offsetSeconds": .integer(explanation.offsetSeconds), "hours": .number(explanation.hours), "reason": reason,
            "observations": .array(
                explanation.observations.map { entry in
                    .object([
                        "at": .string(time.format(entry.observation.instant)), "reading": .string(entry.observation.reading.description),
                        "source": .string(entry.observation.source.rawValue), "sequence": .integer(entry.sequence),
                    ])
                }),
        ])
    }
}
