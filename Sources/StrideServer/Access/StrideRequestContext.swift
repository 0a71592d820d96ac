import Hummingbird

/// What a request carries through the server: Hummingbird's own context, and the device whose
/// token authenticated it (set by ``AccessMiddleware`` before any route runs).
public struct StrideRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The device the request came from, named by its access token.
    public var device: String?
    /// The dashboard's session, for a page or a form (set by ``PageAccessMiddleware``).
    var session: Sessions.Session?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        device = nil
        session = nil
    }

    /// The authenticated device; routes run only after authentication, so it is always set.
    var sender: String { device ?? "" }
}
