import Hummingbird
import StrideDashboard
import StrideEvents
import StrideLedger

/// Reads a request's query parameters, naming the parameter in every refusal.
struct QueryParameters {
    let request: Request

    /// The text of a parameter, when given (and not empty).
    func text(_ name: String) -> String? {
        guard let value = request.uri.queryParameters[Substring(name)], !value.isEmpty else { return nil }
        return String(value)
    }

    /// A day `yyyy-MM-dd`.
    /// - Throws: ``APIError`` (400) naming the parameter.
    func day(_ name: String) throws -> CivilDate? {
        guard let text = text(name) else { return nil }
        guard let day = CivilDate(text) else { throw APIError.badField(name, "\"\(text.shownInMessage)\" is not a date like 2024-05-01") }
        return day
    }

    /// An instant, ISO 8601 with an offset.
    /// - Throws: ``APIError`` (400) naming the parameter.
    func instant(_ name: String) throws -> Timestamp? {
        guard let text = text(name) else { return nil }
        guard let instant = ISO8601.parse(text) else {
            throw APIError.badField(name, "\"\(text.shownInMessage)\" is not an instant like 2024-05-01T08:00:00+02:00")
        }
        return instant
    }

    /// A whole number within bounds.
    /// - Throws: ``APIError`` (400) naming the parameter.
    func integer(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        try text(name).map { try Self.wholeNumber($0, named: name, in: range) }
    }

    /// A whole-number parameter, within the bounds its description states.
    /// - Throws: ``APIError`` (400) naming the parameter.
    func integer(_ field: Endpoint.Field) throws -> Int? {
        try integer(field.name, in: field.range ?? Int.min...Int.max)
    }

    /// A whole number within bounds, from a parameter or a header named `name`: one more
    /// digit than `Int` holds, a sign or a space is refused, never trapped on.
    /// - Throws: ``APIError`` (400) naming the parameter or header.
    static func wholeNumber(_ text: String, named name: String, in range: ClosedRange<Int>) throws -> Int {
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)), range.contains(value) else {
            throw APIError.badField(
                name, "\"\(text.shownInMessage)\" is not a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// `true` or `false` (also `1`/`0`); absent is false.
    /// - Throws: ``APIError`` (400) naming the parameter.
    func flag(_ name: String) throws -> Bool {
        guard let text = text(name) else { return false }
        switch text.lowercased() {
        case "true", "1", "yes": return true
        case "false", "0", "no": return false
        default: throw APIError.badField(name, "\"\(text.shownInMessage)\" is not true or false")
        }
    }

    /// A required parameter's text.
    /// - Throws: ``APIError`` (400) naming the parameter.
    func required(_ name: String) throws -> String {
        guard let text = text(name) else { throw APIError.badField(name, "this parameter is required") }
        return text
    }
}

extension QueryParameters {
    /// `?asOf=` (a moment of the runner's life: an instant) or `?asRecorded=` (what the ledger
    /// said: a sequence number or an instant), nil when neither is given. A bare sequence
    /// number in `asOf` is refused, naming `asRecorded`.
    /// - Throws: ``APIError`` (400) naming the parameter.
    func timeTravel() throws -> TimeTravel? {
        let (asOf, asRecorded) = (text("asOf"), text("asRecorded"))
        if asOf != nil, asRecorded != nil { throw APIError.badField("asOf", "give asOf or asRecorded, not both") }
        if let asOf {
            guard let travel = TimeTravel(parsingAsOf: asOf) else {
                throw APIError.badField("asOf", TimeTravel.asOfRefusal(asOf, asRecordedName: "asRecorded"))
            }
            return travel
        }
        if let asRecorded {
            guard let travel = TimeTravel(parsing: asRecorded) else {
                throw APIError.badField("asRecorded", TimeTravel.asRecordedRefusal(asRecorded))
            }
            return travel
        }
        return nil
    }
}
