/// Decodes FIT files (the Flexible and Interoperable Data Transfer protocol of Garmin's
/// devices and many others), written from the protocol's public description.
///
/// A file is a header (12 or 14 bytes), data records, and a CRC-16 of everything before it.
/// Several such files may be chained one after another in one file (a triathlon watch writes
/// one per leg); each is decoded in turn, each with its own definitions. Every record starts
/// with a one-byte header:
/// - bit 7 set: a data message with a compressed timestamp (local type in bits 5–6, a
///   five-bit offset from the last timestamp seen in bits 0–4);
/// - else bit 6 set: a definition message for the local type in bits 0–3 (bit 5: it also
///   defines developer fields), which replaces any earlier definition of that local type;
/// - else: a data message of the local type in bits 0–3.
///
/// Bounded: the decoder allocates nothing from a size the file declares. A file's data size
/// is checked against the bytes there are, a field's size is one byte (so at most 255), a
/// message at most 255 fields and 255 developer fields, and there are 16 local types.
public enum FITDecoder {
    /// The largest input read: a day-long activity recorded every second is a few megabytes.
    public static let largestFile = 256 << 20

    /// Decodes every FIT file chained in `bytes`, handing each data message to `handler`.
    ///
    /// A file is checked against its CRC before any of its messages is handed over: a file
    /// that fails gives nothing, and stops the decoding with an error; the files before it
    /// have been handed over whole (each ended by ``FITMessageHandler/endFile(at:)``).
    /// - Throws: ``FITError`` naming the offset where reading stopped, or what `handler` throws.
    public static func decode<Handler: FITMessageHandler>(_ bytes: UnsafeRawBufferPointer, into handler: inout Handler) throws {
        guard bytes.count <= largestFile else { throw FITError.tooLarge(bytes: bytes.count) }
        var offset = 0
        repeat {
            offset = try decodeFile(bytes, at: offset, into: &handler)
        } while offset < bytes.count
    }

    /// Decodes the FIT file starting at `start`; returns where it ends.
    private static func decodeFile<Handler: FITMessageHandler>(
        _ bytes: UnsafeRawBufferPointer, at start: Int, into handler: inout Handler
    ) throws -> Int {
        let header = try FITHeader(bytes, at: start)
        let dataStart = start + header.size
        let dataEnd = dataStart + header.dataSize
        let end = dataEnd + 2
        guard end <= bytes.count else { throw FITError.truncated(offset: bytes.count) }
        guard FITCRC.update(0, with: UnsafeRawBufferPointer(rebasing: bytes[start..<end])) == 0 else {
            throw diagnoseCRCFailure(bytes, dataStart: dataStart, dataEnd: dataEnd)
        }
        handler.beginFile(at: start, dataSize: header.dataSize)
        _ = try decodeRecords(bytes, from: dataStart, to: dataEnd, bound: dataEnd, into: &handler)
        handler.endFile(at: end)
        return end
    }

    /// Decodes the records from `dataStart` while they start before `dataEnd`, none reaching
    /// past `bound`; returns where the last one ends.
    private static func decodeRecords<Handler: FITMessageHandler>(
        _ bytes: UnsafeRawBufferPointer, from dataStart: Int, to dataEnd: Int, bound: Int, into handler: inout Handler
    ) throws -> Int {
        var definitions = [FITMessageDefinition?](repeating: nil, count: 16)
        var lastTimestamp: UInt32?
        var offset = dataStart
        while offset < dataEnd {
            let recordHeader = bytes[offset]
            if recordHeader & 0x80 != 0 {
                let localType = (recordHeader >> 5) & 0x03
                guard let definition = definitions[Int(localType)] else {
                    throw FITError.undefinedLocalType(offset: offset, localType: localType)
                }
                let timestamp = compressedTimestamp(offset: UInt32(recordHeader & 0x1F), after: lastTimestamp ?? 0)
                lastTimestamp = timestamp
                let content = try contentBytes(bytes, of: definition, at: offset, dataEnd: bound)
                try handler.message(
                    FITMessage(
                        definition: definition, content: content, offset: offset, timestamp: FITDateTime(rawValue: timestamp),
                        hasCompressedTimestamp: true))
                offset += 1 + definition.contentSize
            } else if recordHeader & 0x40 != 0 {
                let (definition, size) = try readDefinition(
                    bytes, at: offset, hasDeveloperFields: recordHeader & 0x20 != 0, dataEnd: bound)
                definitions[Int(recordHeader & 0x0F)] = definition
                offset += size
            } else {
                let localType = recordHeader & 0x0F
                guard let definition = definitions[Int(localType)] else {
                    throw FITError.undefinedLocalType(offset: offset, localType: localType)
                }
                let content = try contentBytes(bytes, of: definition, at: offset, dataEnd: bound)
                var timestamp: FITDateTime?
                if let timestampOffset = definition.timestampOffset {
                    let raw = UInt32(FITMessage.load(content, at: timestampOffset, width: 4, bigEndian: definition.isBigEndian))
                    if raw != UInt32.max {
                        lastTimestamp = raw
                        timestamp = FITDateTime(rawValue: raw)
                    }
                }
                try handler.message(
                    FITMessage(definition: definition, content: content, offset: offset, timestamp: timestamp, hasCompressedTimestamp: false))
                offset += 1 + definition.contentSize
            }
        }
        return offset
    }

    /// Why a file's CRC fails, as precisely as its records tell: records that run past the
    /// declared data into the end of the bytes mean the file was cut short (its CRC is
    /// missing), records that run past it otherwise mean a wrong header; records that end
    /// where the header says mean damaged bytes.
    private static func diagnoseCRCFailure(_ bytes: UnsafeRawBufferPointer, dataStart: Int, dataEnd: Int) -> FITError {
        var ignoring = IgnoringHandler()
        let recordsEnd: Int
        do {
            recordsEnd = try decodeRecords(bytes, from: dataStart, to: dataEnd, bound: bytes.count, into: &ignoring)
        } catch FITError.messageOverrunsData {
            return FITError.truncated(offset: bytes.count)
        } catch {
            return FITError.fileCRCMismatch(offset: dataEnd)
        }
        if recordsEnd == dataEnd { return FITError.fileCRCMismatch(offset: dataEnd) }
        if recordsEnd + 2 > bytes.count { return FITError.truncated(offset: bytes.count) }
        return FITError.messageOverrunsData(offset: dataEnd)
    }

    /// A handler that keeps nothing, for walking records to diagnose a file.
    private struct IgnoringHandler: FITMessageHandler {
        mutating func beginFile(at offset: Int, dataSize: Int) {}
        mutating func message(_ message: FITMessage) throws {}
        mutating func endFile(at offset: Int) {}
    }

    /// The timestamp a compressed header's five-bit offset gives after `last`: the same
    /// 32-second window when the offset is not below `last`'s low bits, else the next one.
    static func compressedTimestamp(offset: UInt32, after last: UInt32) -> UInt32 {
        let base = last & ~0x1F
        return offset >= last & 0x1F ? base &+ offset : base &+ offset &+ 0x20
    }

    /// The content of a data message whose record header is at `offset`.
    private static func contentBytes(
        _ bytes: UnsafeRawBufferPointer, of definition: FITMessageDefinition, at offset: Int, dataEnd: Int
    ) throws -> UnsafeRawBufferPointer {
        let end = offset + 1 + definition.contentSize
        guard end <= dataEnd else { throw FITError.messageOverrunsData(offset: offset) }
        return UnsafeRawBufferPointer(rebasing: bytes[offset + 1..<end])
    }

    /// Reads the definition message whose record header is at `offset`; returns it and its
    /// size, record header included.
    private static func readDefinition(
        _ bytes: UnsafeRawBufferPointer, at offset: Int, hasDeveloperFields: Bool, dataEnd: Int
    ) throws -> (FITMessageDefinition, Int) {
        var cursor = offset + 1
        guard cursor + FITMessageDefinition.fixedSize <= dataEnd else { throw FITError.messageOverrunsData(offset: offset) }
        let architecture = bytes[cursor + 1]
        guard architecture <= 1 else { throw FITError.unknownByteOrder(offset: offset, value: architecture) }
        let isBigEndian = architecture == 1
        let globalNumber = UInt16(FITMessage.load(bytes, at: cursor + 2, width: 2, bigEndian: isBigEndian))
        let fieldCount = Int(bytes[cursor + 4])
        cursor += FITMessageDefinition.fixedSize
        guard cursor + 3 * fieldCount <= dataEnd else { throw FITError.messageOverrunsData(offset: offset) }
        var fields: [FITFieldDefinition] = []
        fields.reserveCapacity(fieldCount)
        var contentSize = 0
        var timestampOffset: Int?
        for _ in 0..<fieldCount {
            let field = FITFieldDefinition(
                number: bytes[cursor], offset: contentSize, size: Int(bytes[cursor + 1]), baseType: FITBaseType(byte: bytes[cursor + 2]))
            if field.number == 253, field.size == 4, field.baseType.width == 4, !field.baseType.isFloat {
                timestampOffset = contentSize
            }
            fields.append(field)
            contentSize += field.size
            cursor += 3
        }
        var developerBytes = 0
        if hasDeveloperFields {
            guard cursor + 1 <= dataEnd else { throw FITError.messageOverrunsData(offset: offset) }
            let developerCount = Int(bytes[cursor])
            cursor += 1
            guard cursor + 3 * developerCount <= dataEnd else { throw FITError.messageOverrunsData(offset: offset) }
            for _ in 0..<developerCount {
                developerBytes += Int(bytes[cursor + 1])
                cursor += 3
            }
        }
        let definition = FITMessageDefinition(
            globalNumber: globalNumber, isBigEndian: isBigEndian, fields: fields, developerBytes: developerBytes,
            contentSize: contentSize + developerBytes, timestampOffset: timestampOffset)
        return (definition, cursor - offset)
    }
}
