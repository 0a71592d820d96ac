import StrideEvents

/// Turns attribute bytes into values: strings (interned, references decoded), instants and
/// numbers, noting references that are not the predefined ones.
struct AttributeReader {
    private(set) var strings = StringTable(bits: 12)
    /// Set when a value held a reference other than the five predefined entities or a
    /// character reference; the text is then kept as written.
    var sawUnknownReference = false

    /// Starts a new string table for the next batch of events. Its strings are then other
    /// objects than the ones in the batches being appended and freed on the other thread:
    /// the two threads no longer count references on the same few strings (a source name,
    /// a device), whose counts each atomic update moved between the cores.
    mutating func startBatch() {
        strings = StringTable(bits: 12)
    }

    /// The attribute's text, references decoded; repeated values come from the table.
    mutating func string(_ attribute: XMLAttribute, in element: XMLElement) -> String {
        let raw = element.rawValue(of: attribute)
        guard attribute.hasReferences else { return strings.string(raw) }
        let (text, hasUnknownReference) = strings.string(forKey: raw) { raw in
            let decoded = XMLReferences.decode(raw)
            return (String(decoding: decoded.bytes, as: UTF8.self), decoded.hasUnknownReference)
        }
        if hasUnknownReference { sawUnknownReference = true }
        return text
    }

    /// The attribute's name as written (names hold no references); repeated ones come from the table.
    mutating func name(of attribute: XMLAttribute, in element: XMLElement) -> String {
        strings.string(element.name(of: attribute))
    }

    /// The attribute's bytes with references decoded, handed to `body`.
    mutating func withDecodedBytes<R>(_ attribute: XMLAttribute, in element: XMLElement, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        let raw = element.rawValue(of: attribute)
        guard attribute.hasReferences else { return body(raw) }
        let decoded = XMLReferences.decode(raw)
        if decoded.hasUnknownReference { sawUnknownReference = true }
        return decoded.bytes.withUnsafeBytes(body)
    }
}
