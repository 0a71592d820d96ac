/// How `stride serve` listens and what it accepts.
public struct ServerSettings: Sendable {
    /// The address to listen on: loopback unless told otherwise.
    public var host: String
    /// The port (0 asks the system for a free one).
    public var port: Int
    /// The largest body `POST /v1/ingest` takes: a Health app export of several GB is normal.
    public var maxIngestBytes: Int
    /// The largest body of a Health Auto Export push: a day of a watch's data is a few MB, a
    /// manual export of months some hundreds.
    public var maxPushBytes: Int
    /// The largest body of an action (a shoe, a journal entry…).
    public var maxActionBytes: Int
    /// Seconds a connection may stay silent before it is closed (a client that stopped sending).
    public var idleTimeoutSeconds: Int
    /// The slowest an upload may arrive, in bytes per second, once its first
    /// ``uploadGraceSeconds`` are over: a client that drips a body to hold a connection is cut off.
    public var minimumUploadBytesPerSecond: Int
    /// How long an upload may take before its rate is held to the minimum.
    public var uploadGraceSeconds: Int
    /// How many event streams (`GET /v1/events`) may be open at once.
    public var maxEventStreams: Int
    /// On a shared server, how many of them one runner may hold: so that one runner's streams
    /// leave places for another's.
    public var eventStreamsPerRunner: Int = 16
    /// Sign-ins to the dashboard taken in a minute from one address, and for one runner; more
    /// are 429.
    public var signInsPerMinute: Int = 20
    /// Threads for work that grows with the ledger or the body (ingests, pushes, replays,
    /// pages as recorded), apart from those that check tokens and answer reads.
    public var heavyWorkers: Int
    /// How many such requests are admitted at once, running or waiting; more are 503.
    public var heavyAdmitted: Int
    /// On a shared server, how many of them one runner may have admitted at once: so that
    /// one runner's uploads and replays leave places for another's.
    public var heavyPerRunner: Int = 2
    /// Addresses of reverse proxies whose `Forwarded`, `X-Forwarded-Proto` and
    /// `X-Forwarded-Host` are believed (`stride serve --trust-proxy`); from anyone else they
    /// are ignored.
    public var trustedProxies: Set<String> = []
    /// The origin browsers reach the server at through a proxy (`--public-url`), such as
    /// `https://stride.example.org`: forms from it are taken, and its cookies are `Secure`
    /// when it is https, whatever `Host` the proxy sends.
    public var publicURL: String?
    /// The token `GET /metrics` takes (`--metrics-token-file`), never a device's; without one,
    /// `/metrics` is 404.
    public var metricsToken: String?

    /// The defaults: loopback, port 8080, 16 GB ingests, 512 MB pushes, 1 MB actions.
    public init(
        host: String = "127.0.0.1", port: Int = 8080, maxIngestBytes: Int = 16 << 30, maxPushBytes: Int = 512 << 20,
        maxActionBytes: Int = 1 << 20, idleTimeoutSeconds: Int = 60, minimumUploadBytesPerSecond: Int = 16 << 10,
        uploadGraceSeconds: Int = 60, maxEventStreams: Int = 64, heavyWorkers: Int = 2, heavyAdmitted: Int = 4
    ) {
        self.host = host
        self.port = port
        self.maxIngestBytes = maxIngestBytes
        self.maxPushBytes = maxPushBytes
        self.maxActionBytes = maxActionBytes
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.minimumUploadBytesPerSecond = minimumUploadBytesPerSecond
        self.uploadGraceSeconds = uploadGraceSeconds
        self.maxEventStreams = maxEventStreams
        self.heavyWorkers = heavyWorkers
        self.heavyAdmitted = heavyAdmitted
    }

    /// A `--public-url` as an origin (`https://stride.example.org`), or nil when it is not an
    /// http or https address without a path.
    public static func publicOrigin(of text: String) -> String? {
        RequestOrigin.origin(ofPublicURL: text)
    }
}
