import HTTPTypes
import Hummingbird
import StrideContract
import StrideIngest
import StrideLedger

extension StrideAPI {
    /// The media types `POST /v1/ingest` takes: what `stride ingest` reads, told apart by content.
    static let ingestMediaTypes = [
        "application/zip", "application/xml", "text/xml", "application/json", "application/x-ndjson", "application/gpx+xml",
        "application/vnd.ant.fit", "application/gzip", "application/vnd.garmin.tcx+xml", "application/octet-stream",
    ]

    /// Ingests: any file `stride ingest` reads, and Health Auto Export's pushes.
    static var ingestEndpoints: [Endpoint] {
        [
            Endpoint(
                method: .post, path: "/v1/ingest",
                summary:
                    "Ingest a Health app export (zip or XML), NDJSON, a GPX track, a FIT file (plain, gzipped or zipped) or a TCX file, as `stride ingest` does; answers its summary.",
                body: .upload(Self.ingestMediaTypes), answer: .document("IngestSummaryDocument")
            ) { api, request, context in
                try MediaTypes.require(request, oneOf: Self.ingestMediaTypes)
                return try await api.ingest(request, context, limit: api.settings.maxIngestBytes, options: IngestOptions())
            },
            Endpoint(
                method: .post, path: "/v1/health-auto-export",
                summary: "Take a Health Auto Export REST push (`{\"data\": {\"metrics\": […], \"workouts\": […]}}`); answers the ingest summary.",
                body: .upload(["application/json"]), answer: .document("IngestSummaryDocument")
            ) { api, request, context in
                try MediaTypes.require(request, oneOf: ["application/json"])
                // The app names its time grouping in this header; without it the reader infers it.
                let push = HealthAutoExportContext(aggregationHeader: request.headers[.automationAggregation], receivedAt: nil)
                return try await api.ingest(
                    request, context, limit: api.settings.maxPushBytes,
                    options: IngestOptions(healthAutoExport: push, expectedFormat: .healthAutoExport))
            },
        ]
    }

    /// Saves the body to a private file, ingests it, removes it, and answers the summary.
    fileprivate func ingest(_ request: Request, _ context: StrideRequestContext, limit: Int, options: IngestOptions) async throws -> Response {
        let device = context.sender
        var sent = options
        sent.sentBy = device
        sent.recordedName = "request"
        let options = sent
        let folder = uploads
        let (minimumRate, grace) = (settings.minimumUploadBytesPerSecond, settings.uploadGraceSeconds)
        // An ingest is heavy work: it is admitted before its body is read, so that a full
        // lane refuses it (503) before the client sends gigabytes. The body is saved (and
        // hashed) before the key is looked at: a body too large or too slow decided nothing,
        // and its retry runs again.
        return try await worker.admitHeavy {
            let upload = try await Upload.save(request, into: folder, limit: limit, minimumRate: minimumRate, grace: grace)
            defer { upload.remove() }
            return try await ingest(upload, of: request, from: device, options: options)
        }
    }

    /// Ingests a saved upload, once per `Idempotency-Key`, and answers the summary. Its
    /// samples and workouts carry identities of their own: a retry appends nothing whether or
    /// not the first answer was kept.
    private func ingest(_ upload: Upload, of request: Request, from device: String, options: IngestOptions) async throws -> Response {
        try await answers.answer(request, from: device, bodyDigest: upload.bodyDigest) { _ in
            var report: FileIngestReport
            do {
                report = try await worker.runHeavy { try $0.ingest(file: upload.path, options: options) }
            } catch let error as IngestError {
                let refusal = APIError.from(error)
                throw APIError(refusal.status, refusal.message.replacingOccurrences(of: upload.path, with: "the request's body"))
            }
            report.file = "request"
            report.counts.rejections = report.counts.rejections.map { $0.replacingOccurrences(of: upload.path, with: "request") }
            return (.ok, IngestSummaryDocument(reports: [report]).json)
        }
    }
}

extension HTTPField.Name {
    /// Health Auto Export's `automation-aggregation` header: the time grouping of its points.
    static let automationAggregation = HTTPField.Name("automation-aggregation")!
}
