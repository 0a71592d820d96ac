import HTTPTypes
import Hummingbird
import StrideEvents
import StrideLedger
import Synchronization

/// Answers writes that carry an `Idempotency-Key` once: the answer is kept in the ledger (a
/// `request.answered` event) and a request sent again with the same key — a phone retrying
/// after a dropped connection — appends nothing and gets the first answer back. Requests with
/// the same device and key wait for each other, so two retries in flight cannot both act.
final class RequestAnswers: Sendable {
    private let worker: LedgerWorker
    private let locks = KeyLocks()

    init(worker: LedgerWorker) {
        self.worker = worker
    }

    /// Answers `request` with what `act` does, once per device and key when a key is sent;
    /// `act` is given the request's stamp then, for the ledger to act for it
    /// (``Ledger/acting(for:)``). Refusals (4xx) are kept as answers too: the same request gets
    /// the same refusal. When a crash lost an answer but the action's events are in the log,
    /// the request is not carried out again.
    func answer(
        _ request: Request, from device: String, _ act: @Sendable (RequestStamp?) async throws -> (HTTPResponse.Status, JSONValue)
    ) async throws -> Response {
        guard let key = request.headers[.idempotencyKey] else { return try await Self.outcome { try await act(nil) }.response }
        guard (1...255).contains(key.utf8.count), key.unicodeScalars.allSatisfy({ $0.value >= 0x21 && $0.value < 0x7F }) else {
            throw APIError.badField("Idempotency-Key", "give 1 to 255 printable characters without spaces, e.g. a UUID")
        }
        let method = request.method.rawValue
        let path = request.uri.path
        let lockName = device + "\u{1F}" + key
        await locks.lock(lockName)
        do {
            let kept = try await worker.run { try $0.answer(toRequest: key, from: device) }
            if let kept {
                await locks.unlock(lockName)
                guard kept.method == method, kept.path == path else {
                    throw APIError(
                        .unprocessableContent,
                        "the Idempotency-Key \(key) was used for \(kept.method) \(kept.path); send a new key for a new request")
                }
                return Self.replay(kept)
            }
            let stamp = RequestStamp(device: device, key: key)
            let alreadyDone = try await worker.run { try $0.store.contains(stamp.eventKey(0)) }
            let outcome =
                alreadyDone
                ? JSONAnswer(
                    .object([
                        "message": .string(
                            "this request was carried out already (its answer was lost when the server stopped); nothing was appended again")
                    ]))
                : try await Self.outcome { try await act(stamp) }
            if outcome.status.code < 500 {
                let answer = RequestAnswered(
                    device: device, key: key, method: method, path: path, status: outcome.status.code, body: outcome.value.text)
                try await worker.run { try $0.keep(answer) }
            }
            await locks.unlock(lockName)
            return outcome.response
        } catch {
            await locks.unlock(lockName)
            throw error
        }
    }

    /// What `act` answers, a refusal included (as its JSON).
    private static func outcome(of act: () async throws -> (HTTPResponse.Status, JSONValue)) async throws -> JSONAnswer {
        do {
            let (status, value) = try await act()
            return JSONAnswer(value, status: status)
        } catch {
            let refusal = APIError.from(error)
            return JSONAnswer(refusal.json, status: refusal.status, headers: refusal.headers)
        }
    }

    /// The kept answer, as it was first sent.
    private static func replay(_ kept: RequestAnswered) -> Response {
        let buffer = ByteBuffer(string: kept.body + "\n")
        return Response(
            status: HTTPResponse.Status(code: kept.status),
            headers: [.contentType: "application/json; charset=utf-8", .contentLength: String(buffer.readableBytes), .idempotentReplayed: "true"],
            body: .init(byteBuffer: buffer))
    }
}

extension HTTPField.Name {
    /// `Idempotency-Key`: the client's name for one request, sent again with its retries.
    static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
    /// Set on an answer given again for a request already answered.
    static let idempotentReplayed = HTTPField.Name("Idempotent-Replayed")!
}

/// Locks by name, waited for in order of arrival.
actor KeyLocks {
    private var held: Set<String> = []
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]

    /// Waits until `name` is free, then holds it.
    func lock(_ name: String) async {
        guard held.contains(name) else {
            held.insert(name)
            return
        }
        await withCheckedContinuation { waiting[name, default: []].append($0) }
    }

    /// Hands `name` to the next waiter, or frees it.
    func unlock(_ name: String) {
        if var queue = waiting[name], !queue.isEmpty {
            let next = queue.removeFirst()
            waiting[name] = queue.isEmpty ? nil : queue
            next.resume()
        } else {
            held.remove(name)
        }
    }
}

/// How many event streams are open, never more than a limit.
final class StreamCount: Sendable {
    private let open = Mutex(0)
    let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    /// Counts one more stream, unless the limit is reached.
    func acquire() -> Bool {
        open.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    /// Counts one stream fewer.
    func release() {
        open.withLock { $0 -= 1 }
    }
}
