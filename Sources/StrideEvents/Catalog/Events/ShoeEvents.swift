/// A shoe was renamed.
public struct ShoeRenamed: EventPayload {
    public static let eventType = EventType.shoeRenamed
    public static let schemaVersion: UInt16 = 1

    /// The shoe.
    public var shoe: UInt128
    /// Its new name.
    public var name: String

    /// Creates the payload.
    public init(shoe: UInt128, name: String) {
        self.shoe = shoe
        self.name = name
    }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(fixed: shoe)
        writer.write(name)
    }

    public init(decoding reader: inout BinaryReader, schemaVersion: UInt16) throws {
        guard schemaVersion == 1 else { throw Self.unknownVersion(schemaVersion) }
        shoe = try reader.read(fixed: UInt128.self)
        name = try reader.readString()
    }

    public var json: JSONValue { .object(["shoe": .string(ShoeID.text(shoe)), "name": .string(name)]) }
}

/// A shoe was retired (it takes no new workouts) or brought back.
public struct ShoeRetirement: EventPayload {
    public static let eventType = EventType.shoeRetirementChanged
    public static let schemaVersion: UInt16 = 1

    /// The shoe.
    public var shoe: UInt128
    /// Whether it is retired from now on.
    public var isRetired: Bool

    /// Creates the payload.
    public init(shoe: UInt128, isRetired: Bool) {
        self.shoe = shoe
        self.isRetired = isRetired
    }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(fixed: shoe)
        writer.write(isRetired)
    }

    public init(decoding reader: inout BinaryReader, schemaVersion: UInt16) throws {
        guard schemaVersion == 1 else { throw Self.unknownVersion(schemaVersion) }
        shoe = try reader.read(fixed: UInt128.self)
        isRetired = try reader.readBool()
    }

    public var json: JSONValue { .object(["shoe": .string(ShoeID.text(shoe)), "isRetired": .bool(isRetired)]) }
}

/// The default shoe was chosen, or cleared: new runs from this moment on go to it.
public struct DefaultShoeSelected: EventPayload {
    public static let eventType = EventType.defaultShoeSelected
    public static let schemaVersion: UInt16 = 1

    /// The shoe, or nil when cleared.
    public var shoe: UInt128?

    /// Creates the payload.
    public init(shoe: UInt128?) {
        self.shoe = shoe
    }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(optional: shoe) { $0.write(fixed: $1) }
    }

    public init(decoding reader: inout BinaryReader, schemaVersion: UInt16) throws {
        guard schemaVersion == 1 else { throw Self.unknownVersion(schemaVersion) }
        shoe = try reader.readOptional { try $0.read(fixed: UInt128.self) }
    }

    public var json: JSONValue { .object(["shoe": .string(shoe.map(ShoeID.text))]) }
}

/// Who assigned a workout to a shoe.
public enum AssignmentOrigin: UInt8, Hashable, Sendable, CustomStringConvertible {
    /// The runner, with `stride assign`.
    case manual = 0
    /// The auto-assignment policy, to the default shoe.
    case auto = 1

    public var description: String { self == .manual ? "manual" : "auto" }
}

/// A workout was assigned to a shoe (moving it from another one, if it had one).
public struct WorkoutAssigned: EventPayload {
    public static let eventType = EventType.workoutAssigned
    public static let schemaVersion: UInt16 = 1

    /// The shoe.
    public var shoe: UInt128
    /// Manual or auto.
    public var origin: AssignmentOrigin

    /// Creates the payload.
    public init(shoe: UInt128, origin: AssignmentOrigin) {
        self.shoe = shoe
        self.origin = origin
    }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(fixed: shoe)
        writer.write(origin.rawValue)
    }

    public init(decoding reader: inout BinaryReader, schemaVersion: UInt16) throws {
        guard schemaVersion == 1 else { throw Self.unknownVersion(schemaVersion) }
        shoe = try reader.read(fixed: UInt128.self)
        guard let origin = AssignmentOrigin(rawValue: try reader.readByte()) else { throw DecodingFailure("unknown assignment origin") }
        self.origin = origin
    }

    public var json: JSONValue { .object(["shoe": .string(ShoeID.text(shoe)), "assignedBy": .string(origin.description)]) }
}

/// A workout's change of assignment without a shoe: unassigned, or excluded from
/// auto-assignment.
public struct WorkoutAssignmentChange: EventPayload {
    public static let eventType = EventType.workoutAssignmentChanged
    public static let schemaVersion: UInt16 = 1

    /// What happened.
    public enum Change: UInt8, Sendable, Hashable {
        /// Taken off its shoe.
        case unassigned = 0
        /// Never to be assigned automatically.
        case excluded = 1
    }

    /// What happened.
    public var change: Change

    /// Creates the payload.
    public init(_ change: Change) {
        self.change = change
    }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(change.rawValue)
    }

    public init(decoding reader: inout BinaryReader, schemaVersion: UInt16) throws {
        guard schemaVersion == 1 else { throw Self.unknownVersion(schemaVersion) }
        guard let change = Change(rawValue: try reader.readByte()) else { throw DecodingFailure("unknown assignment change") }
        self.change = change
    }

    public var json: JSONValue { .object(["change": .string(change == .unassigned ? "unassigned" : "excluded")]) }
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
}

extension EntityReference {
    /// The shoe rack: every shoe-management event concerns it, so that its version guards
    /// names, retirements and the default shoe against concurrent changes.
    public static let rack = EntityReference(.shoe, id: 0)
}
