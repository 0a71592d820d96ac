import HTTPTypes
import Hummingbird
import StrideEvents
import StrideLedger

/// Answers writes that carry an `Idempotency-Key` once. The ledger decides what a request
/// with a key is (``Ledger/recall(_:)``) and which answers it keeps, for how long
/// (``AnswerKeeping``); the server only holds each device's key while one request with it is
/// carried out, so that two retries in flight cannot both act.
final class RequestAnswers: Sendable {
    /// The longest `Idempotency-Key`, in bytes.
    static let longestKey = 255
    private let worker: LedgerWorker
    private let locks = KeyLocks()

    init(worker: LedgerWorker) {
        self.worker = worker
    }

    /// Answers `request`, whose body has the SHA-256 `bodyDigest`, with what `act` does, once
    /// per device and key when a key is sent; `act` is given the request's stamp then, for
    /// the ledger to act for it (``Ledger/acting(for:)``).
    func answer(
        _ request: Request, from device: String, bodyDigest: String,
        _ act: @Sendable (RequestStamp?) async throws -> (HTTPResponse.Status, JSONValue)
    ) async throws -> Response {
        guard let key = request.headers[.idempotencyKey] else { return try await Self.outcome { try await act(nil) }.response }
        guard (1...Self.longestKey).contains(key.utf8.count), key.unicodeScalars.allSatisfy({ $0.value >= 0x21 && $0.value < 0x7F }) else {
            throw APIError.badField("Idempotency-Key", "give 1 to \(Self.longestKey) printable characters without spaces, e.g. a UUID")
        }
        let keyed = KeyedRequest(device: device, key: key, method: request.method.rawValue, path: request.uri.path, bodyDigest: bodyDigest)
        return try await locks.holding(device + "\u{1F}" + key) {
            let outcome: JSONAnswer
            let stamp: RequestStamp
            switch try await worker.run({ try $0.recall(keyed) }) {
            case .answered(let kept):
                return Self.replay(kept)
            case .keyUsedForAnother(let kept):
                // Say what differs: the route, or (on the same route) the body.
                let other = kept.method == keyed.method && kept.path == keyed.path ? "with another body" : "to \(kept.method) \(kept.path)"
                throw APIError(
                    .unprocessableContent,
                    "the Idempotency-Key \(key) was used for another request (\(other)) in the last 24 hours; send a new key for a new request")
            case .carriedOutAnswerLost(let lost):
                stamp = lost
                outcome = JSONAnswer(
                    .object([
                        "message": .string(
                            "this request was carried out already (its answer was lost when the server stopped); nothing was appended again")
                    ]))
            case .carryOut(let fresh):
                stamp = fresh
                outcome = try await Self.outcome { try await act(fresh) }
            }
            _ = try await worker.run { try $0.keepAnswer(to: stamp, status: outcome.status.code, body: outcome.value.text) }
            return outcome.response
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

    /// Runs `body` holding `name`, and frees it however `body` ends.
    nonisolated func holding<T: Sendable>(_ name: String, _ body: () async throws -> T) async throws -> T {
        await lock(name)
        do {
            let result = try await body()
            await unlock(name)
            return result
        } catch {
            await unlock(name)
            throw error
        }
    }
}
