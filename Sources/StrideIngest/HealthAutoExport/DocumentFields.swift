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
    func array(_ key: String) throws -> [JSONNode]? {
        guard let value = self[key] else { return nil }
        guard case .array(let elements) = value else { throw FieldError(path: path.key(key), problem: "it is not an array") }
        return elements
    }

    /// An element of an array that must be an object.
    static func element(_ value: JSONNode, at path: FieldPath) throws -> DocumentObject {
        guard case .object(let fields) = value else { throw FieldError(path: path, problem: "it is not a JSON object") }
        return DocumentObject(fields: fields, path: path)
    }

    private static func quoted(_ value: JSONNode) -> String {
        let text = value.text
        let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
        if case .string = value { return "\"\(shown)\"" }
        return shown
    }
}
