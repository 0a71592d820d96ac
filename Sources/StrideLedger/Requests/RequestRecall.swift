import StrideEvents

/// What the ledger knows of a request sent with an `Idempotency-Key`
/// (``Ledger/recall(_:)``): what to do with it.
public enum RequestRecall: Sendable {
    /// Not answered (or its answer expired): carry it out through
    /// ``Ledger/acting(for:)`` with this stamp, then ``Ledger/keepAnswer(to:status:body:)``.
    case carryOut(RequestStamp)
    /// Answered already: send this answer again, append nothing.
    case answered(RequestAnswered)
    /// Carried out already, but its answer was lost (the server stopped between): append
    /// nothing, and say so.
    case carriedOutAnswerLost(RequestStamp)
    /// The key was used, within the time a kept answer stands, for another request (another
    /// method, path or body): refuse it.
    case keyUsedForAnother(RequestAnswered)
}
