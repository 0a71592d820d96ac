import Hummingbird
import StrideContract
import StrideEvents
import StrideLedger
import TrainingLog

extension StrideAPI {
    /// The training log: each answers exactly the document of `stride training … --json`.
    static var trainingEndpoints: [Endpoint] {
        let volume = TrainingLog.Period.allCases.map { period in
            Endpoint(
                method: .get, path: "/v1/training/\(period.rawValue)s",
                summary:
                    "Runs, kilometres, time, climb, TRIMP, zones and kilometres per shoe per \(period.rawValue) (`stride training \(period.rawValue)s`).",
                query: trainingQuery, answer: .document("Training\(period.rawValue.capitalized)sDocument")
            ) { api, request, context in
                let query = try trainingQuery(request)
                return try await api.read(request, context) { try TrainingVolumeDocument($0, per: period, query.query(in: $0)) }
            }
        }
        return volume + [
            Endpoint(
                method: .get, path: "/v1/training/efforts",
                summary: "The best 400 m, 1 km, mile, 5 km, 10 km, half and marathon, all time and per year (`stride training efforts`).",
                query: trainingQuery, answer: .document("TrainingEffortsDocument")
            ) { api, request, context in
                let query = try trainingQuery(request)
                return try await api.read(request, context) { try TrainingEffortsDocument($0, query.query(in: $0)) }
            },
            Endpoint(
                method: .get, path: "/v1/training/zones",
                summary: "Time in the five heart-rate zones, in all and per week (`stride training zones`).",
                query: trainingQuery, answer: .document("TrainingZonesDocument")
            ) { api, request, context in
                let query = try trainingQuery(request)
                return try await api.read(request, context) { try TrainingZonesDocument($0, query.query(in: $0)) }
            },
            Endpoint(
                method: .get, path: "/v1/training/load", summary: "Each day's TRIMP, fitness, fatigue and form (`stride training load`).",
                query: trainingQuery, answer: .document("TrainingLoadDocument")
            ) { api, request, context in
                let query = try trainingQuery(request)
                return try await api.read(request, context) { try TrainingLoadDocument($0, query.query(in: $0)) }
            },
            Endpoint(
                method: .get, path: "/v1/training/shoes",
                summary: "When each shoe reaches its goal at its pace of the last eight weeks (`stride training shoes`).",
                query: trainingQuery, answer: .document("TrainingShoesDocument")
            ) { api, request, context in
                let query = try trainingQuery(request)
                return try await api.read(request, context) { try TrainingShoesDocument($0, query.query(in: $0)) }
            },
            Endpoint(
                method: .get, path: "/v1/training/explain",
                summary: "A week, month, year, best effort or day's load down to its runs and events (`stride training explain`).",
                query: [
                    .query("kind", "what to explain", required: true).oneOf(TrainingExplainDocument.Subject.kinds),
                    .query("name", "the week (2024-W03), month (2024-01), year (2024), distance (5k) or day (2024-01-15)", required: true),
                    .integer(
                        "year", "for an effort: the best of this year only",
                        in: TrainingExplainDocument.Subject.years.lowerBound...TrainingExplainDocument.Subject.years.upperBound),
                ] + trainingQuery,
                answer: .document("TrainingExplainDocument")
            ) { api, request, context in
                let parameters = QueryParameters(request: request)
                let query = try trainingQuery(request)
                let (kind, name) = (try parameters.required("kind"), try parameters.required("name"))
                let subject: TrainingExplainDocument.Subject
                do {
                    // The one reader of a subject, the command line's too: a malformed one is 400.
                    subject = try .init(kind: kind, name: name, year: try parameters.integer("year", in: Int.min...Int.max))
                } catch let malformed as MalformedSubject {
                    throw APIError.badField(malformed.part.rawValue, malformed.problem)
                }
                return try await api.read(request, context) { ledger in
                    do {
                        return try TrainingExplainDocument(ledger, subject, query.query(in: ledger))
                    } catch let unknown as TrainingExplainDocument.UnknownSubject {
                        // A well-formed subject with nothing behind it.
                        throw APIError(.notFound, unknown.description)
                    }
                }
            },
            Endpoint(
                method: .get, path: "/v1/athlete", summary: "The heart-rate settings as changed, and what holds today (`stride athlete show`).",
                answer: .document("AthleteDocument")
            ) { api, request, context in
                try await api.read(request, context) { try AthleteDocument($0) }
            },
        ]
    }

    /// `from`, `to`, `asOf` and `asRecorded`, as every training read takes them.
    static let trainingQuery: [Endpoint.Field] = [
        .query("from", "the first day, yyyy-MM-dd").format("date"), .query("to", "the last day, yyyy-MM-dd").format("date"),
        .query("asOf", "an instant, ISO 8601: as of that moment of the runner's life (the runs started by then, as the ledger knows them now)"),
        .query("asRecorded", "a sequence number or an instant, ISO 8601: what the ledger said then (not with asOf)"),
    ]

    /// The days and time a training read asks for, read by the contract's one builder of a
    /// training query (the command line's and the pages'); the sequence of `asRecorded` is found
    /// in the ledger it reads (``TrainingRequest/query(in:)``).
    /// - Throws: ``APIError`` (400) naming the parameter.
    static func trainingQuery(_ request: Request) throws -> TrainingRequest {
        let query = QueryParameters(request: request)
        do {
            return try TrainingRequest.read(
                from: query.text("from"), to: query.text("to"), asOf: query.text("asOf"), asRecorded: query.text("asRecorded"), spelling: .query)
        } catch {
            throw APIError.badField(error.name, error.problem)
        }
    }
}
