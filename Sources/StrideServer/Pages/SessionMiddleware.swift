import HTTPTypes
import Hummingbird
import StrideDashboard
import StrideLedger

/// The pages' guard (the middleware of the pages' group): lets a browser onto the dashboard
/// only with a live session cookie whose token is still active, and puts the session's runner's
/// site and its credential into the context. The API under `/v1` is ``TokenMiddleware``'s;
/// `/metrics` checks its own token, and the sign-in page is open.
///
/// A page asked for without a session is answered with a redirect to the sign-in page; a form
/// sent without one, with 401. A session whose token was revoked ends here, at its next
/// request.
struct SessionMiddleware: RouterMiddleware {
    typealias Context = StrideRequestContext

    let sessions: Sessions
    let sites: ServedSites

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let cookie = request.cookies[DashboardSite.cookieName]?.value
        guard let cookie, let session = await sessions.session(id: cookie), let site = try await sites.site(ofSession: session) else {
            return Self.refuse(request, ended: cookie != nil)
        }
        let token = RunnerToken(presented: session.token)
        guard try await site.tokens.device(presenting: token) == session.device else {
            await sessions.close(id: session.id)
            return Self.refuse(request, ended: true)
        }
        var context = context
        context.site = site
        context.credential = Credential(token: token.token, device: session.device)
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
