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

extension BinaryReader {
    /// Reads a payload's trailing sender: present from schema version `first` on, none in
    /// older versions.
    /// - Throws: ``DecodingFailure`` when the bytes are cut short.
    @inline(__always)
    mutating func readSender(schemaVersion: UInt16, since first: UInt16) throws -> String? {
        schemaVersion >= first ? try readOptional { try $0.readString() } : nil
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
}
