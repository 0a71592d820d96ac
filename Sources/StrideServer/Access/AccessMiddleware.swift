import Hummingbird

/// Lets a request to the API (under `/v1`) through only with `Authorization: Bearer TOKEN` for
/// an active token, and notes the device the token names. A missing, wrong or revoked token
/// gets the same 401, which says nothing of which it was. The dashboard's pages are
/// ``PageAccessMiddleware``'s.
struct AccessMiddleware: RouterMiddleware {
    typealias Context = StrideRequestContext

    /// The device an active token names, or nil (the ledger compares hashes in constant time).
    let authenticate: @Sendable (String) async throws -> String?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard Self.guards(request.uri.path) else { return try await next(request, context) }
        guard let token = Self.bearerToken(request.headers[.authorization]), let device = try await authenticate(token) else {
            throw APIError.unauthorized
        }
        var context = context
        context.device = device
        context.isStillAuthorized = { [authenticate] in try await authenticate(token) == device }
        return try await next(request, context)
    }

    /// Whether a path is the API's (`/v1` and below), which takes tokens rather than sessions.
    static func guards(_ path: String) -> Bool {
        path == "/v1" || path.hasPrefix("/v1/")
    }

    /// The token of an `Authorization: Bearer TOKEN` header (the scheme in any case).
    static func bearerToken(_ header: String?) -> String? {
        guard let header, header.count > 7, header.prefix(7).lowercased() == "bearer " else { return nil }
        let token = header.dropFirst(7).trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }
}
