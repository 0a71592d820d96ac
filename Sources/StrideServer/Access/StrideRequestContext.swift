import Hummingbird

/// What a request carries through the server: Hummingbird's own context, and the device whose
/// token authenticated it (set by ``AccessMiddleware`` before any route runs).
public struct StrideRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The device the request came from, named by its access token.
    public var device: String?
    /// Asks again whether the request's token is still active (and, on a shared server, its
    /// runner still served): a long answer, an event stream, ends when it no longer is.
    var isStillAuthorized: @Sendable () async throws -> Bool = { true }
    /// The dashboard's session, for a page or a form (set by ``PageAccessMiddleware``).
    var session: Sessions.Session?
    /// The address the connection came from (a proxy's, behind one), IPv4-mapped addresses
    /// written as IPv4.
    let peer: String?
    /// Whether the client is still connected: work a request has not started yet is not
    /// started for a client that has gone.
    let isConnected: @Sendable () -> Bool

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        device = nil
        session = nil
        let address = source.channel.remoteAddress?.ipAddress
        peer = address.map { $0.hasPrefix("::ffff:") ? String($0.dropFirst(7)) : $0 }
        // A channel that was never active (the in-process test client's) has nobody to lose.
        let channel = source.channel
        let wasActive = channel.isActive
        isConnected = { !wasActive || channel.isActive }
    }

    /// The authenticated device; routes run only after authentication, so it is always set.
    var sender: String { device ?? "" }
}
