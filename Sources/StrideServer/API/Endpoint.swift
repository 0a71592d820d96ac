import Hummingbird
import StrideEvents

/// One route of the API: how it is called, what it answers, and the handler. The router is
/// built from the list of endpoints and the OpenAPI description is written from the same list,
/// so every route is described and every description is a route.
struct Endpoint: Sendable {
    /// A query parameter or a field of the JSON body.
    struct Field: Sendable {
        var name: String
        /// The OpenAPI type: `string`, `integer`, `number`, `boolean`.
        var type: String
        var isRequired: Bool
        var description: String
        /// What else its JSON Schema says: the plausible range it must lie in, a format, a
        /// longest length, the values it may take.
        var limits: [JSONValue.Member] = []

        static func query(_ name: String, _ description: String, type: String = "string", required: Bool = false) -> Field {
            Field(name: name, type: type, isRequired: required, description: description)
        }

        /// A whole-number parameter within `range`: the description states the bounds, and
        /// ``QueryParameters/integer(_:)`` refuses what lies outside them.
        static func integer(_ name: String, _ description: String, in range: ClosedRange<Int>) -> Field {
            var field = Field(name: name, type: "integer", isRequired: false, description: description)
            field.range = range
            return field.adding([.init("minimum", .integer(range.lowerBound)), .init("maximum", .integer(range.upperBound))])
        }

        /// The whole numbers an integer field takes.
        var range: ClosedRange<Int>?

        /// The field, said to lie in `range`.
        func within(_ range: PlausibleRange) -> Field {
            adding([.init("minimum", .number(range.lowest)), .init("maximum", .number(range.highest))])
        }

        /// The field, said to be text of this format (`date-time`, `date`).
        func format(_ format: String) -> Field {
            adding([.init("format", .string(format))])
        }

        /// The field, said to be text of at most `characters` characters.
        func longest(_ characters: Int) -> Field {
            adding([.init("maxLength", .integer(characters))])
        }

        /// The array field, said to hold at most `count` items.
        func mostItems(_ count: Int) -> Field {
            adding([.init("maxItems", .integer(count))])
        }

        /// The field, said to take one of `values`.
        func oneOf(_ values: [String]) -> Field {
            adding([.init("enum", .array(values.map(JSONValue.string)))])
        }

        private func adding(_ members: [JSONValue.Member]) -> Field {
            var field = self
            field.limits += members
            return field
        }
    }

    /// What the endpoint answers on success.
    enum Answer: Sendable {
        /// A contract document (the `--json` of a command), by its schema's name.
        case document(String)
        /// An action's result.
        case action
        /// A stream of Server-Sent Events.
        case eventStream
        /// This description.
        case openAPI
    }

    /// What the request body is.
    enum Body: Sendable {
        case none
        /// A JSON object with these fields.
        case json([Field])
        /// A file to ingest, of one of these media types.
        case upload([String])
    }

    var method: HTTPRequest.Method
    var path: String
    var summary: String
    var query: [Field] = []
    var body: Body = .none
    var answer: Answer
    /// Whether it changes the ledger (and so takes `Idempotency-Key`).
    var isWrite: Bool { method == .post }
    /// Whether every request of it runs in the heavy lane: uploads and replays, whose work grows
    /// with the body or the ledger.
    var isAlwaysHeavy: Bool {
        if case .upload = body { return true }
        return path == "/v1/replay"
    }
    /// Whether it reads the ledger as recorded at a point of its past when asked (`asRecorded`).
    var readsAsRecorded: Bool { query.contains { $0.name == "asRecorded" } }
    /// Whether a request of it may run in the heavy lane (and so be refused with 503 when the
    /// lane is full): always, or when it asks for the past as recorded.
    var isHeavy: Bool { isAlwaysHeavy || readsAsRecorded }

    /// The lane a request of this endpoint runs in — the one place it is decided for every
    /// route: heavy for uploads and replays, and for a read as recorded (``Lane/of(_:)``).
    func lane(of request: Request) -> Lane {
        if isAlwaysHeavy { return .heavy }
        return readsAsRecorded ? Lane.of(request) : .quick
    }
    var handler: @Sendable (StrideAPI, Request, StrideRequestContext) async throws -> Response
}
