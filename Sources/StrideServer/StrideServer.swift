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

    private let api: StrideAPI
    private let authenticate: Authenticator
    private let logger: Logger
    /// The browsers signed in to the dashboard.
    private let sessions: Sessions
    /// What `GET /metrics` tells (``MetricsEndpoint``).
    let metrics = ServerMetrics()

    /// A server over `ledger`.
    /// - Throws: when the ledger's folder for uploads cannot be made.
    public init(
        ledger: Ledger, settings: ServerSettings = ServerSettings(), logger: Logger,
        authenticate: @escaping Authenticator = { ledger, token in try ledger.device(authenticating: token) }
    ) throws {
        api = try StrideAPI(
            worker: LedgerWorker(ledger: ledger, heavyThreads: settings.heavyWorkers, heavyAdmitted: settings.heavyAdmitted), settings: settings)
        self.authenticate = authenticate
        self.logger = logger
        sessions = Sessions()
    }

    /// The routes served, as method and path (the description lists exactly these).
    var routes: [(method: HTTPRequest.Method, path: String)] { api.endpoints.map { ($0.method, $0.path) } }

    /// The router: the request log around everything, then the token check for the API (under
    /// `/v1`) and the session check for the dashboard's pages, then the endpoints and pages. An
    /// unknown API path answers 401 to a client without a token, 404 after; an unknown page
    /// sends a browser without a session to the sign-in page. It reads the path as
    /// ``CanonicalPathResponder`` wrote it. ``MetricsMiddleware`` is outside even the log, so it
    /// counts every answer as sent; `/metrics` checks a token of its own (``MetricsEndpoint``).
    func makeRouter() -> Router<StrideRequestContext> {
        let router = Router(context: StrideRequestContext.self)
        router.add(middleware: MetricsMiddleware(metrics: metrics))
        router.add(middleware: RequestLogMiddleware(logger: logger))
        let (worker, authenticate) = (api.worker, self.authenticate)
        let check: @Sendable (String) async throws -> String? = { token in try await worker.run { try authenticate($0, token) } }
        router.add(middleware: AccessMiddleware(authenticate: check))
        router.add(middleware: PageAccessMiddleware(sessions: sessions, authenticate: check))
        for endpoint in api.endpoints {
            router.on(RouterPath(endpoint.path), method: endpoint.method) { request, context in
                try await endpoint.handler(request, context)
            }
        }
        DashboardSite(api: api, sessions: sessions, authenticate: check).register(on: router)
        MetricsEndpoint(metrics: metrics, token: api.settings.metricsToken) { [worker] in [try await worker.run { try LedgerFigures(of: $0) }] }
            .register(on: router)
        return router
    }

    /// The application, listening where the settings say; `onRunning` is told the address.
    public func makeApplication(onRunning: @escaping @Sendable (String) async -> Void = { _ in }) -> some ApplicationProtocol {
        let settings = api.settings
        return Application(
            responder: CanonicalPathResponder(inner: makeRouter().buildResponder(), logger: logger),
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
        try await api.worker.shutdown()
    }
}
