/// Reads decimal numbers as written in exports ("72", "0.4971749504535062", "-1.5e3")
/// without making a string first: exactly, by the fast path when the digits fit a double's
/// mantissa and the power of ten is small, by the standard library otherwise.
enum DecimalNumber {
    private static let powersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    /// The number, or nil when the bytes are not one.
    static func parse(_ bytes: UnsafeRawBufferPointer) -> Double? {
        var index = 0
        let count = bytes.count
        guard count > 0, count < 64 else { return count == 0 ? nil : slowPath(bytes) }
        var isNegative = false
        if bytes[0] == UInt8(ascii: "-") || bytes[0] == UInt8(ascii: "+") {
            isNegative = bytes[0] == UInt8(ascii: "-")
            index = 1
        }
        var mantissa: UInt64 = 0
        var digitCount = 0
        var exponent = 0
        var sawDigit = false
        while index < count, let digit = digitValue(bytes[index]) {
            if digitCount < 19 {
                mantissa = mantissa * 10 + UInt64(digit)
                if mantissa > 0 { digitCount += 1 }
            } else {
                exponent += 1
            }
            sawDigit = true
            index += 1
        }
        if index < count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < count, let digit = digitValue(bytes[index]) {
                if digitCount < 19 {
                    mantissa = mantissa * 10 + UInt64(digit)
                    if mantissa > 0 { digitCount += 1 }
                    exponent -= 1
                }
                sawDigit = true
                index += 1
            }
        }
        guard sawDigit else { return nil }
        if index < count {
            guard bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") else { return nil }
            return slowPath(bytes)
        }
        guard mantissa < 1 << 53, abs(exponent) <= 22 else { return slowPath(bytes) }
        let magnitude = exponent >= 0 ? Double(mantissa) * powersOfTen[exponent] : Double(mantissa) / powersOfTen[-exponent]
        return isNegative ? -magnitude : magnitude
    }

    private static func digitValue(_ byte: UInt8) -> UInt8? {
        byte >= 48 && byte <= 57 ? byte - 48 : nil
    }

    private static func slowPath(_ bytes: UnsafeRawBufferPointer) -> Double? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let value = Double(text), value.isFinite else { return nil }
        // Double("nan") and friends parse; exports never write those as numbers.
        return text.contains(where: { $0.isLetter && $0 != "e" && $0 != "E" }) ? nil : value
    }
}
