import Hummingbird
import StrideLedger

/// The API's guard (the `/v1` group's middleware): lets a request through only with
/// `Authorization: Bearer TOKEN` for an active token, and puts the runner's site and the
/// device's credential into its context. A missing, wrong or revoked token — or on a shared
/// server one naming no runner, or one removed — gets the same 401, which says nothing of
/// which it was. The pages are ``SessionMiddleware``'s.
struct TokenMiddleware: RouterMiddleware {
    typealias Context = StrideRequestContext

    let sites: ServedSites

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let presented = Self.bearerToken(request.headers[.authorization]) else { throw APIError.unauthorized }
        let token = RunnerToken(presented: presented)
        guard let site = try await sites.site(presenting: token), let device = try await site.tokens.device(presenting: token) else {
            throw APIError.unauthorized
        }
        var context = context
        context.site = site
        context.credential = Credential(token: token.token, device: device)
        context.isStillAuthorized = { try await site.tokens.device(presenting: token) == device }
        return try await next(request, context)
    }

    /// The token of an `Authorization: Bearer TOKEN` header (the scheme in any case, spaces
    /// and tabs around the token ignored). Read byte by byte: every API request passes here.
    static func bearerToken(_ header: String?) -> String? {
        guard var header else { return nil }
        return header.withUTF8 { bytes -> String? in
            let scheme = "bearer ".utf8
            guard bytes.count > scheme.count else { return nil }
            for (index, expected) in scheme.enumerated() where bytes[index] | 0x20 != expected { return nil }
            let isBlank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
            var (start, end) = (scheme.count, bytes.count)
            while start < end, isBlank(bytes[start]) { start += 1 }
            while end > start, isBlank(bytes[end - 1]) { end -= 1 }
            return start < end ? String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self) : nil
        }
    }
}
