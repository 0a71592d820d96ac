import Foundation
import Hummingbird
import StrideEvents

/// The fields of a JSON object sent as a request's body, read with refusals that name the line
/// (for malformed JSON) or the field (for a value of the wrong kind).
struct JSONFields {
    private let object: [String: JSONNode]

    /// Reads a body of at most `limit` bytes that must be a JSON object.
    /// - Throws: ``APIError``: 413 past the limit, 415 for another media type, 400 for
    ///   malformed JSON (with its line and column) or a body that is not an object.
    static func read(_ request: Request, limit: Int) async throws -> JSONFields {
        try parse(try await body(of: request, limit: limit))
    }

    /// A JSON request's body, of at most `limit` bytes, unparsed.
    /// - Throws: ``APIError``: 415 for another media type, 413 past the limit.
    static func body(of request: Request, limit: Int) async throws -> ByteBuffer {
        try await MediaTypes.body(
            of: request, oneOf: ["application/json"], limit: limit, tooLarge: "the body is larger than \(limit) bytes, the most this route takes")
    }

    /// The fields of a JSON object body, read by Stride's one JSON reader (``JSONParser``).
    /// - Throws: ``APIError`` (400) when it is not a JSON object.
    static func parse(_ buffer: ByteBuffer) throws -> JSONFields {
        guard buffer.readableBytes > 0 else { return JSONFields(object: [:]) }
        let parsed: JSONNode
        do {
            parsed =
                try buffer.readableBytesView.withContiguousStorageIfAvailable { try JSONParser.parse(UnsafeRawBufferPointer($0)) }
                ?? Array(buffer.readableBytesView).withUnsafeBytes { try JSONParser.parse($0) }
        } catch let error as JSONSyntaxError {
            throw APIError(.badRequest, "the body is not valid JSON: \(error)")
        }
        guard case .object(let object) = parsed else { throw APIError(.badRequest, "the body must be a JSON object") }
        return JSONFields(object: object)
    }

    /// The field's value, nil when it is absent or null.
    private func value(_ name: String) -> JSONNode? {
        guard let value = object[name], value != .null else { return nil }
        return value
    }

    /// A string field.
    /// - Throws: ``APIError`` (400) naming the field.
    func text(_ name: String, required: Bool = false) throws -> String? {
        guard let value = value(name) else {
            if required { throw APIError.badField(name, "this field is required") }
            return nil
        }
        guard case .string(let text) = value else { throw APIError.badField(name, "expected text") }
        return text
    }

    /// A required string field, not empty.
    /// - Throws: ``APIError`` (400) naming the field.
    func requiredText(_ name: String) throws -> String {
        guard let text = try text(name, required: true), !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw APIError.badField(name, "this field is required and must not be empty")
        }
        return text
    }

    /// A required field holding a list of text, at least one item, none empty.
    /// - Throws: ``APIError`` (400) naming the field.
    func requiredTexts(_ name: String) throws -> [String] {
        guard let value = value(name) else { throw APIError.badField(name, "this field is required") }
        guard case .array(let items) = value, !items.isEmpty else { throw APIError.badField(name, "expected a list of at least one text") }
        return try items.enumerated().map { index, item in
            guard case .string(let text) = item, !text.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw APIError.badField("\(name)[\(index)]", "expected text that is not empty")
            }
            return text
        }
    }

    /// A number field.
    /// - Throws: ``APIError`` (400) naming the field.
    func number(_ name: String, required: Bool = false) throws -> Double? {
        guard let value = value(name) else {
            if required { throw APIError.badField(name, "this field is required") }
            return nil
        }
        guard case .number(let number) = value, number.isFinite else { throw APIError.badField(name, "expected a number") }
        return number
    }

    /// A whole-number field.
    /// - Throws: ``APIError`` (400) naming the field.
    func integer(_ name: String, required: Bool = false) throws -> Int? {
        guard let number = try number(name, required: required) else { return nil }
        guard number == number.rounded(), abs(number) < 1e15 else { throw APIError.badField(name, "expected a whole number") }
        return Int(number)
    }

    /// A boolean field; absent is false.
    /// - Throws: ``APIError`` (400) naming the field.
    func flag(_ name: String) throws -> Bool {
        guard let value = value(name) else { return false }
        guard case .bool(let flag) = value else { throw APIError.badField(name, "expected true or false") }
        return flag
    }

    /// Whether a field is present (even as null).
    func has(_ name: String) -> Bool { object[name] != nil }

    /// The `at` field: when the action happened, for back-dating.
    /// - Throws: ``APIError`` (400) naming the field.
    func instant(_ name: String = "at") throws -> Timestamp? {
        guard let text = try text(name) else { return nil }
        guard let instant = ISO8601.parse(text) else {
            throw APIError.badField(name, "\"\(text.shownInMessage)\" is not an instant like 2024-05-01T08:00:00+02:00")
        }
        return instant
    }

    /// A local day field (`2024-05-01`).
    /// - Throws: ``APIError`` (400) naming the field.
    func day(_ name: String) throws -> CivilDate? {
        guard let text = try text(name) else { return nil }
        guard let day = CivilDate(text) else { throw APIError.badField(name, "\"\(text.shownInMessage)\" is not a day like 2024-05-01") }
        return day
    }
}

/// The media types a route takes.
enum MediaTypes {
    /// Refuses a request whose `Content-Type` is none of `accepted` (parameters such as
    /// `charset` aside).
    /// - Throws: ``APIError`` (415).
    static func require(_ request: Request, oneOf accepted: [String]) throws {
        let given = request.headers[.contentType]?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard let given, accepted.contains(given) else {
            throw APIError(
                .unsupportedMediaType,
                "this route takes \(accepted.joined(separator: ", ")); the request's Content-Type is \(given.map { "\"\($0.shownInMessage)\"" } ?? "missing")"
            )
        }
    }

    /// A body of one of the `accepted` media types, of at most `limit` bytes.
    /// - Throws: ``APIError``: 415 for another media type, 413 (saying `tooLarge`) past the limit.
    static func body(of request: Request, oneOf accepted: [String], limit: Int, tooLarge: String) async throws -> ByteBuffer {
        try require(request, oneOf: accepted)
        var request = request
        do {
            return try await request.collectBody(upTo: limit)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw APIError(.contentTooLarge, tooLarge)
        }
    }
}
