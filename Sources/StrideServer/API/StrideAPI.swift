import Foundation
import Hummingbird
import Logging
import StrideContract
import StrideEvents
import StrideLedger

/// The HTTP API over one ledger (one runner's, on a shared server): its endpoints, built from the same ledger functions and
/// contract documents as the command line. Handlers parse, call the ledger on its worker
/// threads, and answer; no rule lives here.
struct StrideAPI: Sendable {
    let worker: LedgerWorker
    let settings: ServerSettings
    let answers: RequestAnswers
    let streams: Quota
    /// This ledger's share of ``streams``.
    let ownStreams: Quota
    /// Where uploads are written before they are ingested.
    let uploads: String

    /// The API over `worker`'s ledger; `streams` counts the event streams open (shared by the
    /// runners of a shared server), of which this ledger may hold `streamShare`.
    /// - Throws: when the ledger's `uploads` folder cannot be made.
    init(worker: LedgerWorker, settings: ServerSettings, streams: Quota, streamShare: Int) throws {
        self.worker = worker
        self.settings = settings
        answers = RequestAnswers(worker: worker)
        self.streams = streams
        ownStreams = Quota(limit: min(streamShare, streams.limit))
        uploads = try Upload.folder(of: worker.ledger.path)
        Upload.removeStale(in: uploads)
    }

    /// Every endpoint, in the order the description lists them: one route table for every
    /// runner's API, each handler given the API of the runner its request was for.
    static let endpoints: [Endpoint] =
        readEndpoints + trainingEndpoints + shoeEndpoints + pointsEndpoints + sampleEndpoints + ingestEndpoints + [
            eventStreamEndpoint, openAPIEndpoint,
        ]

    /// Answers a read with a contract document, or 304 when the client's `If-None-Match`
    /// names the sequence the ledger's figures stand at: the documents change only when the log
    /// does.
    ///
    /// One trip to a ledger thread and one view of the ledger (``Ledger/read(_:)``): the
    /// request's token is confirmed, the ETag taken and the document built from one state, in
    /// the lane the route table chose (``StrideRequestContext/lane``). The ETag is the sequence
    /// the view's figures were folded through, and only when that is the log's end: a read on
    /// figures behind the log (another process appended, and the view read on rather than catch
    /// up for ever) carries no ETag, is never 304 and is `no-store`, so that no cache keeps it.
    func read(
        _ request: Request, _ context: StrideRequestContext, _ build: @escaping @Sendable (Ledger) throws -> any ContractDocument
    ) async throws -> Response {
        let known = request.headers[.ifNoneMatch]
        let (tag, document) = try await inView(of: context) { ledger -> (String?, (any ContractDocument)?) in
            let point = try ledger.figuresPoint()
            guard point.isCurrent else { return (nil, try build(ledger)) }
            let tag = "\"\(point.sequence)\""
            if let known, known.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == tag }) {
                return (tag, nil)
            }
            return (tag, try build(ledger))
        }
        guard let document else { return Response(status: .notModified, headers: [.eTag: tag ?? ""]) }
        let headers: HTTPFields = tag.map { [.eTag: $0, .cacheControl: "no-cache"] } ?? [.cacheControl: "no-store"]
        return JSONAnswer(document.json, headers: headers).response
    }

    /// Runs `body` on a ledger thread, reading through one view of the ledger in which the
    /// request's credential is confirmed first: what a request reads, it reads as one state
    /// its token (or its session's) was active in. It runs in the lane the route table chose
    /// for the request (``StrideRequestContext/lane``): a read as recorded in the heavy lane.
    /// - Throws: ``APIError/unauthorized`` when the ledger no longer knows the device's token;
    ///   ``APIError`` 503 when the heavy lane is full; what `body` throws.
    func inView<T: Sendable>(of context: StrideRequestContext, _ body: @escaping @Sendable (Ledger) throws -> T) async throws -> T {
        let credential = context.credential
        let work: @Sendable (Ledger) throws -> T = { ledger in
            try ledger.read {
                guard let credential, try ledger.device(authenticating: credential.token) == credential.device else {
                    throw APIError.unauthorized
                }
                return try body(ledger)
            }
        }
        switch context.lane {
        case .quick: return try await worker.run(work)
        case .heavy: return try await worker.runAdmittedHeavy(work)
        }
    }
}
