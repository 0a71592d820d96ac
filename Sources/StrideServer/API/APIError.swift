import Foundation
import Hummingbird
import NIOHTTP1
import StrideEvents
import StrideIngest
import StrideLedger
import StrideStore

/// An answer that is not a success: its status, and the sentence the command line would say.
/// Sent as `{"error": "…", "status": N}`.
public struct APIError: HTTPResponseError, Sendable {
    public var status: HTTPResponse.Status
    /// What went wrong and what to do.
    public var message: String
    /// Extra headers (`WWW-Authenticate`, `Retry-After`).
    var headers: HTTPFields = [:]

    init(_ status: HTTPResponse.Status, _ message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.message = message
        self.headers = headers
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        JSONAnswer(json, status: status, headers: headers).response
    }

    /// The answer's body.
    var json: JSONValue {
        .object(["error": .string(message), "status": .integer(Int(status.code))])
    }

    /// The answer for a request without a valid, active token. It never says which part failed.
    static let unauthorized = APIError(
        .unauthorized, "a valid access token is required: send Authorization: Bearer TOKEN (make one with `stride tokens add NAME`)",
        headers: [.wwwAuthenticate: "Bearer"])

    /// A query parameter or body field that is not what it should be.
    static func badField(_ field: String, _ problem: String) -> APIError {
        APIError(.badRequest, "\(field): \(problem)")
    }

    /// The HTTP answer for an error a ledger function threw: 404 for what is not there, 409 for
    /// a race lost or a name taken, 422 for a refusal by a rule, 400 for unreadable input.
    static func from(_ error: any Error) -> APIError {
        switch error {
        case let error as APIError: return error
        case let error as ShoeError:
            switch error {
            case .unknownShoe, .unknownWorkout: return APIError(.notFound, error.description)
            case .nameTaken: return APIError(.conflict, error.description)
            default: return APIError(.unprocessableContent, error.description)
            }
        case let error as PointsError: return APIError(.unprocessableContent, error.description)
        case let error as SampleError:
            if case .unknownSample = error { return APIError(.notFound, error.description) }
            return APIError(.unprocessableContent, error.description)
        case let error as TokenError: return APIError(.unprocessableContent, error.description)
        case let error as ValueRefusal: return APIError(.unprocessableContent, error.description)
        case let error as LedgerError:
            switch error {
            case .busy: return APIError(.conflict, error.description)
            case .aheadOfClock, .unknownTimeZone: return APIError(.unprocessableContent, error.description)
            default: return APIError(.internalServerError, error.description)
            }
        case let error as IngestError:
            if case .unexpectedFormat = error { return APIError(.unsupportedMediaType, error.description) }
            return APIError(.badRequest, error.description)
        case is RunnerUnavailable:
            return APIError(
                .serviceUnavailable, "this server cannot open the ledger this request names; its operator will find why in the server's log")
        case is DataFileCutShort:
            // The operator reads why in the server's log (the request log's line names the error).
            return APIError(
                .serviceUnavailable,
                "this server cannot read the ledger this request names: its file is damaged; its operator will find why in the server's log")
        case let error as HTTPParserError:
            // A body cut short of its Content-Length, or a request that is not HTTP.
            return APIError(.badRequest, "the request could not be read (\(error)); send the whole body its Content-Length announces")
        case is CancellationError:
            // nginx's name for it: nobody reads the answer, but the log and the metrics do.
            return APIError(
                HTTPResponse.Status(code: 499, reasonPhrase: "Client Closed Request"), "the client went away before the work began; nothing was done")
        case let error as any HTTPResponseError: return APIError(error.status, "the request was refused: \(error.status.reasonPhrase)")
        default:
            return APIError(.internalServerError, "the ledger could not answer: \(error); see the server's log, then try again")
        }
    }
}
