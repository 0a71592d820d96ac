import Hummingbird

/// What a request carries through the server: Hummingbird's own context, the runner's site it
/// is for and the credential it was let in with (set by ``TokenMiddleware`` for the API, by
/// ``SessionMiddleware`` for the pages, before any route of theirs runs).
public struct StrideRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The site of the runner whose ledger the request reads or changes.
    var site: RunnerSite?
    /// The device's token and name: confirmed again in the view a read reads through.
    var credential: Credential?
    /// Asks again whether the request's token is still active (and, on a shared server, its
    /// runner still served): a long answer, an event stream, ends when it no longer is.
    var isStillAuthorized: @Sendable () async throws -> Bool = { true }
    /// The lane its ledger work runs in, set from the route table before the handler runs
    /// (``Endpoint/lane(of:)``, ``Lane/of(_:)`` for the pages).
    var lane = Lane.quick
    /// The dashboard's session, for a page or a form (set by ``SessionMiddleware``).
    var session: Sessions.Session?
    /// The address the connection came from (a proxy's, behind one), IPv4-mapped addresses
    /// written as IPv4.
    let peer: String?
    /// Whether the client is still connected: work a request has not started yet is not
    /// started for a client that has gone.
    let isConnected: @Sendable () -> Bool

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        let address = source.channel.remoteAddress?.ipAddress
        peer = address.map { $0.hasPrefix("::ffff:") ? String($0.dropFirst(7)) : $0 }
        // A channel that was never active (the in-process test client's) has nobody to lose.
        let channel = source.channel
        let wasActive = channel.isActive
        isConnected = { !wasActive || channel.isActive }
    }

    /// The device the request came from, named by its access token.
    public var device: String? { credential?.device }

    /// The authenticated device; routes run only after authentication, so it is always set.
    var sender: String { device ?? "" }

    /// The runner's site; a route of the API or the pages runs only once its middleware found it.
    /// - Throws: ``APIError/unauthorized`` when none was (a route registered outside its group).
    func runnerSite() throws -> RunnerSite {
        guard let site else { throw APIError.unauthorized }
        return site
    }
}

/// The token a request presented (the secret, without a runner's name) and the device it names.
struct Credential: Sendable {
    let token: String
    let device: String
}
