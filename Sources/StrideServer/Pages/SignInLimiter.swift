import Synchronization

/// How many sign-ins the server takes, per runner and per address, in a sliding minute: a
/// token is 32 random bytes, so guessing is hopeless, but each attempt costs a token check
/// and, once signed in, a session. Past either limit a sign-in is refused with 429 and
/// `Retry-After` until the minute has passed; one runner's attempts never use up another's.
final class SignInLimiter: Sendable {
    /// The attempts taken in a minute from one address, and for one runner.
    let perMinute: Int
    private let attempts = Mutex<[String: [ContinuousClock.Instant]]>([:])
    private let clock = ContinuousClock()

    init(perMinute: Int) {
        self.perMinute = perMinute
    }

    /// Takes an attempt from `address` for `runner` (nil on a server of one ledger), or says
    /// how many seconds until one is free.
    func take(address: String?, runner: String?) -> Duration? {
        let now = clock.now
        let keys = ["address " + (address ?? "unknown")] + (runner.map { ["runner " + $0] } ?? [])
        return attempts.withLock { attempts in
            // Forget what is over a minute old, everywhere, so the table stays as small as the
            // last minute's callers.
            attempts = attempts.compactMapValues { times in
                let kept = times.filter { now - $0 < .seconds(60) }
                return kept.isEmpty ? nil : kept
            }
            for key in keys {
                if let times = attempts[key], times.count >= perMinute, let oldest = times.first {
                    return .seconds(60) - (now - oldest)
                }
            }
            for key in keys { attempts[key, default: []].append(now) }
            return nil
        }
    }
}
