import StrideEvents

/// A request a device sent with an `Idempotency-Key`, as the ledger tells one request from
/// another: who sent it, the key, and what it asked (method, path, the SHA-256 of its body).
public struct KeyedRequest: Hashable, Sendable {
    /// The device whose token sent it.
    public var device: String
    /// Its `Idempotency-Key`, as the client sent it.
    public var key: String
    /// Its HTTP method and path, as the server routed it.
    public var method: String
    public var path: String
    /// The SHA-256 of its body, in hexadecimal (``StrideEvents/SHA256Stream``).
    public var bodyDigest: String

    /// A request as the server received it.
    public init(device: String, key: String, method: String, path: String, bodyDigest: String) {
        self.device = device
        self.key = key
        self.method = method
        self.path = path
        self.bodyDigest = bodyDigest
    }

    /// Whether `answer` was kept for this very request (the same method, path and body), not
    /// for another sent with the same key. Answers kept before bodies were noted match on
    /// method and path.
    func isAnswered(by answer: RequestAnswered) -> Bool {
        answer.method == method && answer.path == path && (answer.bodyDigest.isEmpty || answer.bodyDigest == bodyDigest)
    }
}
