import Hummingbird
import StrideDashboard

/// The sign-in page and its form: a browser presents a device's token and gets a session
/// cookie for that device's ledger. On a shared server the token's runner name
/// (`marie.stride_…`) says whose ledger, and the session opens that one only.
struct SignInPage: Sendable {
    /// Who a presented token signs in: the runner (nil on a server of one ledger) and the
    /// device, or nil for a token that is not an active one.
    typealias Resolve = @Sendable (String) async throws -> (runner: String?, device: String)?

    let sessions: Sessions
    let resolve: Resolve
    /// Proxies believed, and the public URL (``RequestOrigin``).
    let trustedProxies: Set<String>
    let publicURL: String?

    init(sessions: Sessions, settings: ServerSettings, resolve: @escaping Resolve) {
        self.sessions = sessions
        self.resolve = resolve
        trustedProxies = settings.trustedProxies
        publicURL = settings.publicURL
    }

    /// Adds the page and its form to `router`.
    func register(on router: Router<StrideRequestContext>) {
        router.get(RouterPath(DashboardSite.signInPath)) { request, _ in
            let ended = request.uri.queryParameters["ended"] != nil
            return HTMLAnswer.page(
                Dashboard.signIn(error: ended ? "Your session ended (signed out, idle too long, or its token revoked); sign in again." : nil))
        }
        router.post(RouterPath(DashboardSite.signInPath)) { request, context in try await signIn(request, context) }
    }

    /// Opens a session for an active token, or shows the form again with why not.
    private func signIn(_ request: Request, _ context: StrideRequestContext) async throws -> Response {
        let origin = RequestOrigin.of(request, context, trustedProxies: trustedProxies, publicURL: publicURL)
        try SameSite.check(request, from: origin)
        let form = try await FormFields.read(request)
        guard let token = form["token"]?.trimmingCharacters(in: .whitespacesAndNewlines), !token.isEmpty,
            let signedIn = try await resolve(token)
        else {
            return HTMLAnswer.page(
                Dashboard.signIn(error: "That token is not an active one. Make one with `stride tokens add NAME` and paste it whole."),
                status: .unauthorized)
        }
        let session = await sessions.open(runner: signedIn.runner, device: signedIn.device, token: token)
        let cookie =
            "\(DashboardSite.cookieName)=\(session.id); Path=/; HttpOnly; SameSite=Strict; Max-Age=\(Int(sessions.lifetime.components.seconds))"
            + (origin.isSecure ? "; Secure" : "")
        return HTMLAnswer.seeOther("/", headers: [.setCookie: cookie])
    }
}
