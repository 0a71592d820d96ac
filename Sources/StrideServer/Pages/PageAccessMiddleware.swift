import HTTPTypes
import Hummingbird
import StrideDashboard

/// Lets a browser onto the dashboard's pages only with a live session cookie whose token is
/// still active; the API under `/v1` is ``AccessMiddleware``'s, `/metrics` checks its own token,
/// and the sign-in page is open.
///
/// A page asked for without a session is answered with a redirect to the sign-in page; a form
/// sent without one, with 401. A session whose token was revoked ends here, at its next
/// request.
struct PageAccessMiddleware: RouterMiddleware {
    typealias Context = StrideRequestContext

    let sessions: Sessions
    /// The runner whose ledger the pages show, on a shared server: a session of another
    /// runner's is refused here, whoever routed it.
    let runner: String?
    /// The device an active token names, or nil.
    let authenticate: @Sendable (String) async throws -> String?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        if AccessMiddleware.guards(path) || path == DashboardSite.signInPath || path == MetricsEndpoint.path {
            return try await next(request, context)
        }
        let cookie = request.cookies[DashboardSite.cookieName]?.value
        guard let cookie, let session = await sessions.session(id: cookie), session.runner == runner else {
            return Self.refuse(request, ended: cookie != nil)
        }
        guard try await authenticate(session.token) == session.device else {
            await sessions.close(id: session.id)
            return Self.refuse(request, ended: true)
        }
        var context = context
        context.device = session.device
        context.session = session
        return try await next(request, context)
    }

    /// To the sign-in page for a page asked for, 401 for anything else; `ended` when the
    /// browser had a session that is over (the cookie is cleared).
    static func refuse(_ request: Request, ended: Bool) -> Response {
        var headers: HTTPFields = [.cacheControl: "no-store"]
        if ended { headers.append(HTTPField(name: .setCookie, value: DashboardSite.clearedCookie)) }
        if request.method == .get || request.method == .head {
            headers[.location] = DashboardSite.signInPath + (ended ? "?ended=1" : "")
            return Response(status: .seeOther, headers: headers)
        }
        return HTMLAnswer.page(
            Dashboard.problem(
                title: "Sign in first", message: "This form needs a signed-in session: sign in with a device's token, then send it again."),
            status: .unauthorized, headers: headers)
    }
}
