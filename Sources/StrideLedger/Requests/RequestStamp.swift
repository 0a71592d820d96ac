import StrideEvents

/// A request a device sent to the server with an idempotency key, as the ledger acting for it
/// (``Ledger/acting(for:)``) marks the events it appends.
public struct RequestStamp: Hashable, Sendable {
    /// The device whose token sent it.
    public var device: String
    /// Its `Idempotency-Key`.
    public var key: String

    /// A stamp for a device's request key.
    public init(device: String, key: String) {
        self.device = device
        self.key = key
    }

    /// The key of the `index`-th event the request appends (counted over what it appends:
    /// an action appends its events once, in the same order each time it is carried out).
    public func eventKey(_ index: Int) -> IdempotencyKey {
        IdempotencyKey(hashing: Array("request.event:\(device)\u{1F}\(key)\u{1F}\(index)".utf8))
    }

    /// `events`, each without a key of its own given the request's key for its place.
    func stamping(_ events: [PendingEvent]) -> [PendingEvent] {
        events.enumerated().map { index, event in
            guard event.idempotencyKey == nil else { return event }
            var stamped = event
            stamped.idempotencyKey = eventKey(index)
            return stamped
        }
    }
}
