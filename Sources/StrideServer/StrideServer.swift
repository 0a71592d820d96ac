import Hummingbird
import Logging
import NIOCore
import StrideLedger
import StrideReplica

/// `stride serve`: the ledger over HTTP for the phone apps that feed it. Reads answer the
/// contract's documents, writes call the same ledger functions as the command line, and
/// every request must carry an active device token.
public struct StrideServer: Sendable {
    let sites: ServedSites
    private let settings: ServerSettings
    private let lanes: WorkLanes
    private let logger: Logger
    /// The browsers signed in to the dashboard (of every runner, on a shared server).
    private let sessions: Sessions
    /// What `GET /metrics` tells (``MetricsEndpoint``).
    let metrics: ServerMetrics
    /// The copy of the runners' logs in PostgreSQL, on a shared server with `--replica` or
    /// `--follow`.
    public private(set) var replication: Replication?
    /// Whether a write is answered only once PostgreSQL holds its events (`--replica-acknowledge`).
    private var acknowledge = false

    /// A server over `ledger`.
    /// - Throws: when the ledger's folder for uploads, or its token gate, cannot be written.
    public init(ledger: Ledger, settings: ServerSettings = ServerSettings(), logger: Logger) throws {
        let (lanes, sessions) = (Self.lanes(settings), Sessions())
        // A ledger an earlier Stride wrote gets its gate now: the token check reads it.
        try ledger.writeTokenGate()
        // One ledger: its work may take every thread of the lane.
        let worker = LedgerWorker(
            ledger: ledger, name: "the ledger at \(ledger.path)", lanes: lanes, heavyLimit: lanes.heavyLimit,
            heavyThreads: lanes.heavyThreads, reports: DamageReports(logger: logger))
        let site = try RunnerSite(
            runner: nil, worker: worker, settings: settings, streams: Quota(limit: settings.maxEventStreams), sessions: sessions)
        self.init(sites: ServedSites(served: .one(site)), settings: settings, lanes: lanes, logger: logger, sessions: sessions)
    }

    /// A shared server over the runners' ledgers in `runners` (`stride serve --ledgers DIR`):
    /// a device's token opens its own runner's ledger only. Each ledger is opened at its
    /// runner's first request; they share the server's threads, and each may have at most
    /// ``ServerSettings/heavyPerRunner`` ingests, replays or reads as recorded admitted at once,
    /// running on all the heavy lane's threads but one (``WorkLanes/heavyThreadsPerRunner``).
    public init(runners folder: RunnersFolder, settings: ServerSettings = ServerSettings(), logger: Logger, clock: any LedgerClock = SystemClock()) {
        let (lanes, sessions) = (Self.lanes(settings), Sessions())
        let streams = Quota(limit: settings.maxEventStreams)
        let reports = DamageReports(logger: logger)
        let runners = Runners(folder: folder, lanes: lanes, clock: clock, reports: reports) { name, ledger in
            let worker = LedgerWorker(
                ledger: ledger, name: Runners.logName(of: name), lanes: lanes, heavyLimit: settings.heavyPerRunner,
                heavyThreads: lanes.heavyThreadsPerRunner, reports: reports)
            return try RunnerSite(
                runner: name, worker: worker, settings: settings, streams: streams, sessions: sessions,
                isServed: { folder.holdsLedger(of: name) })
        }
        self.init(
            sites: ServedSites(served: .runners(runners)), settings: settings, lanes: lanes, logger: logger, sessions: sessions)
    }

    /// A shared server whose runners' logs are copied to PostgreSQL (`--replica`), or kept
    /// from it (`--follow`): the copy connects and checks its tables now.
    /// - Throws: ``ReplicaError`` — wrong credentials, a table of another shape, or (at the
    ///   start only) an unreachable server.
    public static func replicated(
        runners folder: RunnersFolder, replica address: ReplicaAddress, mode: Replication.Mode, acknowledge: Bool,
        settings: ServerSettings = ServerSettings(), logger: Logger, clock: any LedgerClock = SystemClock()
    ) async throws -> StrideServer {
        var server = StrideServer(runners: folder, settings: settings, logger: logger, clock: clock)
        guard case .runners(let runners) = server.sites.served else { return server }
        server.replication = try await Replication(
            address: address, mode: mode, me: try ServerName.of(folder), folder: folder, logger: logger
        ) { name in try await runners.site(named: name, presenting: nil)?.api.worker.ledger }
        server.acknowledge = acknowledge
        return server
    }

    private init(sites: ServedSites, settings: ServerSettings, lanes: WorkLanes, logger: Logger, sessions: Sessions) {
        self.metrics = ServerMetrics()
        self.sites = sites
        self.settings = settings
        self.lanes = lanes
        self.logger = logger
        self.sessions = sessions
    }

    private static func lanes(_ settings: ServerSettings) -> WorkLanes {
        WorkLanes(heavyThreads: settings.heavyWorkers, heavyAdmitted: settings.heavyAdmitted)
    }

    /// The routes served, as method and path (the description lists exactly these).
    var routes: [(method: HTTPRequest.Method, path: String)] {
        StrideAPI.endpoints.map { ($0.method, $0.path) }
    }

    /// The route of the paths a group has no route for: its guard answers them first.
    static let anyOtherPath: RouterPath = "**"

    /// The server's one router, read as the path ``CanonicalPathResponder`` wrote it:
    ///
    /// - in front of every route, the metrics, the request log and the refusals (every error
    ///   becomes its status and sentence in ``RefusalMiddleware``, one place);
    /// - `/metrics` (its own token) and the sign-in page, outside both groups;
    /// - the API under `/v1`, behind ``TokenMiddleware``;
    /// - the dashboard's pages and forms, behind ``SessionMiddleware``.
    ///
    /// Each guard finds the request's runner once (on a shared server, by its token or its
    /// session) and puts its site into the context; one route table serves every runner.
    func makeResponder() -> RouterResponder<StrideRequestContext> {
        let (sites, lanes) = (sites, lanes)
        let router = Router(context: StrideRequestContext.self)
        router.add(middleware: MetricsMiddleware(metrics: metrics))
        router.add(middleware: RequestLogMiddleware(logger: logger))
        router.add(middleware: RefusalMiddleware(logger: logger))
        // Every open runner's ledger is measured, all in one trip to a ledger thread; on a
        // shared server, one not opened since the start is not, nor one that cannot be read now
        // (its runner's requests say why).
        let replication = replication
        MetricsEndpoint(metrics: metrics, token: settings.metricsToken) {
            if let replication { metrics.observe(replication.status) }
            return try await lanes.quick.runIfActive { try sites.figures() }
        }.register(on: router)
        SignInPage(sessions: sessions, settings: settings, serves: { sites.serves(runner: $0) }) { presented in
            let token = RunnerToken(presented: presented)
            guard let site = try await sites.site(presenting: token), let device = try await site.tokens.device(presenting: token) else {
                return nil
            }
            return (runner: site.runner, device: device)
        }.register(on: router)

        let api = router.group("v1").add(middleware: TokenMiddleware(sites: sites))
        if let replication { api.add(middleware: ReplicaMiddleware(replication: replication, acknowledge: acknowledge)) }
        for endpoint in StrideAPI.endpoints {
            api.on(RouterPath(String(endpoint.path.dropFirst("/v1/".count))), method: endpoint.method) { request, context in
                var context = context
                context.lane = endpoint.lane(of: request)
                return try await endpoint.handler(try context.runnerSite().api, request, context)
            }
        }
        // Any other path is a group's too: under /v1 a client without a token learns nothing of
        // which routes exist (401), and a browser without a session is sent to sign in.
        for method in [HTTPRequest.Method.get, .post, .put, .delete, .patch] {
            api.on(Self.anyOtherPath, method: method) { _, _ -> Response in throw APIError(.notFound, "no such route") }
        }
        let pages = router.group().add(middleware: SessionMiddleware(sessions: sessions, sites: sites))
        if let replication { pages.add(middleware: ReplicaMiddleware(replication: replication, acknowledge: acknowledge, guardsPages: true)) }
        DashboardSite.register(on: pages)
        for method in [HTTPRequest.Method.get, .post] {
            pages.on(Self.anyOtherPath, method: method) { _, _ -> Response in throw APIError(.notFound, "no such page") }
        }
        return router.buildResponder()
    }

    /// The application, listening where the settings say; `onRunning` is told the address.
    public func makeApplication(onRunning: @escaping @Sendable (String) async -> Void = { _ in }) -> some ApplicationProtocol {
        let settings = settings
        return Application(
            responder: CanonicalPathResponder(inner: makeResponder(), logger: logger),
            server: .http1(configuration: .init(idleTimeout: .seconds(Int64(settings.idleTimeoutSeconds)))),
            configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "Stride"),
            onServerRunning: { channel in
                let address = channel.localAddress.map { "\(settings.host):\($0.port ?? settings.port)" } ?? "\(settings.host):\(settings.port)"
                await onRunning(address)
            },
            logger: logger)
    }

    /// Serves until SIGINT or SIGTERM, then stops accepting, lets what is in flight finish
    /// (an append completes or never happened) and returns.
    /// - Throws: when the address cannot be bound.
    public func run(onRunning: @escaping @Sendable (String) async -> Void) async throws {
        let copying = replication.map { replication in Task { await replication.run() } }
        defer { copying?.cancel() }
        try await makeApplication(onRunning: onRunning).runService(gracefulShutdownSignals: [.sigterm, .sigint])
        // What was appended before the stop is copied before the server returns, if it can be.
        if let replication, let copying {
            replication.nudge()
            try? await Task.sleep(for: .milliseconds(300))
            copying.cancel()
            await copying.value
        }
        try await lanes.shutdown()
    }
}
