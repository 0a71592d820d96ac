import Hummingbird
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

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        if path == DashboardSite.signInPath || path == MetricsEndpoint.path { return try await next(request, context) }
        if AccessMiddleware.guards(path) {
            guard let presented = AccessMiddleware.bearerToken(request.headers[.authorization]),
                let runner = RunnerToken(presented: presented).runner, let site = try await runners.site(named: runner)
            else { throw APIError.unauthorized }
            return try await site.responder.respond(to: request, context: context)
        }
        let cookie = request.cookies[DashboardSite.cookieName]?.value
        guard let cookie, let session = await sessions.session(id: cookie), let runner = session.runner,
            let site = try await runners.site(named: runner)
        else { return PageAccessMiddleware.refuse(request, ended: cookie != nil) }
        return try await site.responder.respond(to: request, context: context)
    }
}
