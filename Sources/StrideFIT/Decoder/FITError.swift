/// Why a FIT file, or one of the FIT files chained in it, cannot be read. Every case names the
/// byte offset (from the start of the whole file) where reading stopped.
public enum FITError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No FIT header at this offset: the first byte is not a header size of 12 or 14, or the
    /// ".FIT" signature is missing.
    case notFIT(offset: Int)
    /// The 14-byte header's own CRC does not match its first 12 bytes.
    case headerCRCMismatch(offset: Int)
    /// The file ends, at `offset`, before the data its header declares or the CRC after it.
    case truncated(offset: Int)
    /// The CRC at `offset` does not match the header and data before it.
    case fileCRCMismatch(offset: Int)
    /// A data message uses a local message type no definition message has defined.
    case undefinedLocalType(offset: Int, localType: UInt8)
    /// A definition message names a byte order other than 0 (little-endian) or 1 (big-endian).
    case unknownByteOrder(offset: Int, value: UInt8)
    /// A message runs past the end of the data the header declares.
    case messageOverrunsData(offset: Int)
    /// The file is larger than any FIT file a device writes (see ``FITDecoder/largestFile``).
    case tooLarge(bytes: Int)

    /// The offset where reading stopped.
    public var offset: Int {
        switch self {
        case .notFIT(let offset), .headerCRCMismatch(let offset), .fileCRCMismatch(let offset),
            .messageOverrunsData(let offset), .truncated(let offset):
            offset
        case .undefinedLocalType(let offset, _), .unknownByteOrder(let offset, _): offset
        case .tooLarge(let bytes): bytes
        }
    }

    public var description: String {
        switch self {
        case .notFIT(let offset): "no FIT header at byte \(offset)"
        case .headerCRCMismatch(let offset): "the FIT header at byte \(offset) fails its CRC"
        case .truncated(let offset):
            "the file ends at byte \(offset), before the data its FIT header declares and the CRC after it: it is truncated"
        case .fileCRCMismatch(let offset): "the FIT file's CRC at byte \(offset) does not match its data: it is damaged"
        case .undefinedLocalType(let offset, let localType):
            "the data message at byte \(offset) uses local message type \(localType), which no definition message defined"
        case .unknownByteOrder(let offset, let value): "the definition message at byte \(offset) names byte order \(value), neither 0 nor 1"
        case .messageOverrunsData(let offset): "the message at byte \(offset) runs past the end of the data its FIT header declares"
        case .tooLarge(let bytes): "\(bytes) bytes is larger than any FIT file a device writes"
        }
    }
}
