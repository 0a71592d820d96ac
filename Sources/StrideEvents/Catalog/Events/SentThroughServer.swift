/// A payload that names the device that sent it through the server (the name of the access
/// token it came with), or no device when the action was taken on the machine.
///
/// The sender is the last field of the payload's newest schema version, and the only thing
/// that version adds to the one before. A value with no sender is therefore written in the
/// version before, byte for byte: an action taken on the machine is stored exactly as an older
/// Stride stored it, so a ledger that never used the server stays readable by one, and its
/// hash chain does not depend on which Stride wrote it. Both versions are read, the older
/// upcast with no sender.
public protocol SentThroughServer: EventPayload {
    /// The device that sent the event through the server; nil for an action on the machine.
    var sentBy: String? { get set }
}

extension SentThroughServer {
    /// The newest version when there is a sender; else the version before, which has no room
    /// for one.
    public var writtenSchemaVersion: UInt16 { sentBy == nil ? Self.schemaVersion - 1 : Self.schemaVersion }

    /// Whether the payload can be read in a version: any from the first to the newest.
    /// - Throws: ``DecodingFailure`` for a version this payload never had.
    static func checkReadable(_ version: UInt16) throws {
        guard (1...schemaVersion).contains(version) else { throw unknownVersion(version) }
    }
}

extension BinaryWriter {
    /// Writes a payload's sender last, when it has one (the newest schema version); writes
    /// nothing when it has none (the version before).
    mutating func write(sender: String?) {
        guard let sender else { return }
        write(optional: sender) { $0.write($1) }
    }
}

extension BinaryWriter {
    /// Writes a payload's sender and, when there is one, the archive it came from (see
    /// ``ArchiveSourced``): with no source, exactly as ``write(sender:)``.
    mutating func write(sender: String?, source: String?) {
        guard let source else { return write(sender: sender) }
        write(optional: sender) { $0.write($1) }
        write(source)
    }
}

/// A shoe or assignment event that an account archive's ingest may write (Strava's
/// `activities.csv`, Garmin Connect's `gear.json`): ``source`` names the archive and its row or
/// activity, so that `mileage explain` can say where each run on a shoe came from.
///
/// The source is written after the sender, in a schema version of its own that writes the
/// sender even when absent; an event with no source is written as before, byte for byte.
public protocol ArchiveSourced: SentThroughServer {
    /// The archive and its row or activity behind the event; nil for the runner's own action.
    var source: String? { get }
}

extension ArchiveSourced {
    /// The newest version with a source; else as a ``SentThroughServer`` payload.
    public var writtenSchemaVersion: UInt16 {
        source != nil ? Self.schemaVersion : sentBy == nil ? Self.schemaVersion - 2 : Self.schemaVersion - 1
    }
}

extension BinaryReader {
    /// Reads a payload's trailing sender: present from schema version `first` on, none in
    /// older versions.
    /// - Throws: ``DecodingFailure`` when the bytes are cut short.
    @inline(__always)
    mutating func readSender(schemaVersion: UInt16, since first: UInt16) throws -> String? {
        schemaVersion >= first ? try readOptional { try $0.readString() } : nil
    }

    /// Reads the archive source written after the sender from schema version `first` on.
    mutating func readSource(schemaVersion: UInt16, since first: UInt16) throws -> String? {
        schemaVersion >= first ? try readString() : nil
    }
}

extension JSONValue {
    /// An object's members with `sentBy` added last when there is a sender: a payload with
    /// none prints as it always did.
    static func object(_ members: [Member], sentBy: String?) -> JSONValue {
        guard let sentBy else { return .object(members) }
        return .object(members + [Member("sentBy", .string(sentBy))])
    }

    /// An object from key–value pairs, in order, with `sentBy` added last when there is one.
    static func object(_ pairs: KeyValuePairs<String, JSONValue>, sentBy: String?) -> JSONValue {
        .object(pairs.map { Member($0.key, $0.value) }, sentBy: sentBy)
    }

    /// As ``object(_:sentBy:)``, with the archive `source` last when there is one.
    static func object(_ pairs: KeyValuePairs<String, JSONValue>, sentBy: String?, source: String?) -> JSONValue {
        let members = pairs.map { Member($0.key, $0.value) } + (source.map { [Member("source", .string($0))] } ?? [])
        return .object(members, sentBy: sentBy)
    }
}
