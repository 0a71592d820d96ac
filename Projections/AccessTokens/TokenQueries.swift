import StrideEvents
import StrideProjection

/// The tokens, as commands, the server and replays read them.
extension ProjectionState where P == AccessTokensProjection {
    /// Every token ever added, in the order added (revoked ones too).
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func tokens() throws -> [DeviceToken] {
        // A handful of rows: every row read, the devices' ones passed over.
        try allRows().compactMap { _, row -> DeviceToken? in
            if case .token(let token) = row { token } else { nil }
        }
        .sorted { $0.addedSequence < $1.addedSequence }
    }

    /// The token with a hash, revoked or not.
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func token(forHash hash: AccessTokenHash) throws -> DeviceToken? {
        guard case .token(let token)? = try row(.token(hash)) else { return nil }
        return token
    }

    /// A device's token that is not revoked, if it has one (names in any case).
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func activeToken(named name: String) throws -> DeviceToken? {
        guard case .device(let hashes)? = try row(.device(name.lowercased())) else { return nil }
        for hash in hashes.reversed() {
            if let token = try token(forHash: hash), !token.isRevoked { return token }
        }
        return nil
    }

    /// The name of the device whose active token has the hash `presented`, or nil.
    ///
    /// Every token's hash is compared with the presented one, each in constant time, and the
    /// walk never stops at a match: no lookup by the presented hash, so nothing about the
    /// stored hashes shows in how long the answer takes.
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func device(presenting presented: AccessTokenHash) throws -> String? {
        var device: String?
        for token in try tokens() {
            let isMatch = token.sha256.matches(presented)
            if isMatch && !token.isRevoked { device = token.name }
        }
        return device
    }
}
