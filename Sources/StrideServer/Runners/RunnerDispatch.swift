import Hummingbird
import Logging
import StrideLedger

/// A shared server's first guard: sends each request to its runner's site, which checks it
/// again in full.
///
/// - An API request goes by the runner named in its token (`Authorization: Bearer
///   marie.stride_…`, ``RunnerToken``); a token naming no runner, or one without a ledger, is
///   401, like a wrong token.
/// - A page or a form goes by the runner its session was opened for.
/// - The sign-in page is the server's own (``SignInPage``); a page without a session is sent
///   there.
struct RunnerDispatch: RouterMiddleware {
    typealias Context = StrideRequestContext

    let runners: Runners
    let sessions: Sessions
    /// Where a ledger that cannot be opened is reported, for the operator.
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        if path == DashboardSite.signInPath || path == MetricsEndpoint.path { return try await next(request, context) }
        if AccessMiddleware.guards(path) {
            guard let presented = AccessMiddleware.bearerToken(request.headers[.authorization]) else { throw APIError.unauthorized }
            let token = RunnerToken(presented: presented)
            guard let runner = token.runner, let site = try await site(of: runner, presenting: token.token) else { throw APIError.unauthorized }
            return try await site.responder.respond(to: request, context: context)
        }
        let cookie = request.cookies[DashboardSite.cookieName]?.value
        guard let cookie, let session = await sessions.session(id: cookie), let runner = session.runner,
            let site = try await site(of: runner, presenting: nil)
        else { return PageAccessMiddleware.refuse(request, ended: cookie != nil) }
        return try await site.responder.respond(to: request, context: context)
    }

    /// The runner's site, for a request presenting `token` (nil for a session's); a ledger that
    /// cannot be opened (damaged, unreadable) is the operator's to see in the log, once, and
    /// its runner's clients get 503, the others nothing.
    private func site(of runner: String, presenting token: String?) async throws -> RunnerSite? {
        do {
            return try await runners.site(named: runner, presenting: token)
        } catch let error as RunnerUnavailable {
            if error.isNew {
                logger.error(
                    "the ledger of the runner \(runner) cannot be opened: \(error.reason); check it with `stride --ledger \(runners.folder.ledgerPath(of: runner)) ledger verify` (tried again at the first request after \(Runners.retryAfterFailure))"
                )
            }
            throw error
        }
    }
}
