import Hummingbird
import StrideEvents

/// `GET /metrics`: the server's figures in Prometheus' text format, for a scraper holding the
/// metrics token (`stride serve --metrics-token-file`) — a token of its own, never a device's,
/// so a monitoring host reads no health data and a phone reads no metrics. Without the option
/// the route does not exist (404).
///
/// It lies outside both groups, so neither ``TokenMiddleware`` (the `/v1` group's) nor
/// ``SessionMiddleware`` (the pages') sees it: this check is its only guard.
struct MetricsEndpoint: Sendable {
    /// The route's path.
    static let path = "/metrics"
    /// Prometheus' text exposition format.
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"
    /// The answer to a missing or wrong metrics token.
    static let unauthorized = APIError(
        .unauthorized, "the metrics token is required: send Authorization: Bearer with the token in the file given to --metrics-token-file",
        headers: [.wwwAuthenticate: "Bearer realm=\"metrics\""])

    let metrics: ServerMetrics
    /// The token a scraper must send; nil when metrics are not served.
    let token: String?
    /// The ledgers served, as they are now (read on a ledger worker).
    let ledgers: @Sendable () async throws -> [LedgerFigures]

    /// Adds the route to `router`; without a token it answers 404, as a path that does not
    /// exist (and is not sent to the sign-in page).
    func register(on router: Router<StrideRequestContext>) {
        guard let token else {
            router.get(RouterPath(Self.path)) { _, _ -> Response in throw APIError(.notFound, "no such route") }
            return
        }
        // Compared as hashes, in constant time, as device tokens are.
        let expected = AccessTokenHash(of: token)
        router.get(RouterPath(Self.path)) { request, _ in
            guard let sent = TokenMiddleware.bearerToken(request.headers[.authorization]), AccessTokenHash(of: sent) == expected else {
                throw Self.unauthorized
            }
            for figures in try await ledgers() { metrics.observe(figures) }
            return Response(
                status: .ok, headers: [.contentType: Self.contentType, .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(bytes: metrics.render())))
        }
    }
}
