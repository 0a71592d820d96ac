import Hummingbird

/// Counts every request the router answers, under its route's template (`/v1/shoes/rename`,
/// never the raw path with its ids and query), its method and its status, with the time it
/// took; and lends the ingest-bytes counter to the upload it may carry (``ServerMetrics/uploadBytes``).
///
/// It is the router's first middleware, so it sees the answer the others made: a refusal a
/// guard or a handler threw has its status here, as the client gets it.
struct MetricsMiddleware: RouterMiddleware {
    typealias Context = StrideRequestContext

    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let began = ContinuousClock.now
        do {
            let response = try await ServerMetrics.$uploadBytes.withValue(metrics.ingestBytes) { try await next(request, context) }
            record(request, context, status: response.status.code, since: began)
            return response
        } catch {
            record(request, context, status: (error as? any HTTPResponseError)?.status.code ?? 500, since: began)
            throw error
        }
    }

    private func record(_ request: Request, _ context: Context, status: Int, since began: ContinuousClock.Instant) {
        // The router names a path it matched by its template (shared by every copy of the
        // context), before the groups' guards run; one no route names is "NotFound", or a
        // group's route for any other path (`/v1/**`).
        let route = context.endpointPath.flatMap { $0 == "NotFound" || $0.hasSuffix("/**") ? nil : $0 } ?? ServerMetrics.unmatchedRoute
        metrics.recordRequest(
            route: route, method: ServerMetrics.methodLabel(request.method.rawValue), status: status, duration: .now - began)
    }
}
