import StrideEvents
import StrideStore

extension Ledger {
    /// The answer kept for a request a device sent with an idempotency key, if it was answered.
    /// - Throws: a storage error.
    public func answer(toRequest key: String, from device: String) throws -> RequestAnswered? {
        try store.events(about: RequestAnswered.entity(device: device, key: key)).lazy.compactMap { event in
            if case .requestAnswered(let answer) = event.event { answer } else { nil }
        }.first
    }

    /// Keeps the answer to a request, so that the same request sent again gets it back. The
    /// first answer kept for a device and key stays; a later one is skipped.
    /// - Throws: a storage error.
    public func keep(_ answer: RequestAnswered) throws {
        try append([
            PendingEvent(
                .requestAnswered(answer), occurredAt: clock.now(), entity: RequestAnswered.entity(device: answer.device, key: answer.key),
                idempotencyKey: RequestAnswered.idempotencyKey(device: answer.device, key: answer.key))
        ])
    }
}
