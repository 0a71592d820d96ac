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

    /// Every endpoint, in the order the description lists them.
    var endpoints: [Endpoint] {
        readEndpoints + shoeEndpoints + pointsEndpoints + sampleEndpoints + ingestEndpoints + [eventStreamEndpoint, openAPIEndpoint]
    }

    /// Answers a read with a contract document, or 304 when the client's `If-None-Match`
    /// names the ledger's last sequence: the documents change only when the log does.
    /// A `heavy` read (a replay) runs in the worker's heavy lane.
    func read(
        _ request: Request, heavy: Bool = false, _ build: @escaping @Sendable (Ledger) throws -> any ContractDocument
    ) async throws -> Response {
        let known = request.headers[.ifNoneMatch]
        let answer: @Sendable (Ledger) throws -> (String, (any ContractDocument)?) = { ledger in
            let tag = "\"\(try ledger.lastSequence())\""
            if let known, known.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == tag }) {
                return (tag, nil)
            }
            return (tag, try build(ledger))
        }
        let (tag, document) = try await heavy ? worker.runAdmittedHeavy(answer) : worker.run(answer)
        guard let document else { return Response(status: .notModified, headers: [.eTag: tag]) }
        return JSONAnswer(document.json, headers: [.eTag: tag, .cacheControl: "no-cache"]).response
    }
}
