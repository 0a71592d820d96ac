import StrideEvents
import StrideStore

extension Ledger {
    /// What the ledger knows of `request`: whether to carry it out, answer it again, or refuse
    /// its key (``RequestRecall``), following ``AnswerKeeping``. The caller holds the device's
    /// key (one request per device and key at a time) until it kept the answer.
    /// - Throws: a storage error.
    public func recall(_ request: KeyedRequest) throws -> RequestRecall {
        let answers = try store.events(about: RequestAnswered.entity(device: request.device, key: request.key)).compactMap { event in
            if case .requestAnswered(let answer) = event.event { (answer, event.occurredAt) } else { nil }
        }
        if let (latest, answeredAt) = answers.last, AnswerKeeping.stands(answeredAt: answeredAt, at: clock.now()) {
            return request.isAnswered(by: latest) ? .answered(latest) : .keyUsedForAnother(latest)
        }
        let stamp = RequestStamp(request, round: answers.count)
        return try store.contains(stamp.eventKey(0)) ? .carriedOutAnswerLost(stamp) : .carryOut(stamp)
    }

    /// Keeps the answer given to a request recalled as `stamp`, when ``AnswerKeeping`` keeps
    /// answers of its status; the same request sent again within ``AnswerKeeping/keptFor``
    /// gets it back.
    /// - Returns: whether it was kept.
    /// - Throws: a storage error.
    @discardableResult
    public func keepAnswer(to stamp: RequestStamp, status: Int, body: String) throws -> Bool {
        guard AnswerKeeping.keeps(status: status) else { return false }
        let request = stamp.request
        let answer = RequestAnswered(
            device: request.device, key: request.key, method: request.method, path: request.path, bodyDigest: request.bodyDigest,
            status: status, body: body)
        try append([
            PendingEvent(
                .requestAnswered(answer), occurredAt: clock.now(), entity: RequestAnswered.entity(device: request.device, key: request.key),
                idempotencyKey: RequestAnswered.idempotencyKey(device: request.device, key: request.key, round: stamp.round))
        ])
        return true
    }
}
