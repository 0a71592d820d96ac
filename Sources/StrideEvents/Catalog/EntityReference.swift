/// What kind of thing an event concerns.
public enum EntityKind: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The ledger itself: its creation and settings.
    case ledger = 0
    /// One health sample (an Apple Health `Record`).
    case sample = 1
    /// One workout.
    case workout = 2
    /// One running shoe.
    case shoe = 3
    /// The points account.
    case points = 4
    /// The journal.
    case journal = 5
    /// One day's activity rings (an Apple Health `ActivitySummary`).
    case activitySummary = 6
    /// A device that sends to the server with an access token, by its name.
    case device = 7
    /// One request sent to the server with an idempotency key (its answer is kept).
    case request = 8
    /// The runner: their settings (maximum and resting heart rate).
    case athlete = 9

    /// The lowercase name used in JSON and on the command line.
    public var description: String {
        switch self {
        case .ledger: "ledger"
        case .sample: "sample"
        case .workout: "workout"
        case .shoe: "shoe"
        case .points: "points"
        case .journal: "journal"
        case .activitySummary: "activitySummary"
        case .device: "device"
        case .request: "request"
        case .athlete: "athlete"
        }
    }
}

/// The entity an event concerns: its kind and a 128-bit identifier.
///
/// Samples and workouts are identified by a hash of their identity (see the ingest rules);
/// shoes by a random identifier drawn when they are registered; the ledger, the points
/// account and the journal by the identifier 0.
public struct EntityReference: Hashable, Sendable, CustomStringConvertible {
    /// The kind of entity.
    public var kind: EntityKind
    /// The identifier within that kind.
    public var id: UInt128

    /// Creates a reference.
    public init(_ kind: EntityKind, id: UInt128) {
        self.kind = kind
        self.id = id
    }

    /// The ledger itself.
    public static let ledger = EntityReference(.ledger, id: 0)
    /// The points account.
    public static let points = EntityReference(.points, id: 0)
    /// The journal.
    public static let journal = EntityReference(.journal, id: 0)
    /// The runner.
    public static let athlete = EntityReference(.athlete, id: 0)

    /// The identifier as 32 lowercase hexadecimal digits.
    public var idText: String { Hex.string(id) }

    /// The identifier as users see it: the low 64 bits in 16 hexadecimal digits. For samples
    /// and workouts those are the identity hash (the high bits are the start time, shared
    /// by everything that started near it); shoes get ids with nothing in the high bits.
    public var shortID: String { String(Hex.string(id).suffix(16)) }

    /// `kind:id`, e.g. `shoe:0f3c…`.
    public var description: String { "\(kind):\(idText)" }
}

/// The key that makes an append idempotent: an event whose key the log already holds is
/// skipped, so the same sample ingested twice is appended once.
public struct IdempotencyKey: Hashable, Sendable, CustomStringConvertible {
    /// The 128-bit key.
    public var value: UInt128

    /// Creates a key from its value.
    public init(_ value: UInt128) { self.value = value }

    /// A key derived from arbitrary identity material (the first 128 bits of its SHA-256).
    public init(hashing material: some Sequence<UInt8>) {
        self.value = Digest128.of(Array(material))
    }

    /// 32 lowercase hexadecimal digits.
    public var description: String { Hex.string(value) }
}
