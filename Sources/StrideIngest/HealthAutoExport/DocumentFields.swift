import StrideEvents

/// A field that makes the document unreadable (a point without a date, a date that is
/// none): the reader names it with its line and reads nothing from the document.
struct FieldError: Error {
    var path: FieldPath
    var problem: String
}

/// A JSON object of the document, with its place for errors.
struct DocumentObject {
    let fields: [String: JSONNode]
    let path: FieldPath
    /// The document's bytes, where its deferred arrays are read from; valid while it is read.
    let source: UnsafeRawBufferPointer

    /// A member, nil when absent or null.
    subscript(key: String) -> JSONNode? {
        guard let value = fields[key], value != .null else { return nil }
        return value
    }

    /// A member that must be non-empty text.
    func text(_ key: String) throws -> String {
        guard case .string(let text)? = self[key], !text.isEmpty else {
            throw FieldError(path: path.key(key), problem: self[key] == nil ? "it is missing" : "it is not non-empty text")
        }
        return text
    }

    /// A member that is text when present.
    func optionalText(_ key: String) -> String? {
        guard case .string(let text)? = self[key] else { return nil }
        return text
    }

    /// A member that must be a date.
    func date(_ key: String) throws -> HealthAutoExportDate {
        guard let value = self[key] else { throw FieldError(path: path.key(key), problem: "it is missing; every one must have a date") }
        guard case .string(let text) = value, let date = HealthAutoExportDate.parse(text) else {
            throw FieldError(path: path.key(key), problem: "\(Self.quoted(value)) is not a date like \(HealthAutoExportDate.example)")
        }
        return date
    }

    /// A member that is a date when present.
    func optionalDate(_ key: String) throws -> HealthAutoExportDate? {
        self[key] == nil ? nil : try date(key)
    }

    /// A member that is a number, nil otherwise.
    func number(_ key: String) -> Double? {
        guard case .number(let number)? = self[key] else { return nil }
        return number
    }

    /// A member that must be an array when present (nil when absent).
    func array(_ key: String) throws -> DocumentArray? {
        guard let value = self[key] else { return nil }
        switch value {
        case .array(let elements): return DocumentArray(storage: .parsed(elements), path: path.key(key), source: source)
        case .deferred(let array): return DocumentArray(storage: .deferred(array), path: path.key(key), source: source)
        default: throw FieldError(path: path.key(key), problem: "it is not an array")
        }
    }

    /// An element of one of its arrays, which must be an object.
    func element(_ value: JSONNode, at path: FieldPath) throws -> DocumentObject {
        guard case .object(let fields) = value else { throw FieldError(path: path, problem: "it is not a JSON object") }
        return DocumentObject(fields: fields, path: path, source: source)
    }

    private static func quoted(_ value: JSONNode) -> String {
        let shown = value.text.shownInMessage
        if case .string = value { return "\"\(shown)\"" }
        return shown
    }
}

/// An array of the document: parsed, or deferred and read one element at a time.
struct DocumentArray {
    enum Storage {
        case parsed([JSONNode])
        case deferred(DeferredArray)
    }

    let storage: Storage
    let path: FieldPath
    let source: UnsafeRawBufferPointer

    /// Hands each element, with its position, to `body` in order.
    /// - Throws: ``JSONSyntaxError`` for a fault in a deferred array, or what `body` throws.
    func forEach(_ body: (Int, JSONNode) throws -> Void) throws {
        switch storage {
        case .parsed(let elements): for (position, element) in elements.enumerated() { try body(position, element) }
        case .deferred(let array): try JSONParser.forEachElement(of: array, in: source, body)
        }
    }

    /// How many elements it holds.
    func count() throws -> Int {
        switch storage {
        case .parsed(let elements): elements.count
        case .deferred(let array): try JSONParser.count(of: array, in: source)
        }
    }
}
