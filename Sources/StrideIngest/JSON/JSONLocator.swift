import StrideEvents

/// Finds places in JSON text by walking its structure, counting lines: the line of a value
/// at a path, and whether a document's head looks like a Health Auto Export document. Used
/// only to name places (a field in error, an example of what was left out) and to tell
/// formats apart: the document itself is parsed by ``JSONParser``, which keeps no places.
enum JSONLocator {
    /// The line where the value at `path` begins, or nil when the text has no such value.
    static func line(of path: FieldPath, in bytes: UnsafeRawBufferPointer) -> Int? {
        var walker = JSONWalker(bytes)
        do throws(WalkStop) {
            try walker.walkDocument(target: path.components[...])
            return nil
        } catch {
            if case .found(let line) = error { return line }
            return nil
        }
    }

    /// Whether the start of a file is a JSON object whose `data` is an object holding
    /// `metrics` or `workouts` (a head cut inside `data` counts too: no NDJSON line is that long).
    static func looksLikeHealthAutoExport(head: UnsafeRawBufferPointer) -> Bool {
        var walker = JSONWalker(head)
        do {
            return try walker.findsHealthAutoExportKeys()
        } catch {
            return false
        }
    }
}

/// Why a walk stopped.
enum WalkStop: Error {
    case syntax(line: Int, problem: String)
    case truncated(line: Int)
    case found(line: Int)
}

/// A walk over JSON text, checking its syntax, counting lines.
struct JSONWalker {
    private let bytes: UnsafeRawBufferPointer
    private var index = 0
    private var line = 1
    /// Deeper than any document Stride reads: a walk refuses rather than exhausting the stack.
    private static let maximumDepth = 512

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
    }

    /// Walks the one value of a document and what follows it.
    mutating func walkDocument(target: ArraySlice<FieldPath.Component>?) throws(WalkStop) {
        try walkValue(target: target, depth: 0)
        skipSpace()
        if index < bytes.count { throw .syntax(line: line, problem: "more follows the end of the document") }
    }

    /// See ``JSONLocator/looksLikeHealthAutoExport(head:)``.
    mutating func findsHealthAutoExportKeys() throws(WalkStop) -> Bool {
        try expect(UInt8(ascii: "{"), "a JSON object")
        var isFirst = true
        while try nextMember(isFirst: &isFirst) {
            let key = try readKey()
            guard key.elementsEqual("data".utf8) else {
                try walkValue(target: nil, depth: 1)
                continue
            }
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return false }
            index += 1
            var isFirstInData = true
            do throws(WalkStop) {
                while try nextMember(isFirst: &isFirstInData) {
                    let inner = try readKey()
                    if inner.elementsEqual("metrics".utf8) || inner.elementsEqual("workouts".utf8) { return true }
                    try walkValue(target: nil, depth: 2)
                }
            } catch {
                if case .truncated = error { return true }
                throw error
            }
            return false
        }
        return false
    }

    private mutating func walkValue(target: ArraySlice<FieldPath.Component>?, depth: Int) throws(WalkStop) {
        skipSpace()
        guard index < bytes.count else { throw .truncated(line: line) }
        if let target, target.isEmpty { throw .found(line: line) }
        guard depth < Self.maximumDepth else { throw .syntax(line: line, problem: "values are nested too deeply") }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            index += 1
            var isFirst = true
            while try nextMember(isFirst: &isFirst) {
                let key = try readKey()
                if case .key(let wanted)? = target?.first, key.elementsEqual(wanted.utf8) {
                    try walkValue(target: target?.dropFirst(), depth: depth + 1)
                } else {
                    try walkValue(target: nil, depth: depth + 1)
                }
            }
        case UInt8(ascii: "["):
            index += 1
            var isFirst = true
            var position = 0
            while try nextElement(isFirst: &isFirst) {
                if case .index(let wanted)? = target?.first, wanted == position {
                    try walkValue(target: target?.dropFirst(), depth: depth + 1)
                } else {
                    try walkValue(target: nil, depth: depth + 1)
                }
                position += 1
            }
        case UInt8(ascii: "\""):
            _ = try readString()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        default:
            throw .syntax(line: line, problem: "\(describe(bytes[index])) where a value should be")
        }
    }

    /// Moves past the `,` before an object's next member or its closing `}`: true when a
    /// member follows.
    private mutating func nextMember(isFirst: inout Bool) throws(WalkStop) -> Bool {
        try next(isFirst: &isFirst, closing: UInt8(ascii: "}"), what: "object")
    }

    private mutating func nextElement(isFirst: inout Bool) throws(WalkStop) -> Bool {
        try next(isFirst: &isFirst, closing: UInt8(ascii: "]"), what: "array")
    }

    private mutating func next(isFirst: inout Bool, closing: UInt8, what: String) throws(WalkStop) -> Bool {
        skipSpace()
        guard index < bytes.count else { throw .truncated(line: line) }
        if bytes[index] == closing {
            index += 1
            return false
        }
        if !isFirst {
            guard bytes[index] == UInt8(ascii: ",") else {
                throw .syntax(
                    line: line,
                    problem: "\(describe(bytes[index])) where a comma or the end of the \(what) (\(Character(Unicode.Scalar(closing)))) should be")
            }
            index += 1
            skipSpace()
            guard index < bytes.count else { throw .truncated(line: line) }
            if bytes[index] == closing { throw .syntax(line: line, problem: "a comma before the end of the \(what)") }
        }
        isFirst = false
        return true
    }

    /// Reads a member's key and its colon; the key's raw bytes between the quotes.
    private mutating func readKey() throws(WalkStop) -> UnsafeRawBufferPointer {
        skipSpace()
        guard index < bytes.count else { throw .truncated(line: line) }
        guard bytes[index] == UInt8(ascii: "\"") else {
            throw .syntax(line: line, problem: "\(describe(bytes[index])) where a key in double quotes should be")
        }
        let key = try readString()
        try expect(UInt8(ascii: ":"), "a colon after the key")
        return key
    }

    private mutating func readString() throws(WalkStop) -> UnsafeRawBufferPointer {
        index += 1
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return UnsafeRawBufferPointer(rebasing: bytes[start..<index - 1])
            }
            if byte == UInt8(ascii: "\\") {
                index += 2
                continue
            }
            if byte < 0x20 { throw .syntax(line: line, problem: "a line break or control character inside a string") }
            index += 1
        }
        throw .truncated(line: line)
    }

    private mutating func number() throws(WalkStop) {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integer = digits()
        guard integer > 0 else { throw .syntax(line: line, problem: "a number without digits") }
        if integer > 1, bytes[start + (bytes[start] == UInt8(ascii: "-") ? 1 : 0)] == UInt8(ascii: "0") {
            throw .syntax(line: line, problem: "a number with a leading zero")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw .syntax(line: line, problem: "a number without digits after its decimal point") }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw .syntax(line: line, problem: "a number without digits in its exponent") }
        }
    }

    private mutating func digits() -> Int {
        var count = 0
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            index += 1
            count += 1
        }
        return count
    }

    private mutating func literal(_ word: StaticString) throws(WalkStop) {
        let length = word.utf8CodeUnitCount
        guard index + length <= bytes.count else { throw .truncated(line: line) }
        let matches = word.withUTF8Buffer { expected in (0..<length).allSatisfy { bytes[index + $0] == expected[$0] } }
        guard matches else { throw .syntax(line: line, problem: "\(describe(bytes[index])) where a value should be") }
        index += length
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(WalkStop) {
        skipSpace()
        guard index < bytes.count else { throw .truncated(line: line) }
        guard bytes[index] == byte else { throw .syntax(line: line, problem: "\(describe(bytes[index])) where \(what) should be") }
        index += 1
    }

    private mutating func skipSpace() {
        JSONBytes.skipSpace(in: bytes, index: &index, line: &line)
    }

    private func describe(_ byte: UInt8) -> String {
        JSONBytes.describe(byte)
    }
}
