/// A JSON value as Stride reads it: every JSON input (a Health Auto Export push, an NDJSON
/// line, a request's body, an exported ledger's line) is parsed by ``JSONParser`` into these.
///
/// Numbers are doubles read from their text, correctly rounded: real payloads carry step
/// counts such as `8.2796763649358063`, and two such numbers written apart stay apart.
public enum JSONNode: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONNode])
    case object([String: JSONNode])
    /// A long array near the top of a document, left where it lies and read one element at a
    /// time (``JSONParser/forEachElement(of:in:_:)``), so that a push of a million points is
    /// never held as a million nodes.
    case deferred(DeferredArray)

    /// The value as text for metadata and identities: text as it is, numbers in their
    /// shortest form (`908.0`), `true`, `false`, `null`, and arrays and objects as compact
    /// JSON with their keys sorted.
    public var text: String {
        switch self {
        case .string(let text): text
        default: jsonText
        }
    }

    /// The value as compact JSON with sorted keys.
    public var jsonText: String {
        switch self {
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .number(let number): number.isFinite ? "\(number)" : "null"
        case .string(let text): Self.quoted(text)
        case .array(let elements): "[" + elements.map(\.jsonText).joined(separator: ",") + "]"
        // Deferred arrays lie at the document's outer levels, above any point whose members
        // become text.
        case .deferred: "[…]"
        case .object(let members):
            "{" + members.keys.sorted().map { Self.quoted($0) + ":" + (members[$0]?.jsonText ?? "null") }.joined(separator: ",") + "}"
        }
    }

    private static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20: result += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}

/// Where an array left unparsed lies in its document.
public struct DeferredArray: Sendable, Equatable {
    /// The offset of its `[`.
    package let start: Int
    /// The line its `[` is on.
    package let line: Int
    /// How deeply it is nested.
    package let depth: Int
}

/// Why JSON text could not be parsed, and where: the line and the column (in bytes, from 1).
public struct JSONSyntaxError: Error, Equatable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var problem: String

    public init(line: Int, column: Int = 0, problem: String) {
        self.line = line
        self.column = column
        self.problem = problem
    }

    /// `line 3, column 7: what`.
    public var description: String { "line \(line)" + (column > 0 ? ", column \(column)" : "") + ": \(problem)" }
}

/// Parses JSON text (RFC 8259) into ``JSONNode``s, counting lines for its errors.
///
/// The one JSON reader: written for Health Auto Export's documents rather than taking
/// `JSONSerialization`'s objects: those take about thirty times the document's size in memory (a tree of bridged
/// objects built beside an intermediate one), these about ten, and their numbers are
/// exact. Nesting deeper than 512 levels is refused rather than exhausting the stack.
public struct JSONParser {
    private let bytes: UnsafeRawBufferPointer
    private var index = 0
    private var line = 1
    private static let maximumDepth = 512

    /// Arrays nested at most this deeply may be deferred: a Health Auto Export document's
    /// metrics and workouts (depth 2) and their points and routes (depth 4), never a point's
    /// own members.
    package static let deferrableDepth = 4
    /// Arrays of at least this many bytes at those depths are deferred.
    package static let deferredLength = 64 << 10

    /// The value a document holds. With `deferring`, long arrays at its outer levels are left
    /// where they lie (``JSONNode/deferred(_:)``); their syntax is checked as they are read.
    /// - Throws: ``JSONSyntaxError`` naming the line of the first fault.
    public static func parse(_ bytes: UnsafeRawBufferPointer, deferring: Bool = false) throws(JSONSyntaxError) -> JSONNode {
        var parser = JSONParser(bytes: bytes, deferring: deferring)
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { parser.index = 3 }
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        if parser.index < bytes.count { throw parser.fault("more follows the end of the document") }
        return value
    }

    /// Parses the elements of a deferred array of `bytes` one at a time, handing each to
    /// `body` with its position; long arrays inside them are deferred in turn.
    /// - Throws: ``JSONSyntaxError`` naming the line of a fault in the array, or what `body` throws.
    public static func forEachElement(of array: DeferredArray, in bytes: UnsafeRawBufferPointer, _ body: (Int, JSONNode) throws -> Void) throws {
        try walk(array, in: bytes) { parser, position in try body(position, try parser.value(depth: array.depth + 1)) }
    }

    /// How many elements a deferred array holds, found without building them.
    /// - Throws: ``JSONSyntaxError`` when the array is cut short.
    public static func count(of array: DeferredArray, in bytes: UnsafeRawBufferPointer) throws -> Int {
        var count = 0
        try walk(array, in: bytes) { parser, _ in
            try parser.skipValue()
            count += 1
        }
        return count
    }

    /// Moves a parser through a deferred array's elements, handing it to `element` at the
    /// start of each (which must move it past the element) with the element's position.
    private static func walk(
        _ array: DeferredArray, in bytes: UnsafeRawBufferPointer, _ element: (inout JSONParser, Int) throws -> Void
    ) throws {
        var parser = JSONParser(bytes: bytes, deferring: true)
        parser.index = array.start + 1
        parser.line = array.line
        var isFirst = true
        var position = 0
        while try parser.next(isFirst: &isFirst, closing: UInt8(ascii: "]"), what: "array") {
            try element(&parser, position)
            position += 1
        }
    }

    private let deferring: Bool

    private init(bytes: UnsafeRawBufferPointer, deferring: Bool) {
        self.bytes = bytes
        self.deferring = deferring
    }

    /// Moves past one value without building it, counting its lines; its syntax is checked
    /// only as far as finding its end needs (strings, and brackets that close in order).
    private mutating func skipValue() throws(JSONSyntaxError) {
        skipSpace()
        guard index < bytes.count else { throw fault("the document ends in the middle of a value (cut short?)") }
        let opening = bytes[index]
        if opening == UInt8(ascii: "\"") { return try skipString() }
        guard opening == UInt8(ascii: "[") || opening == UInt8(ascii: "{") else {
            // A number or literal: up to the next separator; it is read when its array is.
            while index < bytes.count, !Self.endsScalar(bytes[index]) { index += 1 }
            return
        }
        var closers: [UInt8] = []
        repeat {
            guard index < bytes.count else { throw fault("the document ends in the middle of a value (cut short?)") }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                try skipString()
                continue
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                guard closers.count < Self.maximumDepth else { throw fault("values are nested too deeply") }
                closers.append(byte == UInt8(ascii: "[") ? UInt8(ascii: "]") : UInt8(ascii: "}"))
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                guard closers.last == byte else {
                    throw fault("\(describe(byte)) where a value or \(Character(Unicode.Scalar(closers.last ?? byte))) should be")
                }
                closers.removeLast()
            case 0x0A:
                line += 1
            default:
                break
            }
            index += 1
        } while !closers.isEmpty
    }

    private static func endsScalar(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") || byte == 0x20 || byte == 0x0A || byte == 0x0D
            || byte == 0x09
    }

    /// Moves past a string, escapes included.
    private mutating func skipString() throws(JSONSyntaxError) {
        index += 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index += 1
                return
            case UInt8(ascii: "\\"): index += 2
            case 0x0A: throw fault("a line break or control character inside a string")
            default: index += 1
            }
        }
        throw fault("the document ends in the middle of a string (cut short?)")
    }

    private mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONNode {
        skipSpace()
        guard index < bytes.count else { throw fault("the document ends in the middle of a value (cut short?)") }
        guard depth < Self.maximumDepth else { throw fault("values are nested too deeply") }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            index += 1
            var members: [String: JSONNode] = [:]
            var isFirst = true
            while try next(isFirst: &isFirst, closing: UInt8(ascii: "}"), what: "object") {
                skipSpace()
                guard index < bytes.count else { throw fault("the document ends in the middle of a value (cut short?)") }
                guard bytes[index] == UInt8(ascii: "\"") else { throw fault("\(describe(bytes[index])) where a key in double quotes should be") }
                let key = try string()
                skipSpace()
                guard index < bytes.count else { throw fault("the document ends in the middle of a value (cut short?)") }
                guard bytes[index] == UInt8(ascii: ":") else { throw fault("\(describe(bytes[index])) where a colon after the key should be") }
                index += 1
                members[key] = try value(depth: depth + 1)
            }
            return .object(members)
        case UInt8(ascii: "["):
            if deferring, depth <= Self.deferrableDepth {
                let (start, startLine) = (index, line)
                try skipValue()
                if index - start >= Self.deferredLength { return .deferred(DeferredArray(start: start, line: startLine, depth: depth)) }
                (index, line) = (start + 1, startLine)
            } else {
                index += 1
            }
            var elements: [JSONNode] = []
            var isFirst = true
            while try next(isFirst: &isFirst, closing: UInt8(ascii: "]"), what: "array") {
                elements.append(try value(depth: depth + 1))
            }
            return .array(elements)
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try number())
        default:
            throw fault("\(describe(bytes[index])) where a value should be")
        }
    }

    /// Moves past the comma before the next member or element, or past the closing bracket:
    /// true when a member or element follows.
    private mutating func next(isFirst: inout Bool, closing: UInt8, what: String) throws(JSONSyntaxError) -> Bool {
        skipSpace()
        guard index < bytes.count else { throw fault("the document ends in the middle of a value (cut short?)") }
        if bytes[index] == closing {
            index += 1
            return false
        }
        if !isFirst {
            guard bytes[index] == UInt8(ascii: ",") else {
                throw fault(
                    "\(describe(bytes[index])) where a comma or the end of the \(what) (\(Character(Unicode.Scalar(closing)))) should be")
            }
            index += 1
            skipSpace()
            guard index < bytes.count else { throw fault("the document ends in the middle of a value (cut short?)") }
            if bytes[index] == closing { throw fault("a comma before the end of the \(what)") }
        }
        isFirst = false
        return true
    }

    private mutating func string() throws(JSONSyntaxError) -> String {
        index += 1
        let start = index
        // Most strings hold no escape: they are taken from the text as they are.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index - 1]), as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw fault("a line break or control character inside a string") }
            index += 1
        }
        var decoded = Array(UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: decoded, as: UTF8.self)
            }
            if byte < 0x20 { throw fault("a line break or control character inside a string") }
            guard byte == UInt8(ascii: "\\") else {
                decoded.append(byte)
                index += 1
                continue
            }
            guard index + 1 < bytes.count else { break }
            let escaped = bytes[index + 1]
            index += 2
            switch escaped {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escaped)
            case UInt8(ascii: "b"): decoded.append(0x08)
            case UInt8(ascii: "f"): decoded.append(0x0C)
            case UInt8(ascii: "n"): decoded.append(0x0A)
            case UInt8(ascii: "r"): decoded.append(0x0D)
            case UInt8(ascii: "t"): decoded.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hexQuad()
                if (0xD800..<0xDC00).contains(scalar), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                    bytes[index + 1] == UInt8(ascii: "u")
                {
                    index += 2
                    let low = try hexQuad()
                    if (0xDC00..<0xE000).contains(low) { scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00) }
                }
                // A lone surrogate is no character: it reads as U+FFFD.
                decoded.append(contentsOf: String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8)
            default:
                throw fault("\"\\\(Character(Unicode.Scalar(escaped)))\", an escape JSON does not have, inside a string")
            }
        }
        throw fault("the document ends in the middle of a string (cut short?)")
    }

    private mutating func hexQuad() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fault("the document ends in the middle of a string (cut short?)") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw fault("\\u without four hexadecimal digits inside a string")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private mutating func number() throws(JSONSyntaxError) -> Double {
        let start = index
        var isWhole = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        let integer = digits()
        guard integer > 0 else { throw fault("a number without digits") }
        if integer > 1, bytes[integerStart] == UInt8(ascii: "0") { throw fault("a number with a leading zero") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            isWhole = false
            guard digits() > 0 else { throw fault("a number without digits after its decimal point") }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            isWhole = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw fault("a number without digits in its exponent") }
        }
        let text = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
        // Whole numbers of up to 15 digits are exact as doubles: no need to go through text.
        if isWhole, integer <= 15 {
            var value = 0
            for byte in UnsafeRawBufferPointer(rebasing: bytes[integerStart..<index]) { value = value * 10 + Int(byte - 48) }
            return Double(bytes[start] == UInt8(ascii: "-") ? -value : value)
        }
        let parsed = Double(String(decoding: text, as: UTF8.self))
        // Beyond a double's range: an infinity, which figures leave out.
        return parsed ?? (bytes[start] == UInt8(ascii: "-") ? -.infinity : .infinity)
    }

    private mutating func digits() -> Int {
        var count = 0
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            index += 1
            count += 1
        }
        return count
    }

    private mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let length = word.utf8CodeUnitCount
        let matches = word.withUTF8Buffer { expected in
            index + length <= bytes.count && (0..<length).allSatisfy { bytes[index + $0] == expected[$0] }
        }
        guard matches else { throw fault("\(describe(bytes[index])) where a value should be") }
        index += length
    }

    private mutating func skipSpace() {
        JSONBytes.skipSpace(in: bytes, index: &index, line: &line)
    }

    private func fault(_ problem: String) -> JSONSyntaxError {
        // The column is found only for an error: back from here to the line's start.
        var start = min(index, bytes.count)
        while start > 0, bytes[start - 1] != 0x0A { start -= 1 }
        return JSONSyntaxError(line: line, column: min(index, bytes.count) - start + 1, problem: problem)
    }

    private func describe(_ byte: UInt8) -> String {
        JSONBytes.describe(byte)
    }
}
