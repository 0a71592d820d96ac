import Hummingbird
import Logging
import StrideLedger

/// Everything a server answers for one ledger: the API, the dashboard's pages and forms, and
/// the guards in front of them, as one responder. A server of one ledger has one site; a
/// shared server has one per runner, opened at the runner's first request (``Runners``).
struct RunnerSite: Sendable {
    /// The runner, on a shared server; nil on a server of one ledger.
    let runner: String?
    let api: StrideAPI
    /// The device a presented token names in this ledger, or nil.
    let authenticate: @Sendable (String) async throws -> String?
    let responder: RouterResponder<StrideRequestContext>

    /// The site of `worker`'s ledger. `authenticate` checks a device's token in the ledger
    /// (the token after a runner's name, ``RunnerToken``); `signIn` adds the sign-in page, which
    /// a shared server keeps in front of its sites instead, with the request log. `isServed`
    /// says whether the runner is still served (not removed): every token check asks it first.
    init(
        runner: String?, worker: LedgerWorker, settings: ServerSettings, streams: Quota, sessions: Sessions,
        authenticate: @escaping StrideServer.Authenticator, requestLog: Logger?, signIn: Bool, metrics: SiteMetrics,
        isServed: @escaping @Sendable () -> Bool = { true }
    ) throws {
        self.runner = runner
        api = try StrideAPI(
            worker: worker, settings: settings, streams: streams,
            streamShare: runner == nil ? settings.maxEventStreams : settings.eventStreamsPerRunner)
        // A token names this ledger's runner, or no runner; on a server of one ledger, a name
        // must be the ledger folder's (a runner's ledger served alone).
        let owner = runner ?? RunnersFolder.runner(ofLedgerAt: worker.ledger.path)?.name
        let check: @Sendable (String) async throws -> String? = { presented in
            guard isServed() else { return nil }
            let parsed = RunnerToken(presented: presented)
            if let named = parsed.runner, named != owner { return nil }
            return try await worker.run { try authenticate($0, parsed.token) }
        }
        self.authenticate = check
        let router = Router(context: StrideRequestContext.self)
        switch metrics {
        case .counted(let metrics): router.add(middleware: MetricsMiddleware(metrics: metrics))
        case .noted: router.add(middleware: RouteNoteMiddleware())
        }
        if let requestLog { router.add(middleware: RequestLogMiddleware(logger: requestLog)) }
        router.add(middleware: AccessMiddleware(authenticate: check))
        router.add(middleware: PageAccessMiddleware(sessions: sessions, runner: runner, authenticate: check))
        for endpoint in api.endpoints {
            router.on(RouterPath(endpoint.path), method: endpoint.method) { request, context in
                try await endpoint.handler(request, context)
            }
        }
        DashboardSite(api: api, sessions: sessions).register(on: router)
        if signIn {
            SignInPage(sessions: sessions, settings: settings) { token in
                try await check(token).map { (runner: runner, device: $0) }
            }.register(on: router)
        }
        if case .counted(let metrics) = metrics {
            MetricsEndpoint(metrics: metrics, token: settings.metricsToken) { [worker] in [try await worker.run { try LedgerFigures(of: $0) }] }
                .register(on: router)
        }
        responder = router.buildResponder()
    }
}

/// How a site takes part in `GET /metrics`.
enum SiteMetrics {
    /// The server's one site counts its requests and serves `/metrics` itself.
    case counted(ServerMetrics)
    /// A runner's site notes the route it matched for the shared server in front of it.
    case noted
}
