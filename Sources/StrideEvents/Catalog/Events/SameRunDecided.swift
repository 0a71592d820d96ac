/// Who decided whether two workouts are one run.
public enum SameRunDecider: UInt8, Hashable, Sendable, CustomStringConvertible {
    /// The same-run rule, as a workout arrived (see the mileage projection's `SameRunPolicy`).
    case rule = 0
    /// The runner (`stride workouts same` or `different`), which wins over the rule.
    case runner = 1

    public var description: String {
        switch self {
        case .rule: "rule"
        case .runner: "runner"
        }
    }
}

/// Two recorded workouts were decided to be the same run — the one run recorded twice, by a
/// watch's file and by Apple Health, say — or, by the runner, to be different runs.
///
/// The event's entity is one workout; ``other`` is the workout it was compared with. A
/// runner's decision about a pair wins over the rule from then on.
///
/// Schema version 2 (written now) records the runner's word only: the runs it makes follow as
/// the rule's ``RunsGrouped`` in the same transaction. Version 1 (``isLegacy``), written by a
/// Stride whose rule decided pair by pair as workouts arrived, joined or split the two runs
/// itself, and still does when its log is folded, so that the past reads as it was recorded.
public struct SameRunDecided: EventPayload {
    public static let eventType = EventType.sameRunDecided
    public static let schemaVersion: UInt16 = 2

    /// The workout compared with the event's.
    public var other: UInt128
    /// True: one run; false: two different runs.
    public var isSameRun: Bool
    /// The rule or the runner.
    public var decidedBy: SameRunDecider
    /// For the rule, the share of the shorter workout's time both cover (0 to 1).
    public var overlap: Double?
    /// The device that sent the runner's decision through the server; nil otherwise.
    public var sentBy: String?
    /// Whether it was written in schema version 1: the pair's runs are joined or split by the
    /// event itself, not by a ``RunsGrouped`` after it.
    public var isLegacy = false

    /// Creates the payload.
    public init(other: UInt128, isSameRun: Bool, decidedBy: SameRunDecider, overlap: Double? = nil, sentBy: String? = nil) {
        self.other = other
        self.isSameRun = isSameRun
        self.decidedBy = decidedBy
        self.overlap = overlap
        self.sentBy = sentBy
    }

    public var writtenSchemaVersion: UInt16 { isLegacy ? 1 : Self.schemaVersion }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(fixed: other)
        writer.write(isSameRun)
        writer.write(decidedBy.rawValue)
        writer.write(optional: overlap) { $0.write($1) }
        writer.write(optional: sentBy) { $0.write($1) }
    }

    public init(decoding reader: inout BinaryReader, schemaVersion: UInt16) throws {
        guard schemaVersion == 1 || schemaVersion == 2 else { throw Self.unknownVersion(schemaVersion) }
        isLegacy = schemaVersion == 1
        other = try reader.read(fixed: UInt128.self)
        isSameRun = try reader.readBool()
        guard let decider = SameRunDecider(rawValue: try reader.readByte()) else { throw DecodingFailure("unknown same-run decider") }
        decidedBy = decider
        overlap = try reader.readOptional { try $0.readDouble() }
        sentBy = try reader.readOptional { try $0.readString() }
    }

    public var json: JSONValue {
        .object(
            [
                "other": .string(EntityReference(.workout, id: other).shortID), "isSameRun": .bool(isSameRun),
                "decidedBy": .string(decidedBy.description), "overlap": .number(overlap),
            ], sentBy: sentBy)
    }
}
