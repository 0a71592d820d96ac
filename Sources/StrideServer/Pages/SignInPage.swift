import HTTPTypes
import Hummingbird
import StrideDashboard
import StrideLedger

/// The sign-in page and its form: a browser presents a device's token and gets a session
/// cookie for that device's ledger. On a shared server the token's runner name
/// (`marie.stride_…`) says whose ledger, and the session opens that one only.
struct SignInPage: Sendable {
    /// Who a presented token signs in: the runner (nil on a server of one ledger) and the
    /// device, or nil for a token that is not an active one.
    typealias Resolve = @Sendable (String) async throws -> (runner: String?, device: String)?

    let sessions: Sessions
    let resolve: Resolve
    /// Whether this server holds a runner's ledger (always, on a server of one ledger).
    let serves: @Sendable (String) -> Bool
    /// Proxies believed, and the public URL (``RequestOrigin``).
    let trustedProxies: Set<String>
    let publicURL: String?
    /// The sign-ins taken per address and per runner.
    let limiter: SignInLimiter
    /// Whether the server stands behind a proxy (one is believed, or a public URL is given):
    /// only then is a sign-in for a runner it does not hold sent on to the proxy's route.
    var isBehindProxy: Bool { !trustedProxies.isEmpty || publicURL != nil }

    /// The cookie that names the signed-in runner to a proxy in front of several servers
    /// (nginx's `$cookie_stride_runner`): a name, never a secret.
    static let runnerCookieName = "stride_runner"

    init(sessions: Sessions, settings: ServerSettings, serves: @escaping @Sendable (String) -> Bool = { _ in true }, resolve: @escaping Resolve) {
        self.sessions = sessions
        self.resolve = resolve
        self.serves = serves
        limiter = SignInLimiter(perMinute: settings.signInsPerMinute)
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
        let token = form["token"]?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        if let wait = limiter.take(address: context.peer, runner: RunnerToken(presented: token).runner) {
            let seconds = max(1, Int(wait.components.seconds) + 1)
            return HTMLAnswer.page(
                Dashboard.signIn(error: "Too many sign-ins from here or for this runner in the last minute; try again in \(seconds) s."),
                status: .tooManyRequests, headers: [.retryAfter: String(seconds)])
        }
        // Behind a proxy (`--trust-proxy`, `--public-url`) that routes runners to several servers, a sign-in that reached a server
        // without the runner's ledger is sent on, form and all (307 keeps the POST), to the
        // address the proxy routes by the runner's name. Only once: `?runner=` that names the
        // token's runner is answered here.
        if isBehindProxy, let runner = RunnerToken(presented: token).runner, !serves(runner),
            request.uri.queryParameters["runner"].map(String.init) != runner
        {
            return Response(
                status: .temporaryRedirect,
                headers: [.location: "\(DashboardSite.signInPath)?runner=\(runner)", .cacheControl: "no-store"])
        }
        guard !token.isEmpty, let signedIn = try await resolve(token) else {
            return HTMLAnswer.page(
                Dashboard.signIn(error: "That token is not an active one. Make one with `stride tokens add NAME` and paste it whole."),
                status: .unauthorized)
        }
        let session = await sessions.open(runner: signedIn.runner, device: signedIn.device, token: token)
        let cookie =
            "\(DashboardSite.cookieName)=\(session.id); Path=/; HttpOnly; SameSite=Strict; Max-Age=\(Int(sessions.lifetime.components.seconds))"
            + (origin.isSecure ? "; Secure" : "")
        var headers: HTTPFields = [.setCookie: cookie]
        if let runner = signedIn.runner {
            headers.append(
                HTTPField(
                    name: .setCookie,
                    value:
                        "\(Self.runnerCookieName)=\(runner); Path=/; HttpOnly; SameSite=Strict; Max-Age=\(Int(sessions.lifetime.components.seconds))"
                        + (origin.isSecure ? "; Secure" : "")))
        }
        return HTMLAnswer.seeOther("/", headers: headers)
    }
}
