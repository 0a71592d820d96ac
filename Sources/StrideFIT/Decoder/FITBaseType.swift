/// A field's base type, from the low five bits of a field definition's base-type byte: how
/// wide each value is, whether it is signed, and which bit pattern means "no value".
public struct FITBaseType: Hashable, Sendable {
    /// The base type number (0 enum … 16 uint64z).
    public let number: UInt8

    /// Creates the type from a field definition's base-type byte (its endian-ability bit,
    /// 0x80, says nothing the number does not).
    public init(byte: UInt8) {
        number = byte & 0x1F
    }

    public static let enumeration = FITBaseType(byte: 0x00)
    public static let sint8 = FITBaseType(byte: 0x01)
    public static let uint8 = FITBaseType(byte: 0x02)
    public static let sint16 = FITBaseType(byte: 0x83)
    public static let uint16 = FITBaseType(byte: 0x84)
    public static let sint32 = FITBaseType(byte: 0x85)
    public static let uint32 = FITBaseType(byte: 0x86)
    public static let string = FITBaseType(byte: 0x07)
    public static let float32 = FITBaseType(byte: 0x88)
    public static let float64 = FITBaseType(byte: 0x89)
    public static let uint8z = FITBaseType(byte: 0x0A)
    public static let uint16z = FITBaseType(byte: 0x8B)
    public static let uint32z = FITBaseType(byte: 0x8C)
    public static let byte = FITBaseType(byte: 0x0D)
    public static let sint64 = FITBaseType(byte: 0x8E)
    public static let uint64 = FITBaseType(byte: 0x8F)
    public static let uint64z = FITBaseType(byte: 0x90)

    /// Bytes per value; 1 for strings, bytes and numbers this decoder does not know.
    public var width: Int {
        switch number {
        case 3, 4, 11: 2
        case 5, 6, 8, 12: 4
        case 9, 14, 15, 16: 8
        default: 1
        }
    }

    /// Whether values are two's-complement signed integers.
    public var isSigned: Bool { [1, 3, 5, 14].contains(number) }

    /// Whether values are IEEE floats.
    public var isFloat: Bool { number == 8 || number == 9 }

    /// The "no value" pattern of an integer type, as an unsigned bit pattern of ``width``
    /// bytes: all ones for unsigned types, enums and bytes; the largest positive value for
    /// signed ones; zero for the `z` types.
    public var invalidBits: UInt64 {
        switch number {
        case 1: 0x7F
        case 3: 0x7FFF
        case 5: 0x7FFF_FFFF
        case 14: 0x7FFF_FFFF_FFFF_FFFF
        case 10, 11, 12, 16, 7: 0
        default: width == 8 ? UInt64.max : (1 << UInt64(width * 8)) - 1
        }
    }
}
