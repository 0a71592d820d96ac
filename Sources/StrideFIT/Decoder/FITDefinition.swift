/// One field of a definition message: where its bytes sit in each data message.
public struct FITFieldDefinition: Hashable, Sendable {
    /// The field's number in its message (253 is every message's timestamp).
    public var number: UInt8
    /// Where the field starts in the data message's content.
    public var offset: Int
    /// Its size in bytes (an array of values when larger than the base type's width).
    public var size: Int
    /// Its base type.
    public var baseType: FITBaseType
}

/// A definition message: the layout of the data messages of one local message type, until
/// another definition replaces it.
public struct FITMessageDefinition: Hashable, Sendable {
    /// The global message number (0 file_id, 18 session, 19 lap, 20 record…).
    public var globalNumber: UInt16
    /// Whether multi-byte values are big-endian.
    public var isBigEndian: Bool
    /// The profile-defined fields, in order.
    public var fields: [FITFieldDefinition]
    /// Bytes of developer fields after the profile fields: skipped, their sizes known from the
    /// definition without reading the developer's field descriptions.
    public var developerBytes: Int
    /// Bytes of a data message's content: every field, developer fields included.
    public var contentSize: Int
    /// Where the timestamp field (253) sits, if the message has a four-byte one.
    public var timestampOffset: Int?

    /// The field numbered `number`, if the message has it.
    public func field(_ number: UInt8) -> FITFieldDefinition? {
        fields.first { $0.number == number }
    }

    /// The fixed part of a definition message after its record header: reserved byte,
    /// architecture, global number (2), field count.
    static let fixedSize = 5
}
