import Foundation

/// A place in a JSON document, from its root: `data`, `metrics`, 2, `data`, 5, `date`.
struct FieldPath: Sendable, CustomStringConvertible {
    enum Component: Sendable, Equatable {
        case key(String)
        case index(Int)
    }

    var components: [Component] = []

    /// The path one member further.
    func key(_ name: String) -> FieldPath { FieldPath(components: components + [.key(name)]) }

    /// The path one element further.
    func index(_ position: Int) -> FieldPath { FieldPath(components: components + [.index(position)]) }

    /// `metrics[2].data[5].date`: from inside the document's `data`, where everything lies.
    var description: String {
        var text = ""
        for (position, component) in components.enumerated() {
            switch component {
            case .key("data") where position == 0 && components.count > 1: continue
            case .key(let name): text += (text.isEmpty ? "" : ".") + name
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }
}

/// A field that makes the document unreadable (a point without a date, a date that is
/// none): the reader names it with its line and reads nothing from the document.
struct FieldError: Error {
    var path: FieldPath
    var problem: String
}

/// A JSON object from `JSONSerialization`, with its place for errors.
struct DocumentObject {
    let fields: [String: Any]
    let path: FieldPath

    /// A member, nil when absent or null.
    subscript(key: String) -> Any? {
        guard let value = fields[key], !(value is NSNull) else { return nil }
        return value
    }

    /// A member that must be non-empty text.
    func text(_ key: String) throws -> String {
        guard let text = self[key] as? String, !text.isEmpty else {
            throw FieldError(path: path.key(key), problem: self[key] == nil ? "it is missing" : "it is not non-empty text")
        }
        return text
    }

    /// A member that is text when present.
    func optionalText(_ key: String) -> String? {
        self[key] as? String
    }

    /// A member that must be a date.
    func date(_ key: String) throws -> HealthAutoExportDate {
        guard let value = self[key] else { throw FieldError(path: path.key(key), problem: "it is missing; every one must have a date") }
        guard let text = value as? String, let date = HealthAutoExportDate.parse(text) else {
            throw FieldError(path: path.key(key), problem: "\(Self.quoted(value)) is not a date like \(HealthAutoExportDate.example)")
        }
        return date
    }

    /// A member that is a date when present.
    func optionalDate(_ key: String) throws -> HealthAutoExportDate? {
        self[key] == nil ? nil : try date(key)
    }

    /// A member that is a number (not a boolean), nil otherwise.
    func number(_ key: String) -> Double? {
        Self.number(self[key])
    }

    /// A member that must be an array when present (nil when absent).
    func array(_ key: String) throws -> [Any]? {
        guard let value = self[key] else { return nil }
        guard let array = value as? [Any] else { throw FieldError(path: path.key(key), problem: "it is not an array") }
        return array
    }

    /// The element at `position` of an array that must be an object.
    static func element(_ value: Any, at path: FieldPath) throws -> DocumentObject {
        guard let fields = value as? [String: Any] else { throw FieldError(path: path, problem: "it is not a JSON object") }
        return DocumentObject(fields: fields, path: path)
    }

    /// A value as a number, when it is one (JSON's `true` is not).
    ///
    /// `JSONSerialization` gives numbers with many digits (`8.2796763649358063`, which real
    /// payloads hold) as decimals, whose `doubleValue` is not the nearest double: two
    /// numbers the app wrote apart would read as one. Their exact text is read instead.
    static func number(_ value: Any?) -> Double? {
        guard let number = value as? NSNumber, !isBoolean(number) else { return nil }
        if let decimal = number as? NSDecimalNumber, let exact = Double(decimal.description) { return exact }
        return number.doubleValue
    }

    static func isBoolean(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c"
    }

    /// A value as text for metadata and identities: text as it is, numbers in their shortest
    /// form, `true`/`false`, `null`, and arrays and objects as JSON with sorted keys.
    static func text(of value: Any) -> String {
        switch value {
        case let text as String: return text
        case let number as NSNumber:
            return isBoolean(number) ? (number.boolValue ? "true" : "false") : "\(Self.number(number) ?? number.doubleValue)"
        case is NSNull: return "null"
        default:
            guard JSONSerialization.isValidJSONObject(value),
                let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])
            else { return "\(value)" }
            return String(decoding: data, as: UTF8.self)
        }
    }

    private static func quoted(_ value: Any) -> String {
        let text = Self.text(of: value)
        let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
        return value is String ? "\"\(shown)\"" : shown
    }
}
