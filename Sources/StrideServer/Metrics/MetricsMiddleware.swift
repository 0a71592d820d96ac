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
        let note = RouteNote()
        do {
            let response = try await ServerMetrics.$routeNote.withValue(note) {
                try await ServerMetrics.$uploadBytes.withValue(metrics.ingestBytes) { try await next(request, context) }
            }
            record(request, context, note, status: response.status.code, since: began)
            return response
        } catch {
            record(request, context, note, status: (error as? any HTTPResponseError)?.status.code ?? 500, since: began)
            throw error
        }
    }

    private func record(_ request: Request, _ context: Context, _ note: RouteNote, status: Int, since began: ContinuousClock.Instant) {
        // The router names a path it matched by its template before any middleware runs; one it
        // did not match is "NotFound", or has no name when a guard refused it first. On a shared
        // server the runner's site matched it and noted it.
        let matched = context.endpointPath ?? note.route.withLock { $0 }
        let route = matched.flatMap { $0 == "NotFound" ? nil : $0 } ?? ServerMetrics.unmatchedRoute
        metrics.recordRequest(
            route: route, method: ServerMetrics.methodLabel(request.method.rawValue), status: status, duration: .now - began)
    }
}

/// Notes the route a runner's site matched (``ServerMetrics/routeNote``).
struct RouteNoteMiddleware: RouterMiddleware {
    typealias Context = StrideRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let note = ServerMetrics.routeNote, let route = context.endpointPath { note.route.withLock { $0 = route } }
        return try await next(request, context)
    }
}
