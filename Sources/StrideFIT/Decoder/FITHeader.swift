/// A FIT file header: 12 bytes, or 14 with a CRC of the first 12.
public struct FITHeader: Hashable, Sendable {
    /// 12 or 14.
    public var size: Int
    /// The protocol version byte.
    public var protocolVersion: UInt8
    /// The profile version (e.g. 2105 for 21.05).
    public var profileVersion: UInt16
    /// Bytes of messages after the header, before the file's CRC.
    public var dataSize: Int

    /// Reads the header at `offset`.
    /// - Throws: ``FITError/notFIT(offset:)`` when there is none, ``FITError/truncated(offset:)``
    ///   when the bytes end inside it, ``FITError/headerCRCMismatch(offset:)`` when its CRC fails.
    public init(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws {
        guard offset < bytes.count else { throw FITError.truncated(offset: bytes.count) }
        let size = Int(bytes[offset])
        guard size == 12 || size == 14 else { throw FITError.notFIT(offset: offset) }
        guard offset + size <= bytes.count else {
            if offset + 12 <= bytes.count, !Self.hasSignature(bytes, at: offset) { throw FITError.notFIT(offset: offset) }
            throw FITError.truncated(offset: bytes.count)
        }
        guard Self.hasSignature(bytes, at: offset) else { throw FITError.notFIT(offset: offset) }
        self.size = size
        protocolVersion = bytes[offset + 1]
        profileVersion = UInt16(FITMessage.load(bytes, at: offset + 2, width: 2, bigEndian: false))
        dataSize = Int(FITMessage.load(bytes, at: offset + 4, width: 4, bigEndian: false))
        if size == 14 {
            let written = UInt16(FITMessage.load(bytes, at: offset + 12, width: 2, bigEndian: false))
            // Zero means the writer did not compute it, which the protocol allows.
            if written != 0, FITCRC.update(0, with: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + 12])) != written {
                throw FITError.headerCRCMismatch(offset: offset)
            }
        }
    }

    /// Whether bytes 8 to 11 after `offset` are ".FIT".
    public static func hasSignature(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        offset + 12 <= bytes.count && bytes[offset + 8] == 0x2E && bytes[offset + 9] == 0x46 && bytes[offset + 10] == 0x49
            && bytes[offset + 11] == 0x54
    }
}
