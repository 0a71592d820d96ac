import StrideEvents
import StrideLedger

/// `replay --until SEQ|TIME --json`: every projection as of an earlier point, computed in
/// memory: the shoes, the points and the daily records in their documents' forms.
public struct ReplayDocument: ContractDocument {
    /// What the replay computed.
    public var replay: Ledger.Replay
    /// Formats the times.
    public var time: LocalTime

    /// The ledger as it stood after `sequence`.
    /// - Throws: a storage failure, or an `EventLogFault` naming an event that cannot be read.
    public init(_ ledger: Ledger, through sequence: UInt64) throws {
        replay = try ledger.replay(through: sequence)
        time = LocalTime(ledger)
    }

    /// The ledger as it stood at `instant`: the events it had recorded by then.
    /// - Throws: as ``init(_:through:)``.
    public init(_ ledger: Ledger, recordedBy instant: Timestamp) throws {
        try self.init(ledger, through: try ledger.sequence(recordedBy: instant))
    }

    public var json: JSONValue {
        .object([
            "sequence": .integer(replay.sequence),
            "shoes": .array(replay.shoes.map(ShoesDocument.json)),
            "points": PointsDocument(statement: replay.points, time: time).json,
            "days": DailyDocument.json(replay.days),
        ])
    }
}
