/// The stored form of one event, and the rules that write, read and check it.
///
/// Layout, little-endian:
///
/// | offset | size | field |
/// | --- | --- | --- |
/// | 0 | 1 | envelope format (1) |
/// | 1 | 1 | flags (bit 0: an idempotency key follows the entity) |
/// | 2 | 2 | event type code |
/// | 4 | 2 | payload schema version |
/// | 6 | 1 | entity kind |
/// | 7 | 1 | reserved, 0 |
/// | 8 | 8 | sequence |
/// | 16 | 8 | recorded at (ms since 1970) |
/// | 24 | 8 | occurred at (ms since 1970) |
/// | 32 | 16 | entity id |
/// | 48 | 16 | idempotency key, when flagged |
/// | … | 4 | payload length *n* |
/// | … | *n* | payload |
/// | … | 4 | CRC-32C of every byte above |
/// | … | 32 | chain hash: SHA-256 of the previous event's chain hash and every byte above |
public struct Envelope: Hashable, Sendable {
    /// The only envelope format so far.
    public static let format: UInt8 = 1
    /// The bytes before the optional idempotency key.
    public static let fixedHeaderSize = 48
    /// The checksum and chain hash after the payload.
    public static let trailerSize = 36

    /// The sequence number.
    public var sequence: UInt64
    /// When the log recorded the event.
    public var recordedAt: Timestamp
    /// When the event's subject happened.
    public var occurredAt: Timestamp
    /// The event type code.
    public var typeCode: UInt16
    /// The payload's schema version.
    public var schemaVersion: UInt16
    /// The entity.
    public var entity: EntityReference
    /// The idempotency key, when there is one.
    public var idempotencyKey: IdempotencyKey?
    /// Where the payload lies within the stored bytes.
    public var payloadRange: Range<Int>
    /// The stored checksum.
    public var checksum: UInt32
    /// The stored chain hash.
    public var chainHash: ChainHash

    /// The type code of stored event bytes, read from the envelope without parsing the rest
    /// (nil for bytes too short to hold one): what lets a walk of the log pass an event by.
    public static func typeCode(ofStored bytes: UnsafeRawBufferPointer) -> UInt16? {
        guard bytes.count >= 4 else { return nil }
        return UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: 2, as: UInt16.self))
    }

    /// Reads the envelope fields of stored bytes, without checking the checksum or the chain.
    /// - Throws: ``DecodingFailure`` when the bytes are not an envelope.
    public init(parsing bytes: UnsafeRawBufferPointer) throws {
        // Every scan, fold and verify parses each event's envelope: the length is checked
        // once, then the fixed fields are loaded directly.
        guard bytes.count >= Envelope.fixedHeaderSize + 4 + Envelope.trailerSize else {
            throw DecodingFailure("unexpected end of data")
        }
        let format = bytes[0]
        guard format == Envelope.format else { throw DecodingFailure("unknown envelope format \(format)") }
        let flags = bytes[1]
        guard flags & ~1 == 0 else { throw DecodingFailure("unknown envelope flags \(flags)") }
        typeCode = UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: 2, as: UInt16.self))
        schemaVersion = UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: 4, as: UInt16.self))
        guard let kind = EntityKind(rawValue: bytes[6]) else { throw DecodingFailure("unknown entity kind \(bytes[6])") }
        guard bytes[7] == 0 else { throw DecodingFailure("reserved envelope byte is not zero") }
        sequence = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        recordedAt = Timestamp(millisecondsSince1970: Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: 16, as: Int64.self)))
        occurredAt = Timestamp(millisecondsSince1970: Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: 24, as: Int64.self)))
        entity = EntityReference(kind, id: UInt128(littleEndian: bytes.loadUnaligned(fromByteOffset: 32, as: UInt128.self)))
        var offset = Envelope.fixedHeaderSize
        if flags & 1 == 1 {
            guard bytes.count >= offset + 16 + 4 + Envelope.trailerSize else { throw DecodingFailure("unexpected end of data") }
            idempotencyKey = IdempotencyKey(UInt128(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt128.self)))
            offset += 16
        } else {
            idempotencyKey = nil
        }
        let payloadLength = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        offset += 4
        guard bytes.count - offset - Envelope.trailerSize >= payloadLength else { throw DecodingFailure("unexpected end of data") }
        payloadRange = offset..<offset + payloadLength
        offset += payloadLength
        checksum = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
        offset += 4
        guard let hash = ChainHash(bytes: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + 32])) else {
            throw DecodingFailure("the chain hash is cut short")
        }
        chainHash = hash
        let unread = bytes.count - offset - 32
        guard unread == 0 else { throw DecodingFailure("\(unread) unread bytes after the envelope") }
    }

    /// The number of bytes covered by the checksum: everything before it.
    var checkedLength: Int { payloadRange.upperBound }

    /// Writes an event's envelope into `writer` (emptied first); returns its chain hash and
    /// its type code.
    @inline(__always)
    public static func write(
        _ pending: borrowing PendingEvent, sequence: UInt64, recordedAt: Timestamp, previous: ChainHash,
        into writer: inout BinaryWriter, hasher: SHA256Hasher
    ) -> (hash: ChainHash, typeCode: UInt16) {
        writer.removeAll()
        writer.write(format)
        writer.write(pending.idempotencyKey == nil ? UInt8(0) : 1)
        let typeOffset = writer.count
        writer.write(fixed: UInt16(0))
        writer.write(fixed: UInt16(0))
        writer.write(pending.entity.kind.rawValue)
        writer.write(UInt8(0))
        writer.write(fixed: sequence)
        writer.write(fixed: recordedAt.millisecondsSince1970)
        writer.write(fixed: pending.occurredAt.millisecondsSince1970)
        writer.write(fixed: pending.entity.id)
        if let key = pending.idempotencyKey { writer.write(fixed: key.value) }
        let lengthOffset = writer.count
        writer.write(fixed: UInt32(0))
        let payloadStart = writer.count
        let (typeCode, schemaVersion): (UInt16, UInt16)
        switch pending.body {
        case .event(let event):
            (typeCode, schemaVersion) = event.encode(into: &writer)
        case .encoded(let encoded):
            writer.write(raw: encoded.bytes)
            (typeCode, schemaVersion) = (encoded.typeCode, encoded.schemaVersion)
        }
        writer.overwrite(fixed: typeCode, at: typeOffset)
        writer.overwrite(fixed: schemaVersion, at: typeOffset + 2)
        writer.overwrite(fixed: UInt32(writer.count - payloadStart), at: lengthOffset)
        let checksum = writer.withUnsafeBytes { CRC32C.checksum($0) }
        writer.write(fixed: checksum)
        let hash = writer.withUnsafeBytes { ChainHash.link(previous: previous, event: $0, hasher: hasher) }
        hash.withUnsafeBytes { writer.write(raw: $0) }
        return (hash, typeCode)
    }

    /// Reads the envelope fields of stored bytes and checks their checksum (cheap, with the
    /// CPU's CRC instruction), so that a damaged event is reported on any read, never
    /// folded into figures. The hash chain is left to `verify`.
    /// - Throws: ``DecodingFailure`` when the bytes are not an intact envelope.
    public init(checking bytes: UnsafeRawBufferPointer) throws {
        try self.init(parsing: bytes)
        guard CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[0..<checkedLength])) == checksum else {
            throw DecodingFailure("its checksum does not match its bytes: the event is damaged")
        }
    }

    /// Decodes a stored event into its envelope fields and upcast payload.
    /// - Parameter strings: recently decoded strings, shared across a scan.
    /// - Throws: ``DecodingFailure`` when the envelope is damaged or the payload cannot be read.
    public static func decodeEvent(_ bytes: UnsafeRawBufferPointer, strings: StringTable? = nil) throws -> RecordedEvent {
        let envelope = try Envelope(checking: bytes)
        let payload = UnsafeRawBufferPointer(rebasing: bytes[envelope.payloadRange])
        // Decoded straight into the recorded event: a sample is a large value, and every
        // copy of it on the way out of a scan costs.
        return RecordedEvent(
            sequence: envelope.sequence, recordedAt: envelope.recordedAt, occurredAt: envelope.occurredAt,
            entity: envelope.entity, idempotencyKey: envelope.idempotencyKey, storedSchemaVersion: envelope.schemaVersion,
            event: try LedgerEvent.decode(
                typeCode: envelope.typeCode, schemaVersion: envelope.schemaVersion, from: payload, strings: strings))
    }

    /// Checks stored bytes against the sequence they are stored under and the previous
    /// event's chain hash; returns the envelope, whose hash the next event links to.
    /// - Throws: ``EventLogFault`` naming the sequence and what is wrong.
    public static func check(
        _ bytes: UnsafeRawBufferPointer, sequence: UInt64, previous: ChainHash, hasher: SHA256Hasher
    )
        throws(EventLogFault)
        -> Envelope
    {
        let envelope: Envelope
        do {
            envelope = try Envelope(parsing: bytes)
        } catch {
            throw EventLogFault(sequence: sequence, problem: "its envelope cannot be read (\(error))")
        }
        guard envelope.sequence == sequence else {
            throw EventLogFault(sequence: sequence, problem: "it carries sequence \(envelope.sequence)")
        }
        let checked = UnsafeRawBufferPointer(rebasing: bytes[0..<envelope.checkedLength])
        guard CRC32C.checksum(checked) == envelope.checksum else {
            throw EventLogFault(sequence: sequence, problem: "its checksum does not match its bytes")
        }
        let linked = UnsafeRawBufferPointer(rebasing: bytes[0..<envelope.checkedLength + 4])
        guard ChainHash.link(previous: previous, event: linked, hasher: hasher) == envelope.chainHash else {
            throw EventLogFault(sequence: sequence, problem: "its chain hash does not follow from the event before it")
        }
        let payload = UnsafeRawBufferPointer(rebasing: bytes[envelope.payloadRange])
        do {
            _ = try LedgerEvent.decode(typeCode: envelope.typeCode, schemaVersion: envelope.schemaVersion, from: payload)
        } catch {
            throw EventLogFault(sequence: sequence, problem: "its payload cannot be decoded (\(error))")
        }
        return envelope
    }
}

/// A fault found in the stored log: the first sequence at fault and what is wrong with it.
public struct EventLogFault: Error, Hashable, Sendable, CustomStringConvertible {
    /// The sequence number of the first event at fault.
    public var sequence: UInt64
    /// What is wrong, as a clause ("its checksum does not match its bytes").
    public var problem: String

    /// Creates a fault.
    public init(sequence: UInt64, problem: String) {
        self.sequence = sequence
        self.problem = problem
    }

    public var description: String { "event \(sequence): \(problem)" }
}
