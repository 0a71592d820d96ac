/// One attribute of a start tag: byte ranges into the scanner's buffer.
struct XMLAttribute {
    var name: Range<Int>
    var value: Range<Int>
    /// Whether the value holds `&` and so needs its references decoded.
    var hasReferences: Bool
}

/// A start tag as the scanner hands it to a handler: its buffer is valid only during the
/// call, so a handler copies out what it keeps.
struct XMLElement {
    let buffer: UnsafeRawBufferPointer
    let nameRange: Range<Int>
    let attributes: [XMLAttribute]
    /// The line the tag starts on, from 1.
    let line: Int
    /// Whether the tag closes itself (`<Record …/>`).
    let isEmpty: Bool

    init(buffer: UnsafeRawBufferPointer, nameRange: Range<Int>, attributes: [XMLAttribute], line: Int, isEmpty: Bool) {
        self.buffer = buffer
        self.nameRange = nameRange
        self.attributes = attributes
        self.line = line
        self.isEmpty = isEmpty
    }

    /// The element's name bytes.
    var name: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: buffer[nameRange]) }

    /// Whether the element's name is `expected` (ASCII bytes).
    func isNamed(_ expected: StaticName) -> Bool { expected.matches(name) }

    /// The bytes of an attribute's name.
    func name(of attribute: XMLAttribute) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: buffer[attribute.name])
    }

    /// The raw bytes of an attribute's value (references not decoded).
    func rawValue(of attribute: XMLAttribute) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: buffer[attribute.value])
    }

    /// The first attribute with a name, if any.
    func attribute(_ name: StaticName) -> XMLAttribute? {
        attributes.first { name.matches(UnsafeRawBufferPointer(rebasing: buffer[$0.name])) }
    }
}

/// An element or attribute name known in advance, compared without allocating. A static
/// string rather than an array of its bytes: a name is matched several times per record,
/// and an array is counted (retained and released) at every use, a static string never.
struct StaticName: Sendable {
    let text: StaticString

    init(_ text: StaticString) {
        self.text = text
    }

    /// The name's bytes.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount) }

    func matches(_ candidate: UnsafeRawBufferPointer) -> Bool {
        candidate.count == text.utf8CodeUnitCount
            && XMLScanner.equal(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount), candidate)
    }
}
