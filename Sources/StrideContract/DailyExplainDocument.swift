import DailyHealth
import StrideEvents
import StrideLedger

/// `daily explain DATE --json`: every figure of a day down to its samples.
public struct DailyExplainDocument: ContractDocument {
    /// The explanation.
    public var report: DayExplanationReport
    /// The ledger's time zone, in which the day is local.
    public var timeZone: String
    /// Formats the times.
    public var time: LocalTime

    /// The explanation of a day's measures (every one when `measures` is empty), `limit`
    /// samples a measure from `offset`.
    /// - Throws: a storage failure.
    public init(
        _ ledger: Ledger, day: CivilDate, measures: [Measure] = [], offset: Int = 0, limit: Int = 200, replayed: Ledger.ReplayedState? = nil
    ) throws {
        report = try ledger.explainDay(day, measures: measures, offset: offset, limit: limit, replayed: replayed)
        timeZone = ledger.timeZoneIdentifier
        time = LocalTime(ledger)
    }

    public var json: JSONValue {
        let document = JSONValue.object([
            "date": .string(report.date.description), "timeZone": .string(timeZone),
            "measures": .array(report.measures.map { json($0) }),
        ])
        // A day lived away from home, or of travel, says where (as `daily --json` does).
        guard let lived = report.lived, case .object(var members) = document else { return document }
        members.insert(JSONValue.Member("lived", DailyDocument.json(lived)), at: 2)
        return .object(members)
    }

    /// The contract's name of a measure, as `--measure` takes it.
    public static func name(of measure: Measure) -> String {
        switch measure {
        case .sleep: "sleep"
        case .heartRate: "heartRate"
        case .restingHeartRate: "restingHeartRate"
        case .steps: "steps"
        case .distance: "distanceMeters"
        case .activeEnergy: "activeEnergyKilocalories"
        }
    }

    /// The short names `--measure` and `measure=` take besides the contract's.
    private static let shortNames: [(name: String, measure: Measure)] = [
        ("distance", .distance), ("energy", .activeEnergy), ("activeEnergy", .activeEnergy), ("resting", .restingHeartRate),
    ]

    /// Every name `--measure` and `measure=` take (in any case): the contract's, then the short ones.
    public static let measureNames = Measure.allCases.map(name(of:)) + shortNames.map(\.name)

    /// The measure a name given to `--measure` or `measure=` means (the contract's name, in any
    /// case, or a short one: `distance`, `energy`, `resting`).
    public static func measure(named text: String) -> Measure? {
        let wanted = text.lowercased()
        return Measure.allCases.first { name(of: $0).lowercased() == wanted } ?? shortNames.first { $0.name.lowercased() == wanted }?.measure
    }

    /// Why `text` names no measure, listing those that are.
    public static func measureRefusal(_ text: String) -> String {
        "\"\(text.shownInMessage)\" is not a measure; use one of \(measureNames.joined(separator: ", "))"
    }

    /// The outcome's name in the document.
    public static func name(of outcome: SampleOutcome) -> String {
        switch outcome {
        case .counted: "counted"
        case .partlyOutranked: "partlyOutranked"
        case .outranked: "outranked"
        case .coveredByDevices: "coveredByDevices"
        case .leftOut(let why):
            why.contains(.withdrawn) ? "withdrawn" : why.contains(.repeated) ? "repeat" : "oddContent"
        }
    }

    private func json(_ measure: ExplainedMeasure) -> JSONValue {
        let explanation = measure.explanation
        return .object([
            "measure": .string(Self.name(of: explanation.measure)), "figure": .number(explanation.figure),
            "parts": .object(explanation.parts.map { .init($0.name, .number($0.value)) }),
            "samplesTotal": .integer(measure.samplesTotal), "offset": .integer(measure.offset),
            "samples": .array(
                measure.samples.map { line in
                    let sample = line.explained
                    var outrankedBy: DeviceClass?
                    switch sample.outcome {
                    case .outranked(let better), .partlyOutranked(let better): outrankedBy = better
                    default: break
                    }
                    return .object([
                        "id": .string(line.id), "sequence": .integer(sample.fact.sequence), "sourceName": .string(line.sourceName),
                        "deviceClass": .string(sample.fact.deviceClass.description), "start": .string(time.format(sample.fact.start)),
                        "end": .string(time.format(sample.fact.end)), "value": .number(sample.fact.value),
                        "stage": .string(sample.fact.sleep.map(Self.name(of:))), "inDay": .number(sample.inDay),
                        "counted": .number(sample.counted), "outcome": .string(Self.name(of: sample.outcome)),
                        "outrankedBy": .string(outrankedBy?.description), "reason": .string(line.reason),
                        "runningTotal": .number(sample.runningTotal),
                    ])
                }),
            "stretches": .array(
                explanation.stretches.map { stretch in
                    .object([
                        "start": .string(time.format(stretch.start)), "end": .string(time.format(stretch.end)),
                        "deviceClass": .string(stretch.deviceClass.description), "amount": .number(stretch.amount),
                    ])
                }),
        ])
    }

    /// A sleep stage's name, as the daily document names its seconds.
    public static func name(of stage: SleepValue) -> String {
        switch stage {
        case .inBed: "inBed"
        case .asleepUnspecified: "asleepUnspecified"
        case .asleepCore: "asleepCore"
        case .asleepDeep: "asleepDeep"
        case .asleepREM: "asleepREM"
        case .awake: "awake"
        }
    }
}
