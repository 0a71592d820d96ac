import ArgumentParser
import Dispatch
import Foundation
import Logging
import StrideEvents
import StrideLedger
import StrideReplica
import StrideServer
import Synchronization

struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Serve the ledger over HTTP to the phone apps that feed it.",
        discussion: """
            Listens on loopback (127.0.0.1) unless --host says otherwise; to reach it from elsewhere, put a \
            reverse proxy with TLS in front (nginx, Caddy: see the README) and start it with --trust-proxy or \
            --public-url. Every API request needs \
            `Authorization: Bearer TOKEN` with a token from `stride tokens add NAME`. Logs one line per \
            request on standard error; Ctrl-C (or SIGTERM) stops accepting, lets what is being appended \
            finish, and exits. Other stride commands may run on the same ledger meanwhile.

            With --ledgers DIR (or $STRIDE_LEDGERS), it serves every runner whose ledger is a folder of DIR             (see `stride runners`): a device's token, printed as NAME.stride_…, opens its own runner's ledger only,             and the dashboard signs a runner in to their own. Ledgers open at their runner's first request; runners             added or removed while it runs are served, or not, at once.
            """)

    @OptionGroup var ledger: LedgerOptions

    @Option(name: .long, help: "Serve every runner's ledger in this folder (default: $STRIDE_LEDGERS, when --ledger is not given).")
    var ledgers: String?

    @Option(help: "The address to listen on; anything but loopback exposes the ledger to the network.")
    var host = "127.0.0.1"

    @Option(help: "The port (0: any free one).")
    var port = 8080

    @Option(help: "The largest upload POST /v1/ingest takes, in megabytes (Health app exports of several GB are normal).")
    var maxIngestMegabytes = 16 * 1024

    @Option(help: "The largest Health Auto Export push, in megabytes.")
    var maxPushMegabytes = 512

    @Option(help: "Seconds a silent connection stays open.")
    var idleTimeout = 60

    @Flag(
        help: ArgumentHelp(
            "Believe Forwarded, X-Forwarded-Proto and X-Forwarded-Host from a reverse proxy on this machine (127.0.0.1, ::1).",
            discussion: "From any other address they are ignored. Cookies are Secure when the proxy says https."))
    var trustProxy = false

    @Option(name: .customLong("proxy-address"), help: "The address of a reverse proxy on another machine to believe, as --trust-proxy (repeatable).")
    var proxyAddresses: [String] = []

    @Option(
        help: ArgumentHelp(
            "The address browsers reach the dashboard at through a proxy, such as https://stride.example.org.",
            discussion:
                "Forms from it are taken, and its cookies are Secure when it is https, whatever Host header the proxy sends (nginx's default sends its upstream's)."
        ))
    var publicURL: String?

    @Option(
        help: ArgumentHelp(
            "A file (mode 600) holding the token GET /metrics takes; without it /metrics is 404.",
            discussion: "Prometheus' text format: requests by route and status, latency, ingest bytes, ledger sizes; never a health figure."))
    var metricsTokenFile: String?

    @Option(
        help: ArgumentHelp(
            "Copy every runner's log to PostgreSQL as it is written, e.g. postgresql://stride@/stride?host=/run/postgresql (default: $STRIDE_REPLICA).",
            discussion:
                "In the background, in batches; the server keeps serving and appending while PostgreSQL cannot be reached, and catches up. Needs --ledgers."
        ))
    var replica: String?

    @Flag(help: "Answer a write (push, ingest, action) only once PostgreSQL holds its events; 503 after 10 s without.")
    var replicaAcknowledge = false

    @Option(
        help: ArgumentHelp(
            "Keep read-only copies of the runners' ledgers from PostgreSQL and answer their reads (a second machine).",
            discussion: "Writes are refused (421) until `stride runners promote NAME` makes this server a runner's writer. Needs --ledgers."))
    var follow: String?

    func validate() throws {
        if replica != nil, follow != nil {
            throw ValidationError("give --replica (this server writes and copies) or --follow (it keeps copies), not both")
        }
        if replicaAcknowledge, replica == nil, ProcessInfo.processInfo.environment[ReplicaOptions.environmentName] == nil {
            throw ValidationError("--replica-acknowledge needs --replica postgresql://…")
        }
        if ledgers != nil, ledger.isNamed {
            throw ValidationError("give --ledger (one ledger) or --ledgers (a folder of runners' ledgers), not both")
        }
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
        guard maxIngestMegabytes >= 1, maxPushMegabytes >= 1 else { throw ValidationError("the body limits must be at least 1 megabyte") }
        guard idleTimeout >= 1 else { throw ValidationError("--idle-timeout must be at least 1 second") }
        guard !host.isEmpty else { throw ValidationError("--host must name an address, such as 127.0.0.1") }
        if let publicURL, ServerSettings.publicOrigin(of: publicURL) == nil {
            throw ValidationError(
                "--public-url \"\(publicURL.shownInMessage)\" is not an http or https address without a path, such as https://stride.example.org")
        }
    }

    /// The folder of runners' ledgers to serve: --ledgers, else `STRIDE_LEDGERS` unless a
    /// ledger is named.
    private var runnersFolder: RunnersFolder? {
        if ledgers == nil, ledger.isNamed { return nil }
        return RunnersFolderOptions.path(ledgers).map(RunnersFolder.init(path:))
    }

    func run() throws {
        let metricsToken = try metricsTokenFile.map(MetricsToken.read(fromFile:))
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .info
            return handler
        }
        var settings = ServerSettings(
            host: host, port: port, maxIngestBytes: maxIngestMegabytes << 20, maxPushBytes: maxPushMegabytes << 20,
            idleTimeoutSeconds: idleTimeout)
        settings.trustedProxies = Set(proxyAddresses + (trustProxy ? ["127.0.0.1", "::1"] : []))
        settings.publicURL = publicURL.flatMap(ServerSettings.publicOrigin(of:))
        settings.metricsToken = metricsToken
        let logger = Logger(label: "stride.serve")
        let server: StrideServer
        var path: String
        let copy =
            try follow.map { (try ReplicaAddress($0), Replication.Mode.follow) }
            ?? ReplicaOptions.address(replica, orEnvironment: !ledger.isNamed).map { ($0, Replication.Mode.replica) }
        if let folder = runnersFolder {
            try folder.prepare()
            let names = try folder.names()
            if let (address, mode) = copy {
                let (clock, acknowledge, settings) = (LedgerOptions.clock, replicaAcknowledge, settings)
                server = try Waiting.on {
                    try await StrideServer.replicated(
                        runners: folder, replica: address, mode: mode, acknowledge: acknowledge, settings: settings, logger: logger, clock: clock)
                }
            } else {
                server = StrideServer(runners: folder, settings: settings, logger: logger, clock: LedgerOptions.clock)
            }
            path = "the \(names.count) runner\(names.count == 1 ? "" : "s") of \(folder.path)"
            if let (address, mode) = copy {
                path +=
                    mode == .follow
                    ? ", following \(address)" : ", copied to \(address)\(replicaAcknowledge ? " (writes acknowledged once copied)" : "")"
            }
        } else {
            if copy != nil { throw ValidationError("--replica and --follow copy a folder of runners' ledgers: serve it with --ledgers DIR") }
            let opened = try ledger.openExisting()
            server = try StrideServer(ledger: opened, settings: settings, logger: logger)
            path = opened.path
        }
        let isLoopback = ["127.0.0.1", "::1", "localhost"].contains(host)
        let served = path
        let outcome = Mutex<(any Error)?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Task {
            do {
                try await server.run { address in
                    Console.print("Serving \(served) at http://\(address) — stop with Ctrl-C.")
                    if !isLoopback {
                        Console.note(
                            "stride: note: listening beyond this machine; every request still needs a token — put TLS in front (a reverse proxy).")
                    }
                }
            } catch {
                outcome.withLock { $0 = error }
            }
            finished.signal()
        }
        finished.wait()
        if let error = outcome.withLock({ $0 }) {
            throw CommandFailure("the server could not run on \(host):\(port): \(error); choose another --port, or stop what uses it")
        }
        Console.note("Stopped serving \(path).")
    }
}
