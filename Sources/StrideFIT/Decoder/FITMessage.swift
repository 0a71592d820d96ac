/// A data message as the decoder hands it to a handler: its content bytes are valid only
/// during the call, so a handler copies out the values it keeps.
public struct FITMessage {
    /// The message's definition.
    public let definition: FITMessageDefinition
    /// The content bytes (fields, then developer fields).
    public let content: UnsafeRawBufferPointer
    /// Where the message's record header sits in the whole file.
    public let offset: Int
    /// Its timestamp: its own field 253, or the one a compressed-timestamp header gives.
    public let timestamp: FITDateTime?
    /// Whether it came with a compressed-timestamp header.
    public let hasCompressedTimestamp: Bool

    /// The global message number.
    public var globalNumber: UInt16 { definition.globalNumber }

    /// Whether it carries developer fields.
    public var hasDeveloperFields: Bool { definition.developerBytes > 0 }

    /// A field's first value as an unsigned integer, or nil when the message lacks the field,
    /// holds the base type's "no value" pattern, or its size is not a whole number of values
    /// (a writer's mistake that some devices make: the field is then unreadable, not misread).
    public func unsigned(_ number: UInt8) -> UInt64? {
        guard let field = definition.field(number), let bits = firstValueBits(of: field),
            !field.baseType.isFloat, !field.baseType.isSigned
        else { return nil }
        return bits
    }

    /// A field's first value as a signed integer, nil as for ``unsigned(_:)``.
    public func signed(_ number: UInt8) -> Int64? {
        guard let field = definition.field(number), let bits = firstValueBits(of: field), !field.baseType.isFloat else {
            return nil
        }
        guard field.baseType.isSigned else { return Int64(bitPattern: bits) }
        let shift = UInt64(64 - field.baseType.width * 8)
        return Int64(bitPattern: bits << shift) >> Int64(shift)
    }

    /// A numeric field's first value divided by `scale` and less `offset` (the profile's
    /// scaling: elapsed time is in thousandths of a second, distance in centimetres).
    public func scaled(_ number: UInt8, scale: Double, offset: Double = 0) -> Double? {
        guard let field = definition.field(number), let bits = firstValueBits(of: field) else { return nil }
        let value: Double
        if field.baseType.number == 8 {
            value = Double(Float(bitPattern: UInt32(truncatingIfNeeded: bits)))
        } else if field.baseType.number == 9 {
            value = Double(bitPattern: bits)
        } else if field.baseType.isSigned {
            guard let signed = signed(number) else { return nil }
            value = Double(signed)
        } else {
            value = Double(bits)
        }
        guard value.isFinite else { return nil }
        return value / scale - offset
    }

    /// A string field: its bytes up to the first NUL or the field's end (some writers leave
    /// out the terminator), as UTF-8; nil when empty.
    public func string(_ number: UInt8) -> String? {
        guard let field = definition.field(number), field.offset + field.size <= content.count else { return nil }
        let bytes = UnsafeRawBufferPointer(rebasing: content[field.offset..<field.offset + field.size])
        let end = bytes.firstIndex(of: 0) ?? bytes.count
        guard end > 0 else { return nil }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[0..<end]), as: UTF8.self)
    }

    /// A date-time field (seconds since the FIT epoch), nil for "no value".
    public func dateTime(_ number: UInt8) -> FITDateTime? {
        unsigned(number).map { FITDateTime(rawValue: UInt32(truncatingIfNeeded: $0)) }
    }

    /// The bits of a field's first value in the message's byte order, or nil.
    private func firstValueBits(of field: FITFieldDefinition) -> UInt64? {
        let width = field.baseType.width
        guard field.size >= width, field.size % width == 0, field.offset + width <= content.count else { return nil }
        let bits = Self.load(content, at: field.offset, width: width, bigEndian: definition.isBigEndian)
        return bits == field.baseType.invalidBits ? nil : bits
    }

    /// An unsigned integer of `width` bytes at `offset`.
    static func load(_ bytes: UnsafeRawBufferPointer, at offset: Int, width: Int, bigEndian: Bool) -> UInt64 {
        var value: UInt64 = 0
        if bigEndian {
            for index in 0..<width { value = value << 8 | UInt64(bytes[offset + index]) }
        } else {
            for index in (0..<width).reversed() { value = value << 8 | UInt64(bytes[offset + index]) }
        }
        return value
    }
}
