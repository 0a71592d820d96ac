import StrideEvents
import StrideProjection

/// The samples the ledger holds, for `stride stats` and for decisions about samples: how many
/// of each HealthKit type (a repeat counted once), and the samples that are withdrawn or
/// repeats, each with why.
///
/// Version 2: repeats are counted once, and withdrawn samples and repeats are tracked.
public struct SampleCountsProjection: Projection {
    public typealias Key = SampleCountsKey
    public typealias Row = SampleCountsRow

    public let name = "sampleCounts"
    public let version: UInt32 = 2
    /// Small rows: snapshots of them are kept (see the store's `snapshotInterval`).
    public var keepsSnapshots: Bool { true }

    /// Creates the projection.
    public init() {}

    public func apply(_ event: borrowing ProjectionEvent, to rows: inout ProjectionRows<Key, Row>) {
        switch event.content {
        case .sample(let sample):
            rows.update(.type(SampleTypeName(sample.healthType, code: sample.typeCode)), creating: { .count(0) }) { $0.add(1) }
        case .event(.sampleRepeated(let repeated)):
            let key = SampleCountsKey.status(repeated.sample.sequence)
            guard rows.row(key)?.status?.repeatOf == nil else { return }
            rows.update(key, creating: { .status(SampleStatus()) }) { $0.change { $0.repeatOf = repeated.original } }
            let type = repeated.sample.healthType
            rows.update(.type(SampleTypeName(type, code: HealthTypeCatalog.code(of: type) ?? 0)), creating: { .count(0) }) { $0.add(-1) }
            rows.update(.totals, creating: { .totals(SampleTotals()) }) { $0.changeTotals { $0.repeats += 1 } }
        case .event(.sampleWithdrawn(let withdrawn)):
            let key = SampleCountsKey.status(withdrawn.sample.sequence)
            let wasWithdrawn = rows.row(key)?.status?.withdrawal != nil
            let withdrawal = Withdrawal(cause: withdrawn.cause, sequence: event.sequence, at: event.occurredAt, sentBy: withdrawn.sentBy)
            rows.update(key, creating: { .status(SampleStatus()) }) { $0.change { $0.withdrawal = withdrawal } }
            if !wasWithdrawn { rows.update(.totals, creating: { .totals(SampleTotals()) }) { $0.changeTotals { $0.withdrawn += 1 } } }
        case .event(.sampleRestored(let restored)):
            let key = SampleCountsKey.status(restored.sample.sequence)
            guard var status = rows.row(key)?.status, status.withdrawal != nil else { return }
            status.withdrawal = nil
            if status.repeatOf == nil { rows.remove(key) } else { rows.update(key, creating: { .status(status) }) { $0 = .status(status) } }
            rows.update(.totals, creating: { .totals(SampleTotals()) }) { $0.changeTotals { $0.withdrawn -= 1 } }
        default:
            break
        }
    }
}

/// A row's key: a HealthKit type's count, a sample's status (by the sequence of its
/// `sample.recorded` event), or the totals.
public enum SampleCountsKey: RowKey {
    case type(SampleTypeName)
    case status(UInt64)
    case totals

    public var hashWord: UInt64 {
        switch self {
        case .type(let name): name.hashWord & ~(3 << 62)
        case .status(let sequence): sequence | 1 << 62
        case .totals: 1 << 63
        }
    }
}

/// A row: a count, a sample's status, or the totals.
public enum SampleCountsRow: Hashable, Sendable {
    case count(Int64)
    case status(SampleStatus)
    case totals(SampleTotals)

    /// The status, for a status row.
    public var status: SampleStatus? {
        if case .status(let status) = self { return status }
        return nil
    }

    mutating func add(_ amount: Int64) {
        if case .count(let count) = self { self = .count(count + amount) }
    }

    mutating func change(_ body: (inout SampleStatus) -> Void) {
        guard case .status(var status) = self else { return }
        body(&status)
        self = .status(status)
    }

    mutating func changeTotals(_ body: (inout SampleTotals) -> Void) {
        guard case .totals(var totals) = self else { return }
        body(&totals)
        self = .totals(totals)
    }
}

/// Why a sample is left out of the figures, though kept in the log.
public struct SampleStatus: Hashable, Sendable {
    /// Its withdrawal, while it is withdrawn.
    public var withdrawal: Withdrawal?
    /// The sequence of the sample it repeats, when it is a repeat.
    public var repeatOf: UInt64?

    /// Creates a status: counted.
    public init(withdrawal: Withdrawal? = nil, repeatOf: UInt64? = nil) {
        self.withdrawal = withdrawal
        self.repeatOf = repeatOf
    }
}

/// A sample's withdrawal: why, by which event, when, and who sent it.
public struct Withdrawal: Hashable, Sendable {
    /// Why.
    public var cause: WithdrawalCause
    /// The `sample.withdrawn` event's sequence.
    public var sequence: UInt64
    /// When it was withdrawn.
    public var at: Timestamp
    /// The device that sent the runner's withdrawal through the server, if one did.
    public var sentBy: String?
}

/// How many samples are repeats and how many are withdrawn now.
public struct SampleTotals: Hashable, Sendable {
    public var repeats: Int64 = 0
    public var withdrawn: Int64 = 0

    /// No repeats, nothing withdrawn.
    public init() {}
}

/// A HealthKit type's name as a row key, told apart by its catalog code when it has one: the
/// count is bumped once per sample, and hashing a 40-byte name each time cost more than the
/// rest of the projection.
public struct SampleTypeName: Hashable, Sendable {
    /// The type identifier.
    public let name: String
    /// Its catalog code (``HealthTypeCatalog``), 0 when it is not listed.
    public let code: UInt64

    /// A key for a type; `code` must be the catalog's code of `name` (0 when not listed).
    public init(_ name: String, code: UInt64) {
        self.name = name
        self.code = code
    }

    public static func == (lhs: SampleTypeName, rhs: SampleTypeName) -> Bool {
        // A code names one identifier, so equal codes are equal names.
        lhs.code == rhs.code && (lhs.code != 0 || lhs.name == rhs.name)
    }

    public func hash(into hasher: inout Hasher) {
        if code != 0 { hasher.combine(code) } else { hasher.combine(name) }
    }

    /// A listed type's code; the name's hash for others.
    var hashWord: UInt64 { code != 0 ? code : UInt64(bitPattern: Int64(name.hashValue)) }
}
