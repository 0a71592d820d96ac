import StrideEvents
import StrideLedger

/// `log --json`: the raw events, decoded.
public struct LogDocument: ContractDocument {
    /// The events, by sequence.
    public var events: [RecordedEvent]
    /// Formats the times.
    public var time: LocalTime

    /// At most `limit` events from sequence `first` on, only of `type` when given.
    /// - Throws: a storage failure.
    public init(_ ledger: Ledger, from first: UInt64 = 1, limit: Int, type: EventType? = nil) throws {
        events = try ledger.events(from: first, limit: limit, type: type)
        time = LocalTime(ledger)
    }

    /// At most `limit` events just before sequence `before`: the page of the log that ends
    /// there, for paging back from the latest (`--before`, `?before=`).
    /// - Throws: a storage failure.
    public init(_ ledger: Ledger, before: UInt64, limit: Int) throws {
        events = try ledger.events(before: before, limit: limit)
        time = LocalTime(ledger)
    }

    public var json: JSONValue {
        .object(["events": .array(events.map { Self.json(of: $0, time: time) })])
    }

    /// One event as the log shows it (also each message of the server's event stream).
    public static func json(of event: RecordedEvent, time: LocalTime) -> JSONValue {
        .object([
            "sequence": .integer(event.sequence),
            "recordedAt": .string(time.format(event.recordedAt)),
            "occurredAt": .string(time.format(event.occurredAt)),
            "type": .string(event.event.typeName),
            "entity": .string(event.entity.description),
            "idempotencyKey": .string(event.idempotencyKey?.description),
            "payload": event.event.json,
        ])
    }
}

/// `stats --json`: how many events the ledger holds, by type, and its samples by health type.
public struct StatsDocument: ContractDocument {
    /// The counts.
    public var statistics: LedgerStatistics

    /// The ledger's counts, from its indexes.
    /// - Throws: a storage failure.
    public init(_ ledger: Ledger) throws {
        statistics = try ledger.statistics()
    }

    public var json: JSONValue {
        .object([
            "events": .integer(statistics.events),
            "lastSequence": .integer(statistics.lastSequence),
            "byType": .object(statistics.byType.map { .init($0.name, .integer($0.count)) }),
            "samplesByHealthType": .object(statistics.samplesByHealthType.map { .init($0.name, .integer($0.count)) }),
            "repeatedSamples": .integer(statistics.repeatedSamples), "withdrawnSamples": .integer(statistics.withdrawnSamples),
            "bytes": .integer(statistics.bytes),
            "timeZone": .string(statistics.timeZone),
        ])
    }
}
