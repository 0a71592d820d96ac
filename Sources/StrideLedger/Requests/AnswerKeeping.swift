import StrideEvents

/// Which answers the ledger keeps for a request sent with an `Idempotency-Key`, and for how
/// long — the rules payment APIs follow, so that a retry is safe and never stuck:
///
/// - An answer is kept only for what was decided about a well-formed request: a success (2xx),
///   or the ledger's refusal of it (409 a conflict with what it holds, 422 a value or action it
///   does not take). A retry of such a request gets that answer again and appends nothing.
/// - Anything else — a malformed body (400), a body too slow (408), too large (413) or of the
///   wrong type (415), a failure of the server (5xx) — decided nothing: the retry runs again.
/// - A kept answer stands for ``keptFor`` (24 hours) after it was given. After that the key
///   is free: a request sent with it is a new request.
public enum AnswerKeeping {
    /// How long a kept answer stands: 24 hours, longer than any phone retries a request.
    public static let keptFor: Int64 = 24 * 3_600_000

    /// Whether an answer with this HTTP status is kept for the request's key.
    public static func keeps(status: Int) -> Bool {
        (200..<300).contains(status) || status == 409 || status == 422
    }

    /// Whether an answer given at `answeredAt` still stands at `now`.
    public static func stands(answeredAt: Timestamp, at now: Timestamp) -> Bool {
        now.millisecondsSince1970 - answeredAt.millisecondsSince1970 < keptFor
    }
}
