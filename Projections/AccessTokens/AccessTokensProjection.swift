import StrideEvents
import StrideProjection

/// The access tokens of the devices that send to the server: each token's device, when it
/// was added and revoked, by the token's SHA-256; and each device's tokens, by its name.
public struct AccessTokensProjection: Projection {
    public typealias Key = TokenKey
    public typealias Row = TokenRow

    public let name = "tokens"
    public let version: UInt32 = 1
    /// Small rows: snapshots of them are kept (see the store's `snapshotInterval`).
    public var keepsSnapshots: Bool { true }
    /// Sample events do not change it: a replay skips them undecoded.
    public var foldsSamples: Bool { false }

    /// Creates the projection.
    public init() {}

    public func apply(_ event: ProjectionEvent, to rows: inout ProjectionRows<Key, Row>) {
        guard case .event(let content) = event.content else { return }
        switch content {
        case .tokenAdded(let added):
            // A token's hash names one token: a second event with the same hash adds nothing.
            guard rows.row(.token(added.sha256)) == nil else { return }
            let token = DeviceToken(name: added.name, sha256: added.sha256, addedSequence: event.sequence, addedAt: event.occurredAt)
            rows.update(.token(added.sha256), creating: { .token(token) }) { _ in }
            rows.update(.device(added.name.lowercased()), creating: { .device(tokens: []) }) { row in
                if case .device(let tokens) = row { row = .device(tokens: tokens + [added.sha256]) }
            }
        case .tokenRevoked(let revoked):
            // Every token of the device still active: the ledger lets a device hold one at a
            // time, and a log that says otherwise still leaves none behind.
            guard case .device(let hashes)? = rows.row(.device(revoked.name.lowercased())) else { return }
            for hash in hashes {
                guard case .token(var token)? = rows.row(.token(hash)), !token.isRevoked else { continue }
                token.revokedAt = event.occurredAt
                rows.update(.token(hash), creating: { .token(token) }) { $0 = .token(token) }
            }
        default:
            break
        }
    }
}
