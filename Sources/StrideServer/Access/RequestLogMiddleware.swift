import Foundation
import Hummingbird
import Logging
import StrideStore

/// One line per request: method, path, status and time taken — never a token, never a body
/// (health data). Errors a ledger function threw become their answer here (``APIError/from(_:)``).
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = StrideRequestContext
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let began = ContinuousClock.now
        do {
            let response = try await next(request, context)
            log(request, status: response.status.code, since: began)
            return response
        } catch let error as any HTTPResponseError {
            log(request, status: error.status.code, since: began)
            throw error
        } catch {
            // A ledger function's refusal becomes its status and sentence (APIError.from).
            let refusal = APIError.from(error)
            log(request, status: refusal.status.code, since: began)
            if refusal.status == .internalServerError || error is DataFileCutShort {
                logger.error("\(request.method) \(request.uri.path) failed: \(error)")
            }
            throw refusal
        }
    }

    private func log(_ request: Request, status: Int, since began: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - began
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        logger.info("\(request.method) \(request.uri.path) \(status) \(String(format: "%.1f", milliseconds)) ms")
    }
}
