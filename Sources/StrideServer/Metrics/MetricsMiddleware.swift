import Hummingbird

/// Counts every request the router answers, under its route's template (`/v1/shoes/rename`,
/// never the raw path with its ids and query), its method and its status, with the time it
/// took; and counts the bytes of upload bodies as they are read.
///
/// It is the router's first middleware, so it sees the answer the others made: a refusal a
/// guard or a handler threw has its status here, as the client gets it.
struct MetricsMiddleware: RouterMiddleware {
    typealias Context = StrideRequestContext

    let metrics: ServerMetrics
    /// The route templates whose bodies are uploads (ingests and pushes).
    let uploadRoutes: Set<String>

    /// Counts for `metrics`; the bodies of `endpoints` that take uploads are counted as ingest bytes.
    init(metrics: ServerMetrics, countingBodiesOf endpoints: [Endpoint]) {
        self.metrics = metrics
        uploadRoutes = Set(
            endpoints.compactMap { endpoint in
                if case .upload = endpoint.body { return endpoint.path }
                return nil
            })
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let began = ContinuousClock.now
        var request = request
        if let route = context.endpointPath, uploadRoutes.contains(route) {
            let counter = metrics.ingestBytes
            request.body = RequestBody(
                asyncSequence: request.body.map { chunk in
                    counter.increment(by: Int64(chunk.readableBytes))
                    return chunk
                })
        }
        do {
            let response = try await next(request, context)
            record(request, context, status: response.status.code, since: began)
            return response
        } catch {
            record(request, context, status: (error as? any HTTPResponseError)?.status.code ?? 500, since: began)
            throw error
        }
    }

    private func record(_ request: Request, _ context: Context, status: Int, since began: ContinuousClock.Instant) {
        // The router names a path it matched by its template before any middleware runs; one it
        // did not match is "NotFound", or has no name when a guard refused it first.
        let route = context.endpointPath.flatMap { $0 == "NotFound" ? nil : $0 } ?? ServerMetrics.unmatchedRoute
        metrics.recordRequest(
            route: route, method: ServerMetrics.methodLabel(request.method.rawValue), status: status, duration: .now - began)
    }
}
