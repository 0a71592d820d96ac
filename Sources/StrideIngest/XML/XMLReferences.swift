/// Decodes references in attribute values and text: the five predefined entities and
/// character references (`&#8217;`, `&#xA0;`). Nothing else is ever expanded — no entity
/// from a DTD, internal or external.
enum XMLReferences {
    /// The decoded bytes, and whether some reference was not one of those (kept as written).
    static func decode(_ bytes: UnsafeRawBufferPointer) -> (bytes: [UInt8], hasUnknownReference: Bool) {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var hasUnknown = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "&") else {
                output.append(byte)
                index += 1
                continue
            }
            var end = index + 1
            while end < bytes.count, end - index < 12, bytes[end] != UInt8(ascii: ";") { end += 1 }
            guard end < bytes.count, bytes[end] == UInt8(ascii: ";") else {
                hasUnknown = true
                output.append(byte)
                index += 1
                continue
            }
            let name = UnsafeRawBufferPointer(rebasing: bytes[(index + 1)..<end])
            if let decoded = decodeReference(name) {
                output.append(contentsOf: decoded)
            } else {
                hasUnknown = true
                output.append(contentsOf: bytes[index...end])
            }
            index = end + 1
        }
        return (output, hasUnknown)
    }

    private static func decodeReference(_ name: UnsafeRawBufferPointer) -> [UInt8]? {
        switch name.count {
        case 2 where name[0] == UInt8(ascii: "l") && name[1] == UInt8(ascii: "t"): return [UInt8(ascii: "<")]
        case 2 where name[0] == UInt8(ascii: "g") && name[1] == UInt8(ascii: "t"): return [UInt8(ascii: ">")]
        case 3 where name.elementsEqual("amp".utf8): return [UInt8(ascii: "&")]
        case 4 where name.elementsEqual("quot".utf8): return [UInt8(ascii: "\"")]
        case 4 where name.elementsEqual("apos".utf8): return [UInt8(ascii: "'")]
        default: break
        }
        guard name.count >= 2, name[0] == UInt8(ascii: "#") else { return nil }
        let isHex = name[1] == UInt8(ascii: "x") || name[1] == UInt8(ascii: "X")
        var value: UInt32 = 0
        let digits = name.dropFirst(isHex ? 2 : 1)
        guard !digits.isEmpty, digits.count <= 8 else { return nil }
        for byte in digits {
            let digit: UInt32
            switch byte {
            case 48...57: digit = UInt32(byte - 48)
            case 97...102 where isHex: digit = UInt32(byte - 87)
            case 65...70 where isHex: digit = UInt32(byte - 55)
            default: return nil
            }
            value = value * (isHex ? 16 : 10) + digit
        }
        guard value != 0, let scalar = Unicode.Scalar(value) else { return nil }
        return Array(String(Character(scalar)).utf8)
    }
}
