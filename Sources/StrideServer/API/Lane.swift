import Hummingbird

/// The lane a request's ledger work runs in (``WorkLanes``): chosen once per request, by the
/// route table (``Endpoint/lane(of:)`` for the API, the same rule for the pages), never by a
/// handler.
enum Lane: Sendable, Hashable {
    /// Reads, pages and actions: work bounded by a request or a page.
    case quick
    /// Uploads and every read that replays the log: work that grows with the body or the ledger.
    case heavy

    /// The lane of a read or a page: heavy when it asks for the ledger as recorded at a point
    /// of its past (`?asRecorded=`, whatever the point, however few events it folds), quick
    /// otherwise (`?asOf=` cuts the present figures).
    static func of(_ request: Request) -> Lane {
        request.uri.queryParameters["asRecorded"] != nil ? .heavy : .quick
    }
}
