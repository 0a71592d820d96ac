import Glibc
import StrideEvents

/// What the scanner reports: start tags, end tags and text between tags.
protocol XMLHandler {
    /// A start tag. An empty-element tag (`<Track/>`) is a start tag followed at once by its
    /// end call, as XML defines it to be `<Track></Track>`: a handler never tells the two apart
    /// unless it looks at ``XMLElement/isEmpty``.
    mutating func startElement(_ element: XMLElement) throws
    /// An end tag (or the end of an empty-element tag); `name` is valid only during the call.
    mutating func endElement(_ name: UnsafeRawBufferPointer, line: Int) throws
    /// Text between two tags (whitespace included), references not decoded.
    mutating func text(_ bytes: UnsafeRawBufferPointer, line: Int) throws
}

/// Why a document could not be read: its structure is broken at a line.
extension XMLScanner {
    /// A name without its namespace prefix (`ns3:Lap` is `Lap`, `gpxtpx:hr` is `hr`).
    static func localName(_ name: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        guard let colon = name.lastIndex(of: UInt8(ascii: ":")) else { return name }
        return UnsafeRawBufferPointer(rebasing: name[(colon + 1)...])
    }
}

struct XMLStructureError: Error, Equatable {
    var line: Int
    var problem: String
}

/// A streaming, non-validating XML tokenizer, fed chunk by chunk, holding only the tag in
/// progress between chunks, so memory stays flat however long the document is.
///
/// It never reads the DTD: everything before the root element — the XML declaration, a
/// DOCTYPE with its internal subset, comments — is skipped by its first bytes, so a
/// malformed DTD (iOS 16 exports have a declaration with a `>` missing or one too many)
/// cannot derail it, and no entity is ever defined, let alone expanded. References in
/// values are left for ``XMLReferences`` to decode: the five predefined entities and
/// character references only.
struct XMLScanner {
    private var pending: [UInt8] = []
    private var attributes: [XMLAttribute] = []
    private var openNames: [UInt8] = []
    private var openNameEnds: [Int] = []
    private var openLines: [Int] = []
    private var isInProlog = true
    private var hasSeenRoot = false
    /// The line of the next unread byte, from 1.
    private(set) var line = 1
    /// Bytes consumed so far (fed and fully scanned).
    private(set) var bytesScanned = 0

    /// A tag longer than this is not an export's: refuse rather than buffer without end.
    static let longestTag = 64 << 20

    /// The depth of open elements (1 inside the root).
    var depth: Int { openNameEnds.count }

    /// Scans a chunk, reporting every tag it completes; keeps an incomplete tag for later.
    ///
    /// The chunk is scanned where it lies; only what was left over from the chunk before is
    /// completed in a buffer of its own, with this chunk's bytes up to its first `>` (which
    /// ends the tag in progress unless a value or comment holds one). Copying every chunk
    /// into the buffer first cost a copy of the whole file.
    mutating func consume<H: XMLHandler>(_ chunk: UnsafeRawBufferPointer, into handler: inout H) throws {
        var rest = chunk
        if !pending.isEmpty {
            let cut = Self.find(UInt8(ascii: ">"), in: chunk, from: 0).map { $0 + 1 } ?? chunk.count
            pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[..<cut]))
            try scanPending(into: &handler)
            rest = UnsafeRawBufferPointer(rebasing: chunk[cut...])
            if !pending.isEmpty {
                // Still not complete: the rest of the chunk joins it.
                pending.append(contentsOf: rest)
                try scanPending(into: &handler)
                return
            }
        }
        let consumed = try scan(rest, into: &handler)
        bytesScanned += consumed
        pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: rest[consumed...]))
        try checkPendingLength()
    }

    /// Scans what is held over, keeping what is still incomplete.
    private mutating func scanPending<H: XMLHandler>(into handler: inout H) throws {
        let consumed = try pending.withUnsafeBytes { try scan($0, into: &handler) }
        bytesScanned += consumed
        pending.removeSubrange(0..<consumed)
        try checkPendingLength()
    }

    private func checkPendingLength() throws {
        if pending.count > Self.longestTag {
            throw XMLStructureError(line: line, problem: "a tag runs on for more than 64 MB")
        }
    }

    /// Ends the document: anything still open means it was cut short.
    func finish() throws {
        if let lastLine = openLines.last {
            let name = String(decoding: openNames[(openNameEnds.dropLast().last ?? 0)...], as: UTF8.self)
            throw XMLStructureError(line: line, problem: "the document ends inside <\(name)> opened at line \(lastLine): it is cut short")
        }
        if pending.contains(where: { !Self.isWhitespace($0) }) {
            throw XMLStructureError(line: line, problem: "the document ends in the middle of a tag: it is cut short")
        }
        if !hasSeenRoot {
            throw XMLStructureError(line: line, problem: "there is no root element: this is not an XML document")
        }
    }

    // MARK: Scanning

    /// Scans what can be scanned; returns how many bytes were fully consumed.
    private mutating func scan<H: XMLHandler>(_ buffer: UnsafeRawBufferPointer, into handler: inout H) throws -> Int {
        var position = 0
        let count = buffer.count
        while position < count {
            guard let open = Self.find(UInt8(ascii: "<"), in: buffer, from: position) else {
                // Text inside an element is kept until its end is in: a handler gets it whole.
                if !isInProlog, !openNameEnds.isEmpty, !Self.isBlank(buffer, position..<count) { return position }
                countLines(buffer, position..<count)
                return count
            }
            if open > position, !isInProlog, !openNameEnds.isEmpty {
                try handler.text(UnsafeRawBufferPointer(rebasing: buffer[position..<open]), line: line)
            } else if open > position, !isInProlog, openNameEnds.isEmpty, !Self.isBlank(buffer, position..<open) {
                throw XMLStructureError(line: line, problem: "there is text after the root element ends")
            }
            countLines(buffer, position..<open)
            position = open
            guard let next = try scanMarkup(buffer, at: open, into: &handler) else {
                return position
            }
            countLines(buffer, open..<next)
            position = next
        }
        return position
    }

    /// Scans the markup starting at `open` (a `<`); returns the position after it, or nil
    /// when the buffer ends first.
    private mutating func scanMarkup<H: XMLHandler>(
        _ buffer: UnsafeRawBufferPointer, at open: Int, into handler: inout H
    )
        throws -> Int?
    {
        let count = buffer.count
        guard open + 1 < count else { return nil }
        let second = buffer[open + 1]
        if second == UInt8(ascii: "?") {
            return Self.find("?>", in: buffer, from: open + 2).map { $0 + 2 }
        }
        if second == UInt8(ascii: "!") {
            guard open + 3 < count else { return nil }
            if buffer[open + 2] == UInt8(ascii: "-"), buffer[open + 3] == UInt8(ascii: "-") {
                return Self.find("-->", in: buffer, from: open + 4).map { $0 + 3 }
            }
            if isInProlog {
                // A DOCTYPE or one of its declarations: step over `<!` and read on. The DTD's
                // content is never interpreted, so a malformed one cannot matter.
                return open + 2
            }
            if Self.hasPrefix("<![CDATA[", buffer, at: open) {
                guard let end = Self.find("]]>", in: buffer, from: open + 9) else { return nil }
                try handler.text(UnsafeRawBufferPointer(rebasing: buffer[(open + 9)..<end]), line: line)
                return end + 3
            }
            throw XMLStructureError(line: line, problem: "a declaration (<!…) appears inside the document")
        }
        if second == UInt8(ascii: "/") {
            guard let close = Self.find(UInt8(ascii: ">"), in: buffer, from: open + 2) else { return nil }
            var nameEnd = close
            while nameEnd > open + 2, Self.isWhitespace(buffer[nameEnd - 1]) { nameEnd -= 1 }
            try closeElement(UnsafeRawBufferPointer(rebasing: buffer[(open + 2)..<nameEnd]), into: &handler)
            return close + 1
        }
        if isInProlog {
            guard Self.isNameStart(second) else {
                throw XMLStructureError(line: line, problem: "a tag cannot start with \"<\(Character(Unicode.Scalar(second)))\"")
            }
            if hasSeenRoot {
                throw XMLStructureError(line: line, problem: "a second root element follows the first")
            }
            isInProlog = false
            hasSeenRoot = true
        }
        return try scanStartTag(buffer, at: open, into: &handler)
    }

    private mutating func scanStartTag<H: XMLHandler>(
        _ buffer: UnsafeRawBufferPointer, at open: Int, into handler: inout H
    )
        throws -> Int?
    {
        let count = buffer.count
        var index = open + 1
        guard index < count, Self.isNameStart(buffer[index]) else {
            throw XMLStructureError(line: line, problem: "a \"<\" is not followed by an element name")
        }
        while index < count, Self.isNameByte(buffer[index]) { index += 1 }
        let nameRange = (open + 1)..<index
        attributes.removeAll(keepingCapacity: true)
        var tagLines = 0
        while true {
            while index < count, Self.isWhitespace(buffer[index]) {
                if buffer[index] == 10 { tagLines += 1 }
                index += 1
            }
            guard index < count else { return nil }
            let byte = buffer[index]
            if byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") {
                let isEmpty = byte == UInt8(ascii: "/")
                if isEmpty {
                    guard index + 1 < count else { return nil }
                    guard buffer[index + 1] == UInt8(ascii: ">") else {
                        throw XMLStructureError(line: line + tagLines, problem: "a \"/\" inside a tag is not followed by \">\"")
                    }
                }
                let element = XMLElement(buffer: buffer, nameRange: nameRange, attributes: attributes, line: line, isEmpty: isEmpty)
                try handler.startElement(element)
                if isEmpty {
                    // Reported as the start and end tags it stands for: a handler that keeps
                    // state until an element ends (a TCX `<Track/>` did) never waits forever.
                    try handler.endElement(element.name, line: line + tagLines)
                } else {
                    openElement(element.name)
                }
                return index + (isEmpty ? 2 : 1)
            }
            guard Self.isNameStart(byte) else {
                throw XMLStructureError(line: line + tagLines, problem: "unexpected \"\(Character(Unicode.Scalar(byte)))\" inside a tag")
            }
            let nameStart = index
            while index < count, Self.isNameByte(buffer[index]) { index += 1 }
            var attributeName = nameStart..<index
            while index < count, Self.isWhitespace(buffer[index]) { index += 1 }
            guard index < count else { return nil }
            if buffer[index] != UInt8(ascii: "=") {
                guard let spaced = try Self.spacedName(buffer, from: nameStart, line: line + tagLines) else { return nil }
                (attributeName, index) = spaced
            }
            index += 1
            while index < count, Self.isWhitespace(buffer[index]) { index += 1 }
            guard index < count else { return nil }
            let quote = buffer[index]
            guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
                throw XMLStructureError(line: line + tagLines, problem: "an attribute value is not in quotes")
            }
            guard let closing = Self.find(quote, in: buffer, from: index + 1) else { return nil }
            let value = (index + 1)..<closing
            let valueBytes = UnsafeRawBufferPointer(rebasing: buffer[value])
            if let lessThan = Self.find(UInt8(ascii: "<"), in: valueBytes, from: 0) {
                _ = lessThan
                throw XMLStructureError(line: line + tagLines, problem: "an attribute value holds a raw \"<\"")
            }
            let hasReferences = Self.find(UInt8(ascii: "&"), in: valueBytes, from: 0) != nil
            attributes.append(XMLAttribute(name: attributeName, value: value, hasReferences: hasReferences))
            index = closing + 1
        }
    }

    /// An attribute name holding spaces, `Health Mate App Version="2.6.2"`: not XML, but iOS 8
    /// and 9 exports wrote some apps' metadata keys so. Looked for only once a name is found
    /// not followed by `=`, so well-formed tags never pay for it: words of name characters
    /// separated by spaces or tabs (never a line break), then `=`.
    /// - Returns: the name's range and the position of its `=`, or nil when the buffer ends first.
    /// - Throws: ``XMLStructureError`` when it is not such a name either.
    private static func spacedName(_ buffer: UnsafeRawBufferPointer, from start: Int, line: Int) throws -> (Range<Int>, Int)? {
        var index = start
        while true {
            while index < buffer.count, isNameByte(buffer[index]) { index += 1 }
            let nameEnd = index
            while index < buffer.count, buffer[index] == 32 || buffer[index] == 9 { index += 1 }
            guard index < buffer.count else { return nil }
            if buffer[index] == UInt8(ascii: "=") { return (start..<nameEnd, index) }
            guard isNameByte(buffer[index]) else {
                throw XMLStructureError(line: line, problem: "an attribute has no \"=\" and value")
            }
        }
    }

    private mutating func openElement(_ name: UnsafeRawBufferPointer) {
        openNames.append(contentsOf: name)
        openNameEnds.append(openNames.count)
        openLines.append(line)
    }

    private mutating func closeElement<H: XMLHandler>(_ name: UnsafeRawBufferPointer, into handler: inout H) throws {
        guard let end = openNameEnds.last else {
            throw XMLStructureError(line: line, problem: "an end tag </\(String(decoding: name, as: UTF8.self).shownInMessage)> closes nothing")
        }
        let start = openNameEnds.count > 1 ? openNameEnds[openNameEnds.count - 2] : 0
        let matches = openNames.withUnsafeBytes { names in
            Self.equal(UnsafeRawBufferPointer(rebasing: names[start..<end]), name)
        }
        guard matches else {
            let open = String(decoding: openNames[start..<end], as: UTF8.self)
            throw XMLStructureError(
                line: line,
                problem: "</\(String(decoding: name, as: UTF8.self))> closes <\(open)> opened at line \(openLines.last ?? 0): the XML is unbalanced")
        }
        try handler.endElement(name, line: line)
        openNames.removeSubrange(start..<end)
        openNameEnds.removeLast()
        openLines.removeLast()
    }

    // MARK: Bytes

    private mutating func countLines(_ buffer: UnsafeRawBufferPointer, _ range: Range<Int>) {
        var index = range.lowerBound
        while let newline = Self.find(10, in: buffer, from: index), newline < range.upperBound {
            line += 1
            index = newline + 1
        }
    }

    @inline(__always)
    static func find(_ byte: UInt8, in buffer: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard start < buffer.count, let base = buffer.baseAddress else { return nil }
        guard let found = memchr(base + start, Int32(byte), buffer.count - start) else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }

    static func find(_ text: StaticString, in buffer: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard start < buffer.count, let base = buffer.baseAddress else { return nil }
        _ = base
        return text.withUTF8Buffer { needle in
            guard let first = needle.first else { return start }
            var index = start
            while let candidate = find(first, in: buffer, from: index) {
                guard candidate + needle.count <= buffer.count else { return nil }
                if equal(UnsafeRawBufferPointer(rebasing: buffer[candidate..<candidate + needle.count]), UnsafeRawBufferPointer(needle)) {
                    return candidate
                }
                index = candidate + 1
            }
            return nil
        }
    }

    static func hasPrefix(_ text: StaticString, _ buffer: UnsafeRawBufferPointer, at start: Int) -> Bool {
        text.withUTF8Buffer { needle in
            start + needle.count <= buffer.count
                && equal(UnsafeRawBufferPointer(rebasing: buffer[start..<start + needle.count]), UnsafeRawBufferPointer(needle))
        }
    }

    /// Whether two byte buffers hold the same bytes.
    static func equal(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer) -> Bool {
        guard left.count == right.count else { return false }
        guard let leftBase = left.baseAddress, let rightBase = right.baseAddress else { return left.isEmpty }
        return memcmp(leftBase, rightBase, left.count) == 0
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 32 || byte == 10 || byte == 9 || byte == 13
    }

    static func isBlank(_ buffer: UnsafeRawBufferPointer, _ range: Range<Int>) -> Bool {
        buffer[range].allSatisfy(isWhitespace)
    }

    static func isNameStart(_ byte: UInt8) -> Bool {
        (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || byte == 95 || byte == 58 || byte >= 0x80
    }

    static func isNameByte(_ byte: UInt8) -> Bool {
        isNameStart(byte) || (byte >= 48 && byte <= 57) || byte == 45 || byte == 46
    }
}
