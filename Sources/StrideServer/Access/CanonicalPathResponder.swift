import HTTPTypes
import Hummingbird
import Logging

/// The server's first step: every request is read at its ``CanonicalPath`` from here on — the
/// request log, the token and session guards, the router — so a path cannot be spelled past a
/// guard. A path that is not one is answered 400 before anything else runs.
struct CanonicalPathResponder<Inner: HTTPResponder>: HTTPResponder where Inner.Context == StrideRequestContext {
    typealias Context = StrideRequestContext
    let inner: Inner
    let logger: Logger

    func respond(to request: Request, context: Context) async throws -> Response {
        let target = request.head.path ?? ""
        switch CanonicalPath.of(target) {
        case .path(let path, let query):
            guard path + query != target else { return try await inner.respond(to: request, context: context) }
            var head = request.head
            head.path = path + query
            return try await inner.respond(to: Request(head: head, body: request.body), context: context)
        case .refused(let reason):
            logger.info("\(request.method) (a path refused) 400: \(reason)")
            return try APIError(.badRequest, "\(reason); send the path as the API description writes it").response(from: request, context: context)
        }
    }
}
