import Prometheus
import StrideReplica
import Synchronization

/// The server's own figures, for `GET /metrics` in Prometheus' text format: requests by route
/// and status, how long they took, the bytes ingests received, and each ledger's events and
/// size on disk.
///
/// Never a health figure: every label is a route template, a method, a status or a ledger's
/// folder name, and every value a count, a duration or a size — nothing read from a body or
/// from what the ledger holds. Each server keeps a registry of its own (no process-wide
/// `MetricsSystem.bootstrap`), so several servers in one process, as in the tests, each count
/// their own requests.
final class ServerMetrics: Sendable {
    /// Where the figures are kept, and what renders them.
    let registry = PrometheusCollectorRegistry()
    /// The bytes of ingest and push bodies received, whether or not the ingest went through.
    let ingestBytes: Counter
    /// Each ledger's last sequence when it was last looked at, by runner: the events counter
    /// grows by the difference.
    private let lastSequences = Mutex<[String: UInt64]>([:])
    /// The counter and latency histogram of each route, method and status answered so far,
    /// made once: making them asks the registry (its lock, its checks of names and labels)
    /// every time. Bounded: routes are templates, methods a few names, statuses three digits.
    private let requestFigures = Mutex<[RequestKind: (count: Counter, latency: DurationHistogram)]>([:])

    /// A route, method and status: the labels a request is counted under.
    private struct RequestKind: Hashable {
        var route: String
        var method: String
        var status: Int
    }

    /// The ingest-bytes counter of the server answering the request in this task, lent by
    /// ``MetricsMiddleware``: ``Upload/save(_:into:limit:minimumRate:grace:)`` counts each chunk
    /// into it as it is written. A task-local rather than a wrapped request body: a body wrapped
    /// in a middleware loses the channel Hummingbird drains when a client goes away, and the
    /// heavy lane's admission was then freed late (FairnessTests failed one run in three).
    @TaskLocal static var uploadBytes: Counter?

    /// The route label of a request that matched no route: a raw path would carry ids and
    /// grow without end.
    static let unmatchedRoute = "unmatched"

    /// Latency buckets, in seconds: from a token check's millisecond to a Health app export's
    /// minutes.
    static let latencyBuckets: [Duration] = [
        .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
        .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
        .seconds(30), .seconds(60), .seconds(300),
    ]

    // The names and help of the families; a descriptor is not Sendable, so each is made where it is used.
    private static var requests: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "stride", subsystem: "http", metricName: "requests", unitName: "total",
            helpText: "HTTP requests answered, by route template, method and status.")
    }

    private static var duration: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "stride", subsystem: "http", metricName: "request_duration", unitName: "seconds",
            helpText: "Time from a request's arrival to its answer's head (a stream's start), by route template and method.")
    }

    private static var ingest: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "stride", subsystem: "ingest", metricName: "received", unitName: "bytes_total",
            helpText: "Bytes of POST /v1/ingest and /v1/health-auto-export bodies received.")
    }

    private static var events: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "stride", subsystem: "ledger", metricName: "events_appended", unitName: "total",
            helpText: "Events appended to the ledger's log (its last sequence), by this server or the stride command beside it.")
    }

    private static var size: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "stride", subsystem: "ledger", metricName: "size", unitName: "bytes",
            helpText: "Bytes on disk of the ledger's data file (data.mdb).")
    }

    init() {
        ingestBytes = registry.makeCounter(descriptor: Self.ingest, labels: [])
    }

    /// Counts a request answered with `status` after `duration`, under its route's template.
    func recordRequest(route: String, method: String, status: Int, duration: Duration) {
        let kind = RequestKind(route: route, method: method, status: status)
        let figures = requestFigures.withLock { made in
            if let figures = made[kind] { return figures }
            let figures = (
                count: registry.makeCounter(
                    descriptor: Self.requests, labels: [("route", route), ("method", method), ("status", String(status))]),
                latency: registry.makeDurationHistogram(
                    descriptor: Self.duration, labels: [("route", route), ("method", method)], buckets: Self.latencyBuckets)
            )
            made[kind] = figures
            return figures
        }
        figures.count.increment()
        figures.latency.record(duration)
    }

    /// Notes what a ledger looks like now: its events counter grows to its last sequence, and
    /// its size is set.
    func observe(_ figures: LedgerFigures) {
        let labels = [("runner", figures.runner)]
        let grown = lastSequences.withLock { seen -> UInt64 in
            let before = seen[figures.runner] ?? 0
            // A log only grows; after a ledger put back from a backup, the count goes on from there.
            seen[figures.runner] = figures.lastSequence
            return figures.lastSequence > before ? figures.lastSequence - before : 0
        }
        let counter = registry.makeCounter(descriptor: Self.events, labels: labels)
        if grown > 0 { counter.increment(by: Int64(clamping: grown)) }
        registry.makeGauge(descriptor: Self.size, labels: labels).set(Double(figures.dataFileBytes))
    }

    /// The copy in PostgreSQL as it stands (`--replica`, `--follow`): whether PostgreSQL
    /// answers, and for each runner the events one side lacks and what this server does.
    func observe(_ status: Replication.Status) {
        registry.makeGauge(descriptor: Self.replicaReachable).set(Double(status.isReachable ? 1 : 0))
        for (runner, copy) in status.runners {
            registry.makeGauge(descriptor: Self.replicaLag, labels: [("runner", runner)]).set(Double(copy.lag))
            for role in ["writer", "follower", "cut_off"] {
                registry.makeGauge(descriptor: Self.replicaRole, labels: [("runner", runner), ("role", role)]).set(
                    Double(copy.roleLabel == role ? 1 : 0))
            }
        }
    }

    private static var replicaReachable: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "stride", subsystem: "replica", metricName: "reachable",
            helpText: "1 when PostgreSQL answered the copy's last question, 0 while it cannot be reached (the server goes on appending).")
    }

    private static var replicaLag: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "stride", subsystem: "replica", metricName: "lag", unitName: "events",
            helpText: "Events of the runner's log not yet copied to PostgreSQL (a writer) or not yet brought in from it (a follower).")
    }

    private static var replicaRole: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "stride", subsystem: "replica", metricName: "role",
            helpText: "1 for what this server does for the runner: writer, follower, or cut_off (another server writes the log; this one stopped).")
    }

    /// The figures in Prometheus' text exposition format, version 0.0.4.
    func render() -> [UInt8] {
        registry.emitToBuffer()
    }

    /// The method as a label: the standard ones by name, any other as `other` (a client may
    /// send any token as a method).
    static func methodLabel(_ method: String) -> String {
        ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"].contains(method) ? method : "other"
    }
}
