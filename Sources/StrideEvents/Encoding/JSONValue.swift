/// A JSON document built in code and printed with its keys in the order given. Not `indirect`:
/// arrays and members already hold their values on the heap, and a boxed case cost every
/// number and string of an answer an allocation of its own.
///
/// The command line's `--json` output and `stride export` print through this type so that
/// the same value always prints the same bytes (Foundation's serialiser orders keys
/// differently between platforms).
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([Member])

    /// One key and value of an object.
    public struct Member: Hashable, Sendable {
        public var key: String
        public var value: JSONValue

        /// Creates a member.
        public init(_ key: String, _ value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// An object from key–value pairs, in order.
    public static func object(_ pairs: KeyValuePairs<String, JSONValue>) -> JSONValue {
        .object(pairs.map { Member($0.key, $0.value) })
    }

    /// A string, or null when absent.
    public static func string(_ value: String?) -> JSONValue {
        value.map { .string($0) } ?? .null
    }

    /// A number, or null when absent.
    public static func number(_ value: Double?) -> JSONValue {
        value.map { .number($0) } ?? .null
    }

    /// An integer, or null when absent.
    public static func integer<T: BinaryInteger>(_ value: T?) -> JSONValue {
        value.map { .integer(Int64($0)) } ?? .null
    }

    /// The value printed as compact JSON.
    public var text: String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// The value printed as compact JSON, in UTF-8.
    public var bytes: [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        write(to: &output)
        return output
    }

    /// Appends the value, printed as compact JSON, to `output`.
    public func write(to output: inout String) {
        output += text
    }

    /// Appends the value, printed as compact JSON in UTF-8, to `output`. Bytes, not a
    /// `String`: the server's answers are printed here, and appending to a `String` scalar
    /// by scalar was most of a read's time.
    public func write(to output: inout [UInt8]) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .integer(let value): JSONValue.writeInteger(value, to: &output)
        case .number(let value): JSONValue.writeNumber(value, to: &output)
        case .string(let value): JSONValue.writeString(value, to: &output)
        case .array(let values):
            output.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                value.write(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                JSONValue.writeString(member.key, to: &output)
                output.append(UInt8(ascii: ":"))
                member.value.write(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func writeInteger(_ value: Int64, to output: inout [UInt8]) {
        guard value != 0 else { return output.append(UInt8(ascii: "0")) }
        if value < 0 { output.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for the 20 digits of UInt64.max, written backwards
        var first = MemoryLayout.size(ofValue: digits)
        withUnsafeMutableBytes(of: &digits) { buffer in
            while magnitude > 0 {
                first -= 1
                buffer[first] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            }
            output.append(contentsOf: buffer[first...])
        }
    }

    private static func writeNumber(_ value: Double, to output: inout [UInt8]) {
        guard value.isFinite else { return output.append(contentsOf: "null".utf8) }
        if value == value.rounded(), abs(value) < 1e15 {
            writeInteger(Int64(value), to: &output)
        } else {
            output.append(contentsOf: value.description.utf8)
        }
    }

    /// Whether a string's UTF-8 byte needs more than itself in JSON: a quote, a backslash, a
    /// control character, or the lead byte of U+2028 and U+2029 (escaped for JavaScript).
    private static func mayNeedEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "\"") || byte == 0xE2
    }

    private static func writeString(_ value: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        let plain: Bool? = value.utf8.withContiguousStorageIfAvailable { bytes in
            if !bytes.contains(where: mayNeedEscape) {
                output.append(contentsOf: bytes)
                return true
            }
            return false
        }
        if plain != true {
            for scalar in value.unicodeScalars {
                switch scalar {
                case "\"": output.append(contentsOf: "\\\"".utf8)
                case "\\": output.append(contentsOf: "\\\\".utf8)
                case "\n": output.append(contentsOf: "\\n".utf8)
                case "\r": output.append(contentsOf: "\\r".utf8)
                case "\t": output.append(contentsOf: "\\t".utf8)
                case _ where scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029:
                    let hex = String(scalar.value, radix: 16)
                    output.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
                default: output.append(contentsOf: String(scalar).utf8)
                }
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
