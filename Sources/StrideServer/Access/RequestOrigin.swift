import Foundation
import HTTPTypes
import Hummingbird

/// Where a browser reached the server — the scheme and host it sees in its address bar — as
/// far as the server can tell: from `Host`; behind a proxy it trusts (the request came from a
/// ``ServerSettings/trustedProxies`` address), from `Forwarded` or `X-Forwarded-Proto` and
/// `X-Forwarded-Host`; and from ``ServerSettings/publicURL`` when the runner gave one.
///
/// Forms are taken only when the browser's `Origin` is one of these; the session cookie is
/// `Secure` when the browser reached the server over https.
struct RequestOrigin: Equatable {
    /// The origins (`scheme://host[:port]`) a browser's `Origin` may name.
    var accepted: [String]
    /// Whether the browser reached the server over https (through a proxy that terminates TLS).
    var isSecure: Bool

    /// Where the browser that sent `request` reached the server.
    static func of(_ request: Request, _ context: StrideRequestContext, trustedProxies: Set<String>, publicURL: String?) -> RequestOrigin {
        of(headers: request.headers, authority: request.head.authority, peer: context.peer, trustedProxies: trustedProxies, publicURL: publicURL)
    }

    /// The origin of a request with `headers` from the address `peer`.
    static func of(headers: HTTPFields, authority: String?, peer: String?, trustedProxies: Set<String>, publicURL: String?) -> RequestOrigin {
        var accepted: [String] = []
        var forwardedProto: String?
        if let peer, trustedProxies.contains(peer) {
            let forwarded = headers[.forwarded].flatMap(Self.firstForwarded)
            forwardedProto = (forwarded?.proto ?? headers[.xForwardedProto].flatMap(Self.firstValue))?.lowercased()
            let forwardedHost = forwarded?.host ?? headers[.xForwardedHost].flatMap(Self.firstValue)
            if let proto = forwardedProto, proto == "http" || proto == "https", let host = forwardedHost ?? authority {
                accepted.append(proto + "://" + host.lowercased())
            }
        }
        if let authority { accepted += ["http://" + authority.lowercased(), "https://" + authority.lowercased()] }
        if let publicURL { accepted.append(publicURL) }
        let origin = headers[.origin]?.lowercased()
        let isSecure = forwardedProto == "https" || (origin.map { $0.hasPrefix("https://") && accepted.contains($0) } ?? false)
        return RequestOrigin(accepted: accepted, isSecure: isSecure)
    }

    /// The first comma-separated value of a header, trimmed.
    private static func firstValue(_ text: String) -> String? {
        text.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `proto` and `host` of the first element of an RFC 7239 `Forwarded` header (the proxy
    /// nearest the browser), quotes removed.
    private static func firstForwarded(_ text: String) -> (proto: String?, host: String?)? {
        guard let element = text.split(separator: ",").first else { return nil }
        var proto: String?
        var host: String?
        for pair in element.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else { continue }
            let value = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            switch parts[0].lowercased() {
            case "proto": proto = value
            case "host": host = value
            default: break
            }
        }
        return proto == nil && host == nil ? nil : (proto, host)
    }

    /// A public URL as an origin, `scheme://host[:port]` in lowercase; nil unless it is an
    /// http or https URL with a host and nothing after it but a slash.
    static func origin(ofPublicURL text: String) -> String? {
        let lowered = text.lowercased()
        guard lowered.hasPrefix("https://") || lowered.hasPrefix("http://") else { return nil }
        var origin = lowered
        while origin.hasSuffix("/") { origin.removeLast() }
        let host = origin.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
        guard host.count == 3, !host[2].isEmpty, !host[2].contains("/"), !host[2].contains("@"), !host[2].contains("?"), !host[2].contains("#")
        else { return nil }
        return origin
    }
}

extension HTTPField.Name {
    /// RFC 7239 `Forwarded`: `for=…;proto=https;host=…`, set by a reverse proxy.
    static let forwarded = HTTPField.Name("Forwarded")!
    /// `X-Forwarded-Proto`: the scheme the browser used, set by a reverse proxy.
    static let xForwardedProto = HTTPField.Name("X-Forwarded-Proto")!
    /// `X-Forwarded-Host`: the host the browser asked for, set by a reverse proxy.
    static let xForwardedHost = HTTPField.Name("X-Forwarded-Host")!
}
