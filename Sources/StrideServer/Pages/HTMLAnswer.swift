import HTTPTypes
import Hummingbird

/// A dashboard page as an HTTP answer, with the headers that keep it private and inert: never
/// cached, never framed, no script allowed to run, no referrer sent to other sites, forms only to this site.
enum HTMLAnswer {
    /// The policy every page is served with: inline styles and images only, forms to itself.
    static let contentSecurityPolicy =
        "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    /// Headers that have no constant in HTTPTypes: no content sniffing, no referrer to other sites, no framing.
    static let inertHeaders = HTTPFields(
        [("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "same-origin"), ("X-Frame-Options", "DENY")].compactMap { name, value in
            HTTPField.Name(name).map { HTTPField(name: $0, value: value) }
        })

    /// An HTML document as a response.
    static func page(_ html: String, status: HTTPResponse.Status = .ok, headers extra: HTTPFields = [:]) -> Response {
        let buffer = ByteBuffer(string: html)
        var headers: HTTPFields = [
            .contentType: "text/html; charset=utf-8", .contentLength: String(buffer.readableBytes), .cacheControl: "no-store",
            .contentSecurityPolicy: contentSecurityPolicy,
        ]
        headers.append(contentsOf: inertHeaders)
        for field in extra {
            if field.name == .cacheControl { headers[.cacheControl] = field.value } else { headers.append(field) }
        }
        return Response(status: status, headers: headers, body: .init(byteBuffer: buffer))
    }

    /// A redirect after a form (303: the browser asks for `location` with GET).
    static func seeOther(_ location: String, headers extra: HTTPFields = [:]) -> Response {
        var headers: HTTPFields = [.location: location, .cacheControl: "no-store"]
        headers.append(contentsOf: extra)
        return Response(status: .seeOther, headers: headers)
    }
}
