import StrideDashboard
import StrideEvents

/// The browsers signed in to the dashboard, kept in the server's memory only: a restart signs
/// everyone out, and nothing about a session is written to disk.
///
/// A session is opened by presenting a device's token on the sign-in page. It holds that
/// token (never shown, never logged) so that every page checks it again: a token revoked with
/// `stride tokens revoke` ends its sessions at their next request. A session also ends after
/// ``idleLimit`` without a request, ``lifetime`` after it began, or when the browser signs out.
///
/// On a shared server each runner has a share: at most ``perRunner`` sessions of one runner are
/// kept (their least recently used goes first), and when all ``capacity`` places are taken, the
/// runner holding the most gives one up. So one runner signing in a thousand times ends only
/// their own sessions, never another runner's.
actor Sessions {
    /// One signed-in browser.
    struct Session: Sendable {
        /// The cookie's value: 32 random bytes in hexadecimal.
        let id: String
        /// The runner whose ledger it opens, on a shared server (`stride serve --ledgers`); nil
        /// on a server of one ledger.
        let runner: String?
        /// The device whose token opened it; actions sent from its pages record it ("via").
        let device: String
        /// The token presented, checked again on every request.
        let token: String
        /// The value every form of its pages carries back (cross-site request forgery guard).
        let csrf: String
        let began: ContinuousClock.Instant
        var lastSeen: ContinuousClock.Instant
        /// What the last form did, said once on the next page.
        var notice: Notice?
    }

    /// A session unused this long ends.
    let idleLimit: Duration
    /// A session ends this long after it began, used or not.
    let lifetime: Duration
    /// The most sessions kept at once.
    let capacity: Int
    /// The most sessions of one runner kept at once.
    let perRunner: Int
    private var sessions: [String: Session] = [:]
    private let clock = ContinuousClock()

    init(
        idleLimit: Duration = .seconds(12 * 3600), lifetime: Duration = .seconds(7 * 24 * 3600), capacity: Int = 1000, perRunner: Int = 50
    ) {
        self.idleLimit = idleLimit
        self.lifetime = lifetime
        self.capacity = capacity
        self.perRunner = min(perRunner, capacity)
    }

    /// Opens a session for a device (of `runner`, on a shared server) whose token was just
    /// checked.
    func open(runner: String?, device: String, token: String) -> Session {
        let now = clock.now
        sessions = sessions.filter { isAlive($0.value, at: now) }
        let own = sessions.values.filter { $0.runner == runner }
        if own.count >= perRunner, let oldest = own.min(by: { $0.lastSeen < $1.lastSeen }) {
            sessions[oldest.id] = nil
        } else if sessions.count >= capacity {
            let counts = Dictionary(grouping: sessions.values, by: \.runner)
            if let largest = counts.values.max(by: { $0.count < $1.count }), let oldest = largest.min(by: { $0.lastSeen < $1.lastSeen }) {
                sessions[oldest.id] = nil
            }
        }
        let session = Session(id: Self.randomHex(), runner: runner, device: device, token: token, csrf: Self.randomHex(), began: now, lastSeen: now)
        sessions[session.id] = session
        return session
    }

    /// The live session with this cookie value, marked as just used; nil (and forgotten) when
    /// it ended.
    func session(id: String) -> Session? {
        let now = clock.now
        guard var session = sessions[id] else { return nil }
        guard isAlive(session, at: now) else {
            sessions[id] = nil
            return nil
        }
        session.lastSeen = now
        sessions[id] = session
        return session
    }

    /// Ends a session.
    func close(id: String) {
        sessions[id] = nil
    }

    /// Keeps a notice for the session's next page.
    func say(_ notice: Notice, to id: String) {
        sessions[id]?.notice = notice
    }

    /// The notice kept for the session, forgotten once taken.
    func takeNotice(of id: String) -> Notice? {
        defer { sessions[id]?.notice = nil }
        return sessions[id]?.notice
    }

    private func isAlive(_ session: Session, at now: ContinuousClock.Instant) -> Bool {
        now - session.lastSeen < idleLimit && now - session.began < lifetime
    }

    /// 32 bytes from the system's cryptographic random source, in hexadecimal.
    private static func randomHex() -> String {
        var generator = SystemRandomNumberGenerator()
        return Hex.string((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }
}
