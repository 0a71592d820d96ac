import Foundation
import Hummingbird
import Logging
import StrideStore

/// One line per request: method, path, status and time taken — never a token, never a body
/// (health data).
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = StrideRequestContext
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let began = ContinuousClock.now
        do {
            let response = try await next(request, context)
            log(request, status: response.status.code, since: began)
            return response
        } catch {
            log(request, status: (error as? any HTTPResponseError)?.status.code ?? 500, since: began)
            throw error
        }
    }

    private func log(_ request: Request, status: Int, since began: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - began
        // Tenths of a millisecond, printed without a format string: every request passes here.
        let tenths = elapsed.components.seconds * 10_000 + elapsed.components.attoseconds / 100_000_000_000_000
        logger.info("\(request.method) \(request.uri.path) \(status) \(tenths / 10).\(tenths % 10) ms")
    }
}

/// The one place an error becomes an answer: whatever a guard or a handler throws — a ledger
/// function's refusal, a storage failure, a body cut short — leaves here as an ``APIError``
/// (an `HTTPResponseError`) with its status and sentence (``APIError/from(_:)``). A failure
/// that is the server's (500) is also told to the operator's log; a damaged ledger's is told
/// there once, by its worker (``DamageReports``).
struct RefusalMiddleware: RouterMiddleware {
    typealias Context = StrideRequestContext
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            throw error
        } catch {
            let refusal = APIError.from(error)
            // A damaged ledger is told once, by its worker (``DamageReports``), not per request.
            if refusal.status == .internalServerError, !DamageReports.isDamage(error) {
                logger.error("\(request.method) \(request.uri.path) failed: \(error)")
            }
            throw refusal
        }
    }
}
