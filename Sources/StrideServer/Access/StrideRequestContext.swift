import Hummingbird

/// What a request carries through the server: Hummingbird's own context, and the device whose
/// token authenticated it (set by ``AccessMiddleware`` before any route runs).
public struct StrideRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The device the request came from, named by its access token.
    public var device: String?
    /// The dashboard's session, for a page or a form (set by ``PageAccessMiddleware``).
    var session: Sessions.Session?
    /// The address the connection came from (a proxy's, behind one), IPv4-mapped addresses
    /// written as IPv4.
    let peer: String?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        device = nil
        session = nil
        let address = source.channel.remoteAddress?.ipAddress
        peer = address.map { $0.hasPrefix("::ffff:") ? String($0.dropFirst(7)) : $0 }
    }

    /// The authenticated device; routes run only after authentication, so it is always set.
    var sender: String { device ?? "" }
}
