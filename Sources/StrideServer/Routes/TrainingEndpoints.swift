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
                return try await api.read(request, context) { try TrainingVolumeDocument($0, per: period, query.resolved(in: $0)) }
            }
        }
        return volume + [
            Endpoint(
                method: .get, path: "/v1/training/efforts",
                summary: "The best 400 m, 1 km, mile, 5 km, 10 km, half and marathon, all time and per year (`stride training efforts`).",
                query: trainingQuery, answer: .document("TrainingEffortsDocument")
            ) { api, request, context in
                let query = try trainingQuery(request)
                return try await api.read(request, context) { try TrainingEffortsDocument($0, query.resolved(in: $0)) }
            },
            Endpoint(
                method: .get, path: "/v1/training/zones",
                summary: "Time in the five heart-rate zones, in all and per week (`stride training zones`).",
                query: trainingQuery, answer: .document("TrainingZonesDocument")
            ) { api, request, context in
                let query = try trainingQuery(request)
                return try await api.read(request, context) { try TrainingZonesDocument($0, query.resolved(in: $0)) }
            },
            Endpoint(
                method: .get, path: "/v1/training/load", summary: "Each day's TRIMP, fitness, fatigue and form (`stride training load`).",
                query: trainingQuery, answer: .document("TrainingLoadDocument")
            ) { api, request, context in
                let query = try trainingQuery(request)
                return try await api.read(request, context) { try TrainingLoadDocument($0, query.resolved(in: $0)) }
            },
            Endpoint(
                method: .get, path: "/v1/training/shoes",
                summary: "When each shoe reaches its goal at its pace of the last eight weeks (`stride training shoes`).",
                query: trainingQuery, answer: .document("TrainingShoesDocument")
            ) { api, request, context in
                let query = try trainingQuery(request)
                return try await api.read(request, context) { try TrainingShoesDocument($0, query.resolved(in: $0)) }
            },
            Endpoint(
                method: .get, path: "/v1/training/explain",
                summary: "A week, month, year, best effort or day's load down to its runs and events (`stride training explain`).",
                query: [
                    .query("kind", "what to explain", required: true).oneOf(["week", "month", "year", "effort", "day"]),
                    .query("name", "the week (2024-W03), month (2024-01), year (2024), distance (5k) or day (2024-01-15)", required: true),
                    .integer("year", "for an effort: the best of this year only", in: 1970...9999),
                ] + trainingQuery,
                answer: .document("TrainingExplainDocument")
            ) { api, request, context in
                let parameters = QueryParameters(request: request)
                let query = try trainingQuery(request)
                let (kind, name) = (try parameters.required("kind"), try parameters.required("name"))
                let subject: TrainingExplainDocument.Subject
                switch kind {
                case "week", "month", "year":
                    subject = .period(TrainingLog.Period(rawValue: kind)!, name)
                case "effort":
                    subject = .effort(name, year: try parameters.integer(Endpoint.Field.integer("year", "", in: 1970...9999)))
                case "day":
                    guard let day = CivilDate(name) else { throw APIError.badField("name", "\"\(name)\" is not a day like 2024-01-15") }
                    subject = .day(day)
                default:
                    throw APIError.badField("kind", "\"\(kind)\" is nothing to explain; give week, month, year, effort or day")
                }
                return try await api.read(request, context) { ledger in
                    do {
                        return try TrainingExplainDocument(ledger, subject, query.resolved(in: ledger))
                    } catch let unknown as TrainingExplainDocument.UnknownSubject {
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

    /// The days and time a training read asks for; the sequence of `asRecorded` is found in the
    /// ledger it reads (``TrainingRequest/resolved(in:)``).
    static func trainingQuery(_ request: Request) throws -> TrainingRequest {
        let query = QueryParameters(request: request)
        let (from, to) = (try query.day("from"), try query.day("to"))
        if let from, let to, to < from { throw APIError.badField("to", "\(to) comes before from \(from)") }
        return TrainingRequest(from: from, to: to, travel: try query.timeTravel())
    }
}

/// A training read's days and time, before the ledger is open.
struct TrainingRequest: Sendable {
    var from: CivilDate?
    var to: CivilDate?
    var travel: TimeTravel?

    func resolved(in ledger: Ledger) throws -> TrainingQuery {
        var asOf: Timestamp?
        if case .asOf(let instant) = travel { asOf = instant }
        return TrainingQuery(from: from, to: to, asOf: asOf, asRecordedThrough: try travel?.recordedSequence(in: ledger))
    }
}
