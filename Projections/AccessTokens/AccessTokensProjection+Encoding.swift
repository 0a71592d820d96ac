import StrideEvents
import StrideProjection

extension AccessTokensProjection {
    /// Key prefixes: every key of one kind shares its first byte, so a kind is a key range.
    enum Prefix: UInt8 {
        case token = 1, device
    }

    public func encode(key: Key) -> [UInt8] {
        var writer = BinaryWriter(capacity: 40)
        switch key {
        case .token(let hash):
            writer.write(Prefix.token.rawValue)
            writer.write(raw: hash.bytes)
        case .device(let name):
            writer.write(Prefix.device.rawValue)
            writer.write(raw: Array(name.utf8))
        }
        return writer.bytes
    }

    public func decodeKey(_ bytes: UnsafeRawBufferPointer) throws -> Key {
        var reader = BinaryReader(bytes)
        switch Prefix(rawValue: try reader.readByte()) {
        case .token:
            guard let hash = AccessTokenHash(bytes: Array(try reader.readBytes(count: reader.remaining))) else {
                throw DecodingFailure("a token key holds a 32-byte hash")
            }
            return .token(hash)
        case .device:
            return .device(String(decoding: try reader.readBytes(count: reader.remaining), as: UTF8.self))
        case nil:
            throw DecodingFailure("unknown token key kind")
        }
    }

    public func encode(row: Row, into writer: inout BinaryWriter) {
        switch row {
        case .token(let token):
            writer.write(Prefix.token.rawValue)
            writer.write(token.name)
            writer.write(raw: token.sha256.bytes)
            writer.write(varint: token.addedSequence)
            writer.write(token.addedAt)
            writer.write(optional: token.revokedAt) { $0.write($1) }
        case .device(let tokens):
            writer.write(Prefix.device.rawValue)
            writer.write(varint: UInt64(tokens.count))
            for hash in tokens { writer.write(raw: hash.bytes) }
        }
    }

    public func decodeRow(_ bytes: UnsafeRawBufferPointer) throws -> Row {
        var reader = BinaryReader(bytes)
        func hash(_ reader: inout BinaryReader) throws -> AccessTokenHash {
            guard let hash = AccessTokenHash(bytes: Array(try reader.readBytes(count: AccessTokenHash.byteCount))) else {
                throw DecodingFailure("a token hash is 32 bytes")
            }
            return hash
        }
        let row: Row
        switch Prefix(rawValue: try reader.readByte()) {
        case .token:
            row = .token(
                DeviceToken(
                    name: try reader.readString(), sha256: try hash(&reader), addedSequence: try reader.readVarint(),
                    addedAt: try reader.readTimestamp(), revokedAt: try reader.readOptional { try $0.readTimestamp() }))
        case .device:
            let count = try reader.readCount()
            var tokens: [AccessTokenHash] = []
            for _ in 0..<count { tokens.append(try hash(&reader)) }
            row = .device(tokens: tokens)
        case nil:
            throw DecodingFailure("unknown token row kind")
        }
        try reader.expectEnd("a token row")
        return row
    }
}
