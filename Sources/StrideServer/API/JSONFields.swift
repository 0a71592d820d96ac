import Foundation
import Hummingbird
import StrideEvents

/// The fields of a JSON object sent as a request's body, read with refusals that name the line
/// (for malformed JSON) or the field (for a value of the wrong kind).
struct JSONFields {
    private let object: [String: Any]

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

    /// The fields of a JSON object body.
    /// - Throws: ``APIError`` (400) when it is not a JSON object.
    static func parse(_ buffer: ByteBuffer) throws -> JSONFields {
        let data = Data(buffer.readableBytesView)
        if data.isEmpty { return JSONFields(object: [:]) }
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw APIError(.badRequest, "the body is not valid JSON: \(Self.place(of: error, in: data))")
        }
        guard let object = parsed as? [String: Any] else { throw APIError(.badRequest, "the body must be a JSON object") }
        return JSONFields(object: object)
    }

    /// Where a JSON parse failed, as `line L, column C: what`.
    private static func place(of error: any Error, in data: Data) -> String {
        let detail = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? "it cannot be read"
        guard let range = detail.range(of: #"character (\d+)"#, options: .regularExpression),
            let offset = Int(detail[range].dropFirst("character ".count))
        else { return detail.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: ".")) }
        var line = 1
        var column = 1
        for byte in data.prefix(offset) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        let what = detail[..<range.lowerBound].trimmingCharacters(in: .whitespaces).replacingOccurrences(of: " around", with: "")
        return "line \(line), column \(column): \(what.lowercased())"
    }

    /// A string field.
    /// - Throws: ``APIError`` (400) naming the field.
    func text(_ name: String, required: Bool = false) throws -> String? {
        guard let value = object[name], !(value is NSNull) else {
            if required { throw APIError.badField(name, "this field is required") }
            return nil
        }
        guard let text = value as? String else { throw APIError.badField(name, "expected text") }
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
        guard let value = object[name], !(value is NSNull) else { throw APIError.badField(name, "this field is required") }
        guard let items = value as? [Any], !items.isEmpty else { throw APIError.badField(name, "expected a list of at least one text") }
        return try items.enumerated().map { index, item in
            guard let text = item as? String, !text.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw APIError.badField("\(name)[\(index)]", "expected text that is not empty")
            }
            return text
        }
    }

    /// A number field.
    /// - Throws: ``APIError`` (400) naming the field.
    func number(_ name: String, required: Bool = false) throws -> Double? {
        guard let value = object[name], !(value is NSNull) else {
            if required { throw APIError.badField(name, "this field is required") }
            return nil
        }
        guard let number = value as? NSNumber, !Self.isBoolean(number), number.doubleValue.isFinite else {
            throw APIError.badField(name, "expected a number")
        }
        return number.doubleValue
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
        guard let value = object[name], !(value is NSNull) else { return false }
        guard let number = value as? NSNumber, Self.isBoolean(number) else { throw APIError.badField(name, "expected true or false") }
        return number.boolValue
    }

    /// Whether a field is present (even as null).
    func has(_ name: String) -> Bool { object[name] != nil }

    /// The `at` field: when the action happened, for back-dating.
    /// - Throws: ``APIError`` (400) naming the field.
    func instant(_ name: String = "at") throws -> Timestamp? {
        guard let text = try text(name) else { return nil }
        guard let instant = ISO8601.parse(text) else {
            throw APIError.badField(name, "\"\(text)\" is not an instant like 2024-05-01T08:00:00+02:00")
        }
        return instant
    }

    /// A local day field (`2024-05-01`).
    /// - Throws: ``APIError`` (400) naming the field.
    func day(_ name: String) throws -> CivilDate? {
        guard let text = try text(name) else { return nil }
        guard let day = CivilDate(text) else { throw APIError.badField(name, "\"\(text)\" is not a day like 2024-05-01") }
        return day
    }

    /// Whether JSON wrote `true` or `false` (Foundation hands both numbers and booleans over as
    /// `NSNumber`; a boolean's type code is `c`).
    private static func isBoolean(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c"
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
                "this route takes \(accepted.joined(separator: ", ")); the request's Content-Type is \(given.map { "\"\($0)\"" } ?? "missing")")
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
