import Hummingbird
import Logging
import NIOCore
import StrideLedger

/// `stride serve`: the ledger over HTTP for the phone apps that feed it. Reads answer the
/// contract's documents, writes call the same ledger functions as the command line, and
/// every request must carry an active device token.
public struct StrideServer: Sendable {
    /// The device an active token names, or nil; the ledger's token check by default.
    public typealias Authenticator = @Sendable (Ledger, String) throws -> String?

    /// What the server serves: one ledger, or a folder of runners' ledgers.
    private enum Served: Sendable {
        case one(RunnerSite)
        case runners(Runners)
    }

    private let served: Served
    private let settings: ServerSettings
    private let lanes: WorkLanes
    private let logger: Logger
    /// The browsers signed in to the dashboard (of every runner, on a shared server).
    private let sessions: Sessions
    /// What `GET /metrics` tells (``MetricsEndpoint``).
    let metrics: ServerMetrics

    /// A server over `ledger`.
    /// - Throws: when the ledger's folder for uploads cannot be made.
    public init(
        ledger: Ledger, settings: ServerSettings = ServerSettings(), logger: Logger,
        authenticate: @escaping Authenticator = { ledger, token in try ledger.device(authenticating: token) }
    ) throws {
        let (lanes, sessions, metrics) = (Self.lanes(settings), Sessions(), ServerMetrics())
        let worker = LedgerWorker(ledger: ledger, lanes: lanes, heavyLimit: lanes.heavyLimit)
        let site = try RunnerSite(
            runner: nil, worker: worker, settings: settings, streams: Quota(limit: settings.maxEventStreams), sessions: sessions,
            authenticate: authenticate, requestLog: logger, signIn: true, metrics: .counted(metrics))
        self.init(served: .one(site), settings: settings, lanes: lanes, logger: logger, sessions: sessions, metrics: metrics)
    }

    /// A shared server over the runners' ledgers in `runners` (`stride serve --ledgers DIR`):
    /// a device's token opens its own runner's ledger only. Each ledger is opened at its
    /// runner's first request; they share the server's threads, and each may have at most
    /// ``ServerSettings/heavyPerRunner`` ingests, replays or pages as recorded admitted at once.
    public init(
        runners folder: RunnersFolder, settings: ServerSettings = ServerSettings(), logger: Logger, clock: any LedgerClock = SystemClock(),
        authenticate: @escaping Authenticator = { ledger, token in try ledger.device(authenticating: token) }
    ) {
        let (lanes, sessions, metrics) = (Self.lanes(settings), Sessions(), ServerMetrics())
        let streams = Quota(limit: settings.maxEventStreams)
        let runners = Runners(folder: folder, lanes: lanes, clock: clock) { name, ledger in
            let worker = LedgerWorker(ledger: ledger, lanes: lanes, heavyLimit: settings.heavyPerRunner)
            return try RunnerSite(
                runner: name, worker: worker, settings: settings, streams: streams, sessions: sessions, authenticate: authenticate,
                requestLog: nil, signIn: false, metrics: .noted, isServed: { folder.holdsLedger(of: name) })
        }
        self.init(served: .runners(runners), settings: settings, lanes: lanes, logger: logger, sessions: sessions, metrics: metrics)
    }

    private init(served: Served, settings: ServerSettings, lanes: WorkLanes, logger: Logger, sessions: Sessions, metrics: ServerMetrics) {
        self.metrics = metrics
        self.served = served
        self.settings = settings
        self.lanes = lanes
        self.logger = logger
        self.sessions = sessions
    }

    private static func lanes(_ settings: ServerSettings) -> WorkLanes {
        WorkLanes(heavyThreads: settings.heavyWorkers, heavyAdmitted: settings.heavyAdmitted)
    }

    /// The routes served, as method and path (the description lists exactly these); none
    /// before a shared server has opened a runner's ledger.
    var routes: [(method: HTTPRequest.Method, path: String)] {
        guard case .one(let site) = served else { return [] }
        return site.api.endpoints.map { ($0.method, $0.path) }
    }

    /// The responder behind the canonical path: the one ledger's site; or, on a shared server,
    /// the request log, the sign-in page and ``RunnerDispatch`` in front of the runners' sites.
    /// It reads the path as ``CanonicalPathResponder`` wrote it.
    func makeResponder() -> RouterResponder<StrideRequestContext> {
        switch served {
        case .one(let site):
            return site.responder
        case .runners(let runners):
            let router = Router(context: StrideRequestContext.self)
            router.add(middleware: MetricsMiddleware(metrics: metrics))
            router.add(middleware: RequestLogMiddleware(logger: logger))
            router.add(middleware: RunnerDispatch(runners: runners, sessions: sessions, logger: logger))
            // Every open runner's ledger is measured; one not opened since the start is not, nor
            // one that cannot be read now (its runner's requests say why).
            MetricsEndpoint(metrics: metrics, token: settings.metricsToken) { [lanes] in
                // All of them in one trip to a ledger thread.
                try await lanes.quick.runIfActive { runners.openSites.compactMap { try? LedgerFigures(of: $0.api.worker.ledger) } }
            }.register(on: router)
            SignInPage(sessions: sessions, settings: settings) { presented in
                let token = RunnerToken(presented: presented)
                guard let runner = token.runner, let site = try await runners.site(named: runner, presenting: token.token) else { return nil }
                return try await site.authenticate(presented).map { (runner: runner, device: $0) }
            }.register(on: router)
            return router.buildResponder()
        }
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
        try await makeApplication(onRunning: onRunning).runService(gracefulShutdownSignals: [.sigterm, .sigint])
        try await lanes.shutdown()
    }
}
