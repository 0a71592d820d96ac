import StrideEvents
import StrideLedger
import TrainingLog

/// `athlete show --json`: the heart-rate settings as changed, and what holds today.
public struct AthleteDocument: ContractDocument {
    public var changes: [AthleteSettings.Change]
    public var today: TrainingSettings
    public var time: LocalTime

    /// - Throws: a storage or projection failure.
    public init(_ ledger: Ledger) throws {
        let view = try ledger.trainingView()
        changes = view.settings.changes
        today = TrainingSettings(view, on: view.through)
        time = LocalTime(ledger)
    }

    public var json: JSONValue {
        .object([
            "today": today.json,
            "changes": .array(
                changes.map { change in
                    .object([
                        "sequence": .integer(change.sequence), "recordedAt": .string(time.format(change.recordedAt)),
                        "from": change.from.map { .string($0.description) } ?? .null,
                        "maximumHeartRate": change.maximumHeartRate.map(JSONValue.number) ?? .null,
                        "restingHeartRate": change.restingHeartRate.map(JSONValue.number) ?? .null,
                    ])
                }),
        ])
    }
}
