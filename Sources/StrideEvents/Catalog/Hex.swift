/// Hexadecimal text for identifiers and hashes.
public enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// 32 lowercase digits for a 128-bit value, most significant first.
    public static func string(_ value: UInt128) -> String {
        var bytes = [UInt8](repeating: 0, count: 32)
        var rest = value
        for index in stride(from: 31, through: 0, by: -1) {
            bytes[index] = digits[Int(rest & 0xF)]
            rest >>= 4
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Lowercase digits for a byte sequence.
    public static func string(_ bytes: some Sequence<UInt8>) -> String {
        var text: [UInt8] = []
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The value of up to 32 hexadecimal digits; nil for anything else.
    public static func uint128(_ text: some StringProtocol) -> UInt128? {
        guard !text.isEmpty, text.utf8.count <= 32 else { return nil }
        var value: UInt128 = 0
        for byte in text.utf8 {
            guard let nibble = nibble(byte) else { return nil }
            value = value << 4 | UInt128(nibble)
        }
        return value
    }

    /// The bytes of an even number of hexadecimal digits; nil for anything else.
    public static func bytes(_ text: some StringProtocol) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 48...57: byte - 48
        case 97...102: byte - 87
        case 65...70: byte - 55
        default: nil
        }
    }
}
