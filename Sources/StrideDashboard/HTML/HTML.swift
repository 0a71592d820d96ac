/// Escaping for text and attribute values: every string that comes from the ledger (shoe
/// names, journal text, sources, payloads, device names) passes through here before it
/// reaches a page.
enum HTML {
    /// Text for an element's content or an attribute's value (quoted with `"`): `&`, `<`, `>`,
    /// `"` and `'` become character references.
    static func escape(_ text: String) -> String {
        // Most strings need nothing: scan once before building a copy.
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for character in text.unicodeScalars {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }

    /// A query string value: everything but unreserved characters percent-encoded.
    static func queryValue(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D, 0x2E, 0x5F, 0x7E: result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF".unicodeScalars)
                result += "%"
                result.unicodeScalars.append(digits[Int(byte >> 4)])
                result.unicodeScalars.append(digits[Int(byte & 0x0F)])
            }
        }
        return result
    }

    /// A fragment identifier made of letters, digits and `-` only.
    static func anchor(_ text: String) -> String {
        String(text.unicodeScalars.map { $0.isASCII && $0.properties.isAlphabetic || ("0"..."9").contains($0) ? Character($0) : "-" })
    }
}

extension String {
    /// The string escaped for HTML text or a quoted attribute value.
    var html: String { HTML.escape(self) }
}
