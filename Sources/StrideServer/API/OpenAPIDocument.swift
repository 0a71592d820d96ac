import Hummingbird
import StrideEvents
import StrideLedger

extension StrideAPI {
    /// `GET /v1/openapi.json`: an OpenAPI 3.1 description of every endpoint, written from the
    /// same list the router is built from.
    static var openAPIEndpoint: Endpoint {
        Endpoint(method: .get, path: "/v1/openapi.json", summary: "This description of the API (OpenAPI 3.1).", answer: .openAPI) { _, _, _ in
            JSONAnswer(OpenAPIDocument(endpoints: StrideAPI.endpoints).json).response
        }
    }
}

/// The API described in OpenAPI 3.1.
struct OpenAPIDocument {
    let endpoints: [Endpoint]

    /// The top-level keys of each document (the contract's names; the README lists them whole).
    static let documents: [(name: String, command: String, keys: [String])] = [
        ("DailyDocument", "stride daily --json", ["timeZone", "days"]),
        ("DailyExplainDocument", "stride daily explain DATE --json", ["date", "timeZone", "measures"]),
        ("WorkoutsDocument", "stride workouts --json", ["workouts"]),
        ("ShoesDocument", "stride shoes list --json, stride mileage --json", ["shoes"]),
        ("ShoeAuditDocument", "stride mileage explain SHOE --json", ["shoe", "entries", "kilometers"]),
        ("NotificationsDocument", "stride notifications --json", ["notifications"]),
        ("PointsDocument", "stride points --json", ["balance", "earned", "spent", "history"]),
        ("JournalDocument", "stride journal list --json", ["entries"]),
        ("TrainingWeeksDocument", "stride training weeks --json", ["weeks", "settings"]),
        ("TrainingMonthsDocument", "stride training months --json", ["months", "settings"]),
        ("TrainingYearsDocument", "stride training years --json", ["years", "settings"]),
        ("TrainingEffortsDocument", "stride training efforts --json", ["efforts", "years", "fastestBelieved"]),
        ("TrainingZonesDocument", "stride training zones --json", ["zones", "weeks", "settings"]),
        ("TrainingLoadDocument", "stride training load --json", ["days", "constants", "settings"]),
        ("TrainingShoesDocument", "stride training shoes --json", ["day", "windowDays", "shoes"]),
        ("TrainingExplainDocument", "stride training explain KIND NAME --json", ["explain", "figures", "rules", "runs"]),
        ("AthleteDocument", "stride athlete show --json", ["today", "changes"]),
        ("LogDocument", "stride log --json", ["events"]),
        (
            "StatsDocument", "stride stats --json",
            ["events", "lastSequence", "byType", "samplesByHealthType", "repeatedSamples", "withdrawnSamples", "bytes", "timeZone"]
        ),
        ("ReplayDocument", "stride replay --until X --json", ["sequence", "shoes", "points", "days"]),
        ("IngestSummaryDocument", "stride ingest --json", ["files", "newEvents", "duplicates"]),
        ("WithdrawnSamplesDocument", "stride samples withdrawn --json", ["samples"]),
        ("ActionReport", "what an action did: the command's sentence and the action's fields", ["message"]),
        ("Error", "a refusal: the command line's sentence and the status", ["error", "status"]),
    ]

    var json: JSONValue {
        var paths: [String: [JSONValue.Member]] = [:]
        var order: [String] = []
        for endpoint in endpoints {
            if paths[endpoint.path] == nil { order.append(endpoint.path) }
            paths[endpoint.path, default: []].append(.init(endpoint.method.rawValue.lowercased(), operation(endpoint)))
        }
        return .object([
            "openapi": .string("3.1.0"),
            "info": .object([
                "title": .string("Stride"), "version": .string(StrideVersion.release),
                "description": .string(
                    "A runner's health ledger over HTTP. Reads answer the command line's --json documents; writes mirror its actions and take Idempotency-Key; every request carries Authorization: Bearer TOKEN (stride tokens add NAME)."
                ),
            ]),
            "security": .array([.object(["bearer": .array([])])]),
            "paths": .object(order.map { .init($0, .object(paths[$0] ?? [])) }),
            "components": .object([
                "securitySchemes": .object(["bearer": .object(["type": .string("http"), "scheme": .string("bearer")])]),
                "schemas": .object(
                    Self.documents.map { document in
                        .init(
                            document.name,
                            .object([
                                "type": .string("object"), "description": .string(document.command),
                                "required": .array(document.keys.map { .string($0) }),
                            ]))
                    }),
            ]),
        ])
    }

    private func operation(_ endpoint: Endpoint) -> JSONValue {
        var parameters = endpoint.query.map { field in
            JSONValue.object([
                "name": .string(field.name), "in": .string("query"), "required": .bool(field.isRequired),
                "description": .string(field.description), "schema": .object([.init("type", .string(field.type))] + field.limits),
            ])
        }
        func header(_ name: String, _ description: String, schema: [JSONValue.Member] = [.init("type", .string("string"))]) -> JSONValue {
            .object([
                "name": .string(name), "in": .string("header"), "required": .bool(false), "description": .string(description),
                "schema": .object(schema),
            ])
        }
        var responses: [JSONValue.Member] = []
        switch endpoint.answer {
        case .document(let name):
            responses.append(.init("200", Self.response("the document", schema: name)))
        case .action:
            responses.append(.init("200", Self.response("what the action did", schema: "ActionReport")))
            responses.append(.init("201", Self.response("what the action made", schema: "ActionReport")))
        case .eventStream:
            responses.append(
                .init(
                    "200", .object(["description": .string("events as they are committed"), "content": .object(["text/event-stream": .object([:])])]))
            )
            responses.append(.init("503", Self.response("too many streams are open", schema: "Error")))
            parameters.append(
                header(
                    "Last-Event-ID", "the last sequence seen: the stream resumes after it",
                    schema: [
                        .init("type", .string("integer")), .init("minimum", .integer(StrideAPI.sequences.lowerBound)),
                        .init("maximum", .integer(StrideAPI.sequences.upperBound)),
                    ]))
        case .openAPI:
            responses.append(
                .init("200", .object(["description": .string("this document"), "content": .object(["application/json": .object([:])])])))
        }
        if case .document = endpoint.answer, endpoint.method == .get {
            responses.append(.init("304", .object(["description": .string("the ledger has not changed since the ETag sent in If-None-Match")])))
            parameters.append(header("If-None-Match", "the ETag of an earlier answer"))
        }
        if endpoint.isWrite {
            parameters.append(
                header(
                    "Idempotency-Key",
                    "a retry with the same key and body appends nothing and gets the first answer (kept 24 hours, for 2xx, 409 and 422 only: after 400, 408, 413, 415 or 5xx the retry runs again); the key with another body is 422",
                    schema: [
                        .init("type", .string("string")), .init("minLength", .integer(1)),
                        .init("maxLength", .integer(RequestAnswers.longestKey)), .init("pattern", .string("^[!-~]+$")),
                    ]))
        }
        for (code, what) in [("400", "a parameter, field or body that cannot be read"), ("401", "no valid token")] {
            responses.append(.init(code, Self.response(what, schema: "Error")))
        }
        if !endpoint.isWrite, endpoint.query.contains(where: { ["shoe", "workout", "sample"].contains($0.name) }) {
            responses.append(.init("404", Self.response("no such shoe, workout or sample", schema: "Error")))
        }
        if endpoint.isHeavy {
            responses.append(.init("503", Self.response("the lane for heavy work is full; send it again after Retry-After seconds", schema: "Error")))
        }
        if case .upload = endpoint.body {
            for (code, what) in [
                ("408", "the body arrived too slowly; send it again"), ("507", "the server's disk is full"),
            ] {
                responses.append(.init(code, Self.response(what, schema: "Error")))
            }
        }
        if endpoint.isWrite {
            for (code, what) in [
                ("404", "no such shoe or workout"), ("409", "lost a race, or a name already taken"), ("413", "the body is too large"),
                ("415", "the body is of another media type"), ("422", "refused by a rule"),
            ] {
                responses.append(.init(code, Self.response(what, schema: "Error")))
            }
        }
        var members: [JSONValue.Member] = [
            .init("summary", .string(endpoint.summary)), .init("operationId", .string(Self.operationID(endpoint))),
            .init("parameters", .array(parameters)),
        ]
        switch endpoint.body {
        case .none: break
        case .json(let fields):
            let properties = fields.map { field in
                // An array field holds text (sample ids, say).
                let items: [JSONValue.Member] = field.type == "array" ? [.init("items", .object(["type": .string("string")]))] : []
                return JSONValue.Member(
                    field.name,
                    .object([.init("type", .string(field.type)), .init("description", .string(field.description))] + items + field.limits))
            }
            let schema = JSONValue.object([
                "type": .string("object"), "properties": .object(properties),
                "required": .array(fields.filter(\.isRequired).map { .string($0.name) }),
            ])
            members.append(
                .init("requestBody", .object(["required": .bool(true), "content": .object(["application/json": .object(["schema": schema])])])))
        case .upload(let types):
            let binary = JSONValue.object(["schema": .object(["type": .string("string"), "contentMediaType": .string("application/octet-stream")])])
            members.append(.init("requestBody", .object(["required": .bool(true), "content": .object(types.map { .init($0, binary) })])))
        }
        members.append(.init("responses", .object(responses)))
        return .object(members)
    }

    private static func response(_ description: String, schema: String) -> JSONValue {
        .object([
            "description": .string(description),
            "content": .object(["application/json": .object(["schema": .object(["$ref": .string("#/components/schemas/\(schema)")])])]),
        ])
    }

    /// `getDaily`, `postShoesRename`, …: the method and the path's words.
    static func operationID(_ endpoint: Endpoint) -> String {
        let words = endpoint.path.split(whereSeparator: { "/.-".contains($0) }).dropFirst().map(String.init)
        return endpoint.method.rawValue.lowercased() + words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}
