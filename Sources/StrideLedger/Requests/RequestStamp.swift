import StrideEvents

/// A request a device sent to the server with an idempotency key, as the ledger acting for it
/// (``Ledger/acting(for:)``) marks the events it appends. Made by ``Ledger/recall(_:)``.
public struct RequestStamp: Hashable, Sendable {
    /// The request: its device, key, method, path and body.
    public var request: KeyedRequest
    /// How many answers to the same device and key expired before it (0 for a key's first use).
    public var round: Int

    init(_ request: KeyedRequest, round: Int) {
        self.request = request
        self.round = round
    }

    /// The key of the `index`-th event the request appends (counted over what it appends:
    /// an action appends its events once, in the same order each time it is carried out). The
    /// body's digest is part of it: a request whose answer was lost is known again only when
    /// it is sent again as it was.
    func eventKey(_ index: Int) -> IdempotencyKey {
        let round = round == 0 ? "" : "\u{1F}\(round)"
        let text = "request.event:\(request.device)\u{1F}\(request.key)\u{1F}\(request.bodyDigest)\(round)\u{1F}\(index)"
        return IdempotencyKey(hashing: Array(text.utf8))
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
