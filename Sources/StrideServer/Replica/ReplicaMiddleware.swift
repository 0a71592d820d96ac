import HTTPTypes
import Hummingbird
import StrideDashboard
import StrideReplica

/// The copy's guard on a server with `--replica` or `--follow`, behind the API's and the
/// pages' guards (it needs the runner): a write for a runner this server does not write is
/// refused before it runs — 421 on a follower (the runner's writer is another server), 409
/// on a server that was cut off — and every write answered wakes the copy. With
/// `--replica-acknowledge`, a write is answered only once PostgreSQL holds its events.
struct ReplicaMiddleware: RouterMiddleware {
    typealias Context = StrideRequestContext

    let replication: Replication
    /// Whether a write waits for its copy (`--replica-acknowledge`).
    let acknowledge: Bool
    /// Whether it guards the dashboard's forms (a refusal is then a page a person reads) rather
    /// than the API (JSON).
    var guardsPages = false
    /// How long it waits before it answers 503.
    static let acknowledgeTimeout: Duration = .seconds(10)

    /// The refusal, as the API's JSON or as the dashboard's page.
    private func refuse(_ refusal: APIError) throws -> Response {
        guard guardsPages else { throw refusal }
        return HTMLAnswer.page(Dashboard.problem(title: "This change cannot be made here", message: refusal.message), status: refusal.status)
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard ![.get, .head].contains(request.method), request.uri.path != FormAction.signOut.rawValue,
            let site = context.site, let runner = site.runner
        else { return try await next(request, context) }
        switch replication.role(of: runner) {
        case .follower(let writer):
            return try refuse(
                APIError(
                    .misdirectedRequest,
                    "this server keeps a read-only copy of \(runner)'s ledger; \(runner)'s writes go to the server \(writer) (send them there, or promote this one with `stride runners promote \(runner)`)"
                ))
        case .cutOff(let fence):
            return try refuse(APIError(.conflict, fence.description))
        case .writer, .unknown:
            break
        }
        let response = try await next(request, context)
        guard acknowledge else {
            replication.nudge()
            return response
        }
        let ledger = site.api.worker.ledger
        let last = try await site.api.worker.lanes.quick.runIfActive { try ledger.lastSequence() }
        guard await replication.copied(runner, through: last, timeout: Self.acknowledgeTimeout) else {
            if case .cutOff(let fence) = replication.role(of: runner) { return try refuse(APIError(.conflict, fence.description)) }
            let why = replication.status.problem.map { " (\($0))" } ?? ""
            return try refuse(
                APIError(
                    .serviceUnavailable,
                    "the write is kept on this server, but PostgreSQL has not confirmed its copy within \(Self.acknowledgeTimeout)\(why); send it again later: nothing is appended twice",
                    headers: [.retryAfter: "30"]))
        }
        return response
    }
}
