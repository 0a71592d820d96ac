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

        static func query(_ name: String, _ description: String, type: String = "string", required: Bool = false) -> Field {
            Field(name: name, type: type, isRequired: required, description: description)
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
    var handler: @Sendable (Request, StrideRequestContext) async throws -> Response
}
