import AccessTokens
import StrideEvents
import StrideProjection
import StrideStore

extension Ledger {
    /// Gives a device a new access token for the server and returns it: the only time it is
    /// ever shown, since the ledger keeps its SHA-256 alone (a `token.added` event).
    ///
    /// A device holds one token at a time: a name whose token is still active is refused, and
    /// a revoked name may be given a new token.
    /// - Throws: ``TokenError/invalidName(problem:)``, ``TokenError/nameActive(_:)``;
    ///   ``LedgerError/aheadOfClock(at:clock:timeZone:)`` when `at` is ahead of the clock;
    ///   ``LedgerError/busy(_:)`` or a storage error. Nothing is appended then.
    public func addToken(name text: String, at: Timestamp?) throws -> String {
        let name = try Self.deviceName(text)
        let when = try actionInstant(at)
        let token = AccessToken.generate()
        let hash = AccessTokenHash(of: token)
        let device = EntityReference.device(named: name)
        try decideAndAppend(about: "the device \(name)") {
            let expectation = VersionExpectation(device, version: try store.version(of: device))
            if let active = try state(of: accessTokens).activeToken(named: name) { throw TokenError.nameActive(active.name) }
            // The gate learns the token before the ledger does: it may hold more, never less.
            try writeTokenGate(adding: hash)
            return Decision(
                events: [PendingEvent(.tokenAdded(TokenAdded(name: name, sha256: hash)), occurredAt: when, entity: device)],
                expecting: [expectation])
        }
        return token
    }

    /// Revokes a device's token: the server refuses it from then on (a `token.revoked` event).
    /// - Throws: ``TokenError/noActiveToken(_:active:)``; ``LedgerError/aheadOfClock(at:clock:timeZone:)``
    ///   when `at` is ahead of the clock; ``LedgerError/busy(_:)`` or a storage error. Nothing is
    ///   appended then.
    public func revokeToken(name text: String, at: Timestamp?) throws {
        let wanted = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let when = try actionInstant(at)
        let device = EntityReference.device(named: wanted)
        try decideAndAppend(about: "the device \(wanted)") {
            let expectation = VersionExpectation(device, version: try store.version(of: device))
            let state = try state(of: accessTokens)
            guard let active = try state.activeToken(named: wanted) else {
                throw TokenError.noActiveToken(wanted, active: try state.tokens().filter { !$0.isRevoked }.map(\.name))
            }
            return Decision(
                events: [PendingEvent(.tokenRevoked(TokenRevoked(name: active.name)), occurredAt: when, entity: device)],
                expecting: [expectation])
        }
        // A gate that keeps the revoked hash only lets the ledger refuse it.
        try? writeTokenGate()
    }

    /// Writes the ledger's ``TokenGate`` anew from its active tokens, with `adding` too.
    /// - Throws: a storage failure, or when the file cannot be written.
    public func writeTokenGate(adding: AccessTokenHash? = nil) throws {
        let active = try tokens().filter { !$0.isRevoked }.map(\.sha256)
        try TokenGate.write(active + (adding.map { [$0] } ?? []), ledgerAt: path)
    }

    /// Every token ever added, in the order added, revoked ones too; never a token, and the
    /// hashes only for the caller to compare.
    /// - Throws: a storage failure.
    public func tokens() throws -> [DeviceToken] {
        try state(of: accessTokens).tokens()
    }

    /// The name of the device a presented token belongs to, when the token is active; nil for
    /// a token that is unknown or revoked (the caller answers both alike).
    ///
    /// The token is hashed and compared with every stored hash in constant time (see
    /// ``AccessTokensProjection``'s `device(presenting:)`).
    /// - Throws: a storage failure.
    public func device(authenticating token: String) throws -> String? {
        try state(of: accessTokens).device(presenting: AccessTokenHash(of: token))
    }

    /// A device name as it will be kept, trimmed.
    /// - Throws: ``TokenError/invalidName(problem:)``.
    static func deviceName(_ text: String) throws -> String {
        switch DeviceNamePolicy.check(text) {
        case .success(let name): return name
        case .failure(let refusal): throw TokenError.invalidName(problem: refusal.problem)
        }
    }
}
