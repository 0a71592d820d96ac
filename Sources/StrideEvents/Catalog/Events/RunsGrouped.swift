/// The same-run rule's grouping of workouts into runs, as it stands once a workout arrived (or
/// the runner said two are, or are not, one run): every workout named is, from this event on,
/// a member of exactly the run its group lists — a group of one is a run of its own.
///
/// The rule (see the mileage projection's `SameRunPolicy`) is a function of the set of
/// workouts and the runner's word, never of the order they arrived in; an arrival re-groups
/// the workouts it could be a copy of, and this event states the outcome for each run that
/// changed. Only changed runs are listed: a workout not named keeps its run.
public struct RunsGrouped: EventPayload {
    public static let eventType = EventType.runsGrouped
    public static let schemaVersion: UInt16 = 1

    /// The runs, each its workouts' ids (in no particular order; the projection chooses which
    /// copy is counted).
    public var groups: [[UInt128]]

    /// Creates the payload.
    public init(groups: [[UInt128]]) {
        self.groups = groups
    }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(varint: UInt64(groups.count))
        for group in groups {
            writer.write(varint: UInt64(group.count))
            for workout in group { writer.write(fixed: workout) }
        }
    }

    public init(decoding reader: inout BinaryReader, schemaVersion: UInt16) throws {
        guard schemaVersion == 1 else { throw Self.unknownVersion(schemaVersion) }
        groups = try (0..<reader.readCount()).map { _ in try (0..<reader.readCount()).map { _ in try reader.read(fixed: UInt128.self) } }
    }

    public var json: JSONValue {
        .object([
            "runs": .array(groups.map { group in .array(group.map { .string(EntityReference(.workout, id: $0).shortID) }) })
        ])
    }
}
