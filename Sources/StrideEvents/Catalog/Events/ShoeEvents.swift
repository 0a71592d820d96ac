/// A shoe was renamed.
///
/// Schema history: version 2 adds the device that sent it (``sentBy``); see
/// ``SentThroughServer``.
public struct ShoeRenamed: SentThroughServer {
    public static let eventType = EventType.shoeRenamed
    public static let schemaVersion: UInt16 = 2

    /// The shoe.
    public var shoe: UInt128
    /// Its new name.
    public var name: String
    /// The device that sent it through the server; nil when renamed on the machine.
    public var sentBy: String?

    /// Creates the payload.
    public init(shoe: UInt128, name: String, sentBy: String? = nil) {
        self.shoe = shoe
        self.name = name
        self.sentBy = sentBy
    }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(fixed: shoe)
        writer.write(name)
        writer.write(sender: sentBy)
    }

    public init(decoding reader: inout BinaryReader, schemaVersion: UInt16) throws {
        try Self.checkReadable(schemaVersion)
        shoe = try reader.read(fixed: UInt128.self)
        name = try reader.readString()
        sentBy = try reader.readSender(schemaVersion: schemaVersion, since: 2)
    }

    public var json: JSONValue { .object(["shoe": .string(ShoeID.text(shoe)), "name": .string(name)], sentBy: sentBy) }
}

/// A shoe was retired (it takes no new workouts) or brought back.
///
/// Schema history: version 2 adds the device that sent it (``sentBy``), see
/// ``SentThroughServer``; version 3 the archive that said so (``source``), see ``ArchiveSourced``.
public struct ShoeRetirement: ArchiveSourced {
    public static let eventType = EventType.shoeRetirementChanged
    public static let schemaVersion: UInt16 = 3

    /// The shoe.
    public var shoe: UInt128
    /// Whether it is retired from now on.
    public var isRetired: Bool
    /// The device that sent it through the server; nil when changed on the machine.
    public var sentBy: String?
    /// The archive that retired it; nil when the runner did.
    public var source: String?

    /// Creates the payload.
    public init(shoe: UInt128, isRetired: Bool, sentBy: String? = nil, source: String? = nil) {
        self.shoe = shoe
        self.isRetired = isRetired
        self.sentBy = sentBy
        self.source = source
    }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(fixed: shoe)
        writer.write(isRetired)
        writer.write(sender: sentBy, source: source)
    }

    public init(decoding reader: inout BinaryReader, schemaVersion: UInt16) throws {
        try Self.checkReadable(schemaVersion)
        shoe = try reader.read(fixed: UInt128.self)
        isRetired = try reader.readBool()
        sentBy = try reader.readSender(schemaVersion: schemaVersion, since: 2)
        source = try reader.readSource(schemaVersion: schemaVersion, since: 3)
    }

    public var json: JSONValue {
        .object(["shoe": .string(ShoeID.text(shoe)), "isRetired": .bool(isRetired)], sentBy: sentBy, source: source)
    }
}

/// The default shoe was chosen, or cleared: new runs from this moment on go to it.
///
/// Schema history: version 2 adds the device that sent it (``sentBy``), see
/// ``SentThroughServer``; version 3 the archive that chose it (``source``), see ``ArchiveSourced``.
public struct DefaultShoeSelected: ArchiveSourced {
    public static let eventType = EventType.defaultShoeSelected
    public static let schemaVersion: UInt16 = 3

    /// The shoe, or nil when cleared.
    public var shoe: UInt128?
    /// The device that sent it through the server; nil when chosen on the machine.
    public var sentBy: String?
    /// The archive whose default shoe for runs it is; nil when the runner chose it.
    public var source: String?

    /// Creates the payload.
    public init(shoe: UInt128?, sentBy: String? = nil, source: String? = nil) {
        self.shoe = shoe
        self.sentBy = sentBy
        self.source = source
    }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(optional: shoe) { $0.write(fixed: $1) }
        writer.write(sender: sentBy, source: source)
    }

    public init(decoding reader: inout BinaryReader, schemaVersion: UInt16) throws {
        try Self.checkReadable(schemaVersion)
        shoe = try reader.readOptional { try $0.read(fixed: UInt128.self) }
        sentBy = try reader.readSender(schemaVersion: schemaVersion, since: 2)
        source = try reader.readSource(schemaVersion: schemaVersion, since: 3)
    }

    public var json: JSONValue { .object(["shoe": .string(shoe.map(ShoeID.text))], sentBy: sentBy, source: source) }
}

/// Who assigned a workout to a shoe.
public enum AssignmentOrigin: UInt8, Hashable, Sendable, CustomStringConvertible {
    /// The runner, with `stride assign`.
    case manual = 0
    /// The auto-assignment policy, to the default shoe.
    case auto = 1
    /// An account archive (Strava's, Garmin Connect's): the shoe the runner put the run on there.
    case archive = 2

    public var description: String {
        switch self {
        case .manual: "manual"
        case .auto: "auto"
        case .archive: "archive"
        }
    }
}

/// A workout was assigned to a shoe (moving it from another one, if it had one).
///
/// Schema history: version 2 adds the device that sent it (``sentBy``), see
/// ``SentThroughServer``; version 3 the archive row or activity behind it (``source``), see
/// ``ArchiveSourced``. An automatic assignment carries the sender of the run it answers.
public struct WorkoutAssigned: ArchiveSourced {
    public static let eventType = EventType.workoutAssigned
    public static let schemaVersion: UInt16 = 3

    /// The shoe.
    public var shoe: UInt128
    /// Manual, auto or from an archive.
    public var origin: AssignmentOrigin
    /// The device that sent it (or the run it answers) through the server; nil otherwise.
    public var sentBy: String?
    /// For an archive's assignment: the archive and its row or activity.
    public var source: String?

    /// Creates the payload.
    public init(shoe: UInt128, origin: AssignmentOrigin, sentBy: String? = nil, source: String? = nil) {
        self.shoe = shoe
        self.origin = origin
        self.sentBy = sentBy
        self.source = source
    }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(fixed: shoe)
        writer.write(origin.rawValue)
        writer.write(sender: sentBy, source: source)
    }

    public init(decoding reader: inout BinaryReader, schemaVersion: UInt16) throws {
        try Self.checkReadable(schemaVersion)
        shoe = try reader.read(fixed: UInt128.self)
        guard let origin = AssignmentOrigin(rawValue: try reader.readByte()) else { throw DecodingFailure("unknown assignment origin") }
        self.origin = origin
        sentBy = try reader.readSender(schemaVersion: schemaVersion, since: 2)
        source = try reader.readSource(schemaVersion: schemaVersion, since: 3)
    }

    public var json: JSONValue {
        .object(["shoe": .string(ShoeID.text(shoe)), "assignedBy": .string(origin.description)], sentBy: sentBy, source: source)
    }
}

/// A workout's change of assignment without a shoe: unassigned, or excluded from
/// auto-assignment.
///
/// Schema history: version 2 adds the device that sent it (``sentBy``), see
/// ``SentThroughServer``; version 3 the archive that took the run off its shoe (``source``),
/// see ``ArchiveSourced``.
public struct WorkoutAssignmentChange: ArchiveSourced {
    public static let eventType = EventType.workoutAssignmentChanged
    public static let schemaVersion: UInt16 = 3

    /// What happened.
    public enum Change: UInt8, Sendable, Hashable {
        /// Taken off its shoe.
        case unassigned = 0
        /// Never to be assigned automatically.
        case excluded = 1
    }

    /// What happened.
    public var change: Change
    /// The device that sent it through the server; nil when changed on the machine.
    public var sentBy: String?
    /// The archive that took the run off its shoe (a later archive puts it on none); nil for
    /// the runner's own change.
    public var source: String?

    /// Creates the payload.
    public init(_ change: Change, sentBy: String? = nil, source: String? = nil) {
        self.change = change
        self.sentBy = sentBy
        self.source = source
    }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(change.rawValue)
        writer.write(sender: sentBy, source: source)
    }

    public init(decoding reader: inout BinaryReader, schemaVersion: UInt16) throws {
        try Self.checkReadable(schemaVersion)
        guard let change = Change(rawValue: try reader.readByte()) else { throw DecodingFailure("unknown assignment change") }
        self.change = change
        sentBy = try reader.readSender(schemaVersion: schemaVersion, since: 2)
        source = try reader.readSource(schemaVersion: schemaVersion, since: 3)
    }

    public var json: JSONValue {
        .object(["change": .string(change == .unassigned ? "unassigned" : "excluded")], sentBy: sentBy, source: source)
    }
}

/// How shoe ids are shown: 16 hexadecimal digits (the ids have no high bits).
public enum ShoeID {
    /// The id as users see it.
    public static func text(_ id: UInt128) -> String { String(Hex.string(id).suffix(16)) }

    /// A shoe id derived from its name, the moment it is registered and the rack's version
    /// then: 64 bits, never 0 (0 is the rack).
    public static func derived(name: String, at instant: Timestamp, rackVersion: UInt64) -> UInt128 {
        let digest = Digest128.of(Array("shoe|\(name)|\(instant.millisecondsSince1970)|\(rackVersion)".utf8))
        return UInt128(UInt64(truncatingIfNeeded: digest >> 64) | 1)
    }

    /// The id of a shoe an account archive adds to the rack, derived from what the archive calls
    /// it (its service, and its gear id or its name): the same whatever else the rack held, so
    /// that a ledger's shoes and figures do not depend on the order files were ingested in.
    public static func derived(service: String, gear: String, name: String, at instant: Timestamp) -> UInt128 {
        let digest = Digest128.of(Array("archive-shoe|\(service)|\(gear)|\(name)|\(instant.millisecondsSince1970)".utf8))
        return UInt128(UInt64(truncatingIfNeeded: digest >> 64) | 1)
    }
}

extension EntityReference {
    /// The shoe rack: every shoe-management event concerns it, so that its version guards
    /// names, retirements and the default shoe against concurrent changes.
    public static let rack = EntityReference(.shoe, id: 0)
}
