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
            let name = Array(bytes[(index + 1)..<end])
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

    private static func decodeReference(_ name: [UInt8]) -> [UInt8]? {
        switch name {
        case Array("amp".utf8): return [UInt8(ascii: "&")]
        case Array("lt".utf8): return [UInt8(ascii: "<")]
        case Array("gt".utf8): return [UInt8(ascii: ">")]
        case Array("quot".utf8): return [UInt8(ascii: "\"")]
        case Array("apos".utf8): return [UInt8(ascii: "'")]
        default: break
        }
        guard name.first == UInt8(ascii: "#"), name.count >= 2 else { return nil }
        let isHex = name[1] == UInt8(ascii: "x") || name[1] == UInt8(ascii: "X")
        let digits = String(decoding: name.dropFirst(isHex ? 2 : 1), as: UTF8.self)
        guard !digits.isEmpty, let value = UInt32(digits, radix: isHex ? 16 : 10), value != 0,
            let scalar = Unicode.Scalar(value)
        else { return nil }
        return Array(String(Character(scalar)).utf8)
    }
}
