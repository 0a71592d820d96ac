import Foundation
import HTTPTypes
import Hummingbird
import StrideEvents

/// The fields of a form the dashboard's pages send (`application/x-www-form-urlencoded`),
/// and the same fields as the JSON body of the API route that carries the form out.
struct FormFields {
    /// The most a form's body may hold: a journal entry is the longest field.
    static let limit = 64 * 1024
    private var values: [String: String] = [:]

    /// The value of a field, when sent.
    subscript(name: String) -> String? { values[name] }

    /// Reads a form's body.
    /// - Throws: ``APIError``: 415 for another media type, 413 past ``limit``.
    static func read(_ request: Request) async throws -> FormFields {
        let buffer = try await MediaTypes.body(
            of: request, oneOf: ["application/x-www-form-urlencoded"], limit: limit, tooLarge: "the form is larger than \(limit) bytes")
        return FormFields(encoded: String(decoding: buffer.readableBytesView, as: UTF8.self))
    }

    /// The fields of `name=value&…`, `+` for a space and percent escapes decoded; of a name
    /// sent twice, the first.
    init(encoded: String) {
        for pair in encoded.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(parts[0]), !name.isEmpty, values[name] == nil else { continue }
            values[name] = parts.count > 1 ? Self.decode(parts[1]) ?? "" : ""
        }
    }

    private static func decode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    /// The fields `endpoint` takes, typed as its description says: a number field must read as a
    /// number, a checkbox (`on`, `true`) is true; an empty field is left out, except the shoe
    /// of the default-shoe form, where empty means "no default" (null).
    /// - Throws: ``APIError`` (400) naming a field that is not a number.
    func json(for endpoint: Endpoint) throws -> JSONValue {
        guard case .json(let fields) = endpoint.body else { return .object([]) }
        var members: [JSONValue.Member] = []
        for field in fields {
            let text = values[field.name]?.trimmingCharacters(in: .whitespacesAndNewlines)
            switch field.type {
            case "boolean":
                members.append(.init(field.name, .bool(["on", "true", "1", "yes"].contains(text?.lowercased() ?? ""))))
            case "number", "integer":
                guard let text, !text.isEmpty else { continue }
                guard let number = Double(text.replacingOccurrences(of: ",", with: ".")), number.isFinite else {
                    throw APIError.badField(field.name, "\"\(text.shownInMessage)\" is not a number")
                }
                members.append(.init(field.name, .number(number)))
            default:
                if let text, !text.isEmpty {
                    members.append(.init(field.name, .string(text)))
                } else if text != nil, field.isRequired {
                    members.append(.init(field.name, .null))
                }
            }
        }
        return .object(members)
    }
}

/// Refuses a form sent from another site: a browser says where a request comes from in
/// `Sec-Fetch-Site` and `Origin`; either naming another site is enough to refuse. (The session
/// cookie is `SameSite=Strict` and every form carries the session's CSRF value besides.)
enum SameSite {
    /// - Throws: ``APIError`` (403) for a request a browser marked as cross-site.
    static func check(_ request: Request, from origin: RequestOrigin) throws {
        let refusal = APIError(.forbidden, "forms are taken only from this dashboard's own pages")
        if let name = HTTPField.Name("Sec-Fetch-Site"), let site = request.headers[name], !["same-origin", "none"].contains(site.lowercased()) {
            throw refusal
        }
        // The pages' referrer policy (same-origin) has a browser send their real origin with a
        // form; `null` comes from a sandboxed frame, a `data:` page or a redirect across sites.
        if let sent = request.headers[.origin] {
            guard origin.accepted.contains(sent.lowercased()) else {
                throw APIError(
                    .forbidden,
                    "forms are taken only from this dashboard's own pages; this one came from \(sent.shownInMessage) (behind a reverse proxy, start `stride serve` with --trust-proxy or --public-url)"
                )
            }
        }
    }
}
