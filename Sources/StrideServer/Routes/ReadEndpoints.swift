import DailyHealth
import Hummingbird
import StrideContract
import StrideDashboard
import StrideEvents
import StrideLedger

extension StrideAPI {
    /// The reads: each answers exactly the document of the command line's `--json`.
    static var readEndpoints: [Endpoint] {
        [
            Endpoint(
                method: .get, path: "/v1/daily", summary: "Daily health records of a range of local days (`stride daily`).",
                query: [.query("from", "the first day, yyyy-MM-dd").format("date"), .query("to", "the last day, yyyy-MM-dd").format("date")],
                answer: .document("DailyDocument")
            ) { api, request, context in
                let query = QueryParameters(request: request)
                let (from, to) = (try query.day("from"), try query.day("to"))
                if let from, let to, to < from { throw APIError.badField("to", "\(to) comes before from \(from)") }
                return try await api.read(request, context) { try DailyDocument($0, from: from, through: to) }
            },
            Endpoint(
                method: .get, path: "/v1/daily/explain", summary: "A day's figures down to their samples (`stride daily explain`).",
                query: [
                    .query("date", "the day, yyyy-MM-dd", required: true).format("date"),
                    .query("measure", "one measure (default: every one)").oneOf(DailyExplainDocument.measureNames),
                    Self.explainLimit, Self.explainOffset,
                ],
                answer: .document("DailyExplainDocument")
            ) { api, request, context in
                let query = QueryParameters(request: request)
                guard let day = try query.day("date") else { throw APIError.badField("date", "this parameter is required") }
                let measures =
                    try query.text("measure").map { name -> [Measure] in
                        guard let measure = DailyExplainDocument.measure(named: name) else {
                            throw APIError.badField("measure", DailyExplainDocument.measureRefusal(name))
                        }
                        return [measure]
                    } ?? []
                let limit = try query.integer(Self.explainLimit) ?? 200
                let offset = try query.integer(Self.explainOffset) ?? 0
                return try await api.read(request, context) {
                    try DailyExplainDocument($0, day: day, measures: measures, offset: offset, limit: limit)
                }
            },
            Endpoint(
                method: .get, path: "/v1/workouts", summary: "Workouts with their shoes (`stride workouts`).",
                query: [
                    .query("from", "the first day, yyyy-MM-dd").format("date"), .query("to", "the last day, yyyy-MM-dd").format("date"),
                    .query("unassigned", "only workouts on no shoe", type: "boolean"),
                ],
                answer: .document("WorkoutsDocument")
            ) { api, request, context in
                let query = QueryParameters(request: request)
                let (from, to, unassigned) = (try query.day("from"), try query.day("to"), try query.flag("unassigned"))
                return try await api.read(request, context) { try WorkoutsDocument($0, from: from, through: to, unassignedOnly: unassigned) }
            },
            Endpoint(
                method: .get, path: "/v1/shoes", summary: "The shoe rack with each shoe's kilometres (`stride shoes list`).",
                answer: .document("ShoesDocument")
            ) { api, request, context in
                try await api.read(request, context) { try ShoesDocument($0) }
            },
            Endpoint(
                method: .get, path: "/v1/mileage", summary: "Kilometres per shoe, now or as of a time (`stride mileage`).",
                query: [
                    .query("shoe", "one shoe, by id or name"),
                    .query(
                        "asOf",
                        "an instant, ISO 8601: as of that moment of the runner's life, what had happened by then as the ledger "
                            + "knows it now (each shoe's starting km plus the runs on it now that had started by then; shoes added "
                            + "later left out). A sequence number is refused: use asRecorded"),
                    .query(
                        "asRecorded",
                        "a sequence number or an instant, ISO 8601: what the ledger said then, the events recorded by that point "
                            + "from the nearest snapshot (not with asOf)"),
                ],
                answer: .document("ShoesDocument")
            ) { api, request, context in
                let query = QueryParameters(request: request)
                let (shoe, travel) = (query.text("shoe"), try query.timeTravel())
                return try await api.read(request, context) { ledger in
                    var asOf: Timestamp?
                    if case .asOf(let instant) = travel { asOf = instant }
                    return try ShoesDocument(ledger, shoe: shoe, asOf: asOf, asRecordedThrough: travel?.recordedSequence(in: ledger))
                }
            },
            Endpoint(
                method: .get, path: "/v1/mileage/explain", summary: "Every event that moved a shoe's kilometres (`stride mileage explain`).",
                query: [.query("shoe", "the shoe, by id or name", required: true)], answer: .document("ShoeAuditDocument")
            ) { api, request, context in
                let shoe = try QueryParameters(request: request).required("shoe")
                return try await api.read(request, context) { try ShoeAuditDocument($0, shoe: shoe) }
            },
            Endpoint(
                method: .get, path: "/v1/notifications", summary: "The outbox: a note per new run, one when a shoe reaches its goal.",
                answer: .document("NotificationsDocument")
            ) { api, request, context in
                try await api.read(request, context) { try NotificationsDocument($0) }
            },
            Endpoint(
                method: .get, path: "/v1/points", summary: "The points balance, earned, spent and history (`stride points`).",
                query: Self.historyPage, answer: .document("PointsDocument")
            ) { api, request, context in
                try await api.pointsPage(request, context)
            },
            Endpoint(
                method: .get, path: "/v1/points/history", summary: "Every award and spend, or a page of them (`stride points history`).",
                query: Self.historyPage, answer: .document("PointsDocument")
            ) { api, request, context in
                try await api.pointsPage(request, context)
            },
            Endpoint(
                method: .get, path: "/v1/journal", summary: "The journal's entries (`stride journal list`).", answer: .document("JournalDocument")
            ) { api, request, context in
                try await api.read(request, context) { try JournalDocument($0) }
            },
            Endpoint(
                method: .get, path: "/v1/log", summary: "The raw events, decoded, a page at a time (`stride log`).",
                query: [
                    Self.logFrom, Self.logBefore, Self.logLimit, .query("type", "only events of this type, e.g. shoe.registered"),
                ],
                answer: .document("LogDocument")
            ) { api, request, context in
                let query = QueryParameters(request: request)
                let given = try query.integer(Self.logFrom)
                let before = try query.integer(Self.logBefore).map(UInt64.init)
                let limit = try query.integer(Self.logLimit) ?? 100
                if let before {
                    guard given == nil, query.text("type") == nil else {
                        throw APIError.badField("before", "pages back from a sequence by itself: give before, or from (and type)")
                    }
                    return try await api.read(request, context) { try LogDocument($0, before: before, limit: limit) }
                }
                let from = UInt64(given ?? 1)
                var type: EventType?
                if let name = query.text("type") {
                    guard let known = EventType.known(name: name) else {
                        throw APIError.badField(
                            "type",
                            "unknown event type \"\(name.shownInMessage)\"; use one of: \(EventType.catalog.map(\.name).joined(separator: ", "))")
                    }
                    type = known
                }
                return try await api.read(request, context) { [type] in try LogDocument($0, from: from, limit: limit, type: type) }
            },
            Endpoint(
                method: .get, path: "/v1/stats", summary: "How many events the ledger holds, by type (`stride stats`).",
                answer: .document("StatsDocument")
            ) { api, request, context in
                try await api.read(request, context) { try StatsDocument($0) }
            },
            Endpoint(
                method: .get, path: "/v1/replay", summary: "Every projection as of a sequence or a time, computed in memory (`stride replay`).",
                query: [.query("until", "a sequence number, or an instant: what the ledger had recorded by then", required: true)],
                answer: .document("ReplayDocument")
            ) { api, request, context in
                let until = try QueryParameters(request: request).required("until")
                if let sequence = UInt64(until) {
                    return try await api.read(request, context) { try ReplayDocument($0, through: sequence) }
                }
                guard let instant = ISO8601.parse(until) else {
                    throw APIError.badField(
                        "until", "\"\(until.shownInMessage)\" is neither a sequence number nor an instant like 2024-05-01T08:00:00+02:00")
                }
                return try await api.read(request, context) { try ReplayDocument($0, recordedBy: instant) }
            },
        ]
    }

    /// `limit` and `offset` of a day explained.
    static let explainLimit = Endpoint.Field.integer(
        "limit", "the most samples listed per measure (default 200)", in: 1...Ledger.longestExplainPage)
    static let explainOffset = Endpoint.Field.integer("offset", "skip this many samples of each measure first (default 0)", in: 0...Int(Int32.max))
    /// `from`, `before` and `limit` of the log's pages.
    static let logFrom = Endpoint.Field.integer("from", "the first sequence (default 1)", in: 1...Int.max)
    static let logBefore = Endpoint.Field.integer(
        "before", "instead of from: the page of events just before this sequence, to page back from the latest", in: 1...Int.max)
    static let logLimit = Endpoint.Field.integer("limit", "the most events (default 100)", in: 0...10_000)
    /// `limit` and `before` of the points history's pages.
    static let historyLimit = Endpoint.Field.integer(
        "limit", "a page of at most this many lines, the latest first found (default: the whole history)", in: 1...1_000)
    static let historyBefore = Endpoint.Field.integer(
        "before", "with limit: the lines before this sequence (the page's `earlier` gives the next)", in: 1...Int.max)
    static let historyPage = [historyLimit, historyBefore]

    /// The points document, whole or a page of its history.
    fileprivate func pointsPage(_ request: Request, _ context: StrideRequestContext) async throws -> Response {
        let query = QueryParameters(request: request)
        let limit = try query.integer(Self.historyLimit)
        let before = try query.integer(Self.historyBefore).map(UInt64.init)
        if before != nil, limit == nil { throw APIError.badField("before", "goes with limit: say how many lines a page holds") }
        guard let limit else { return try await read(request, context) { try PointsDocument($0) } }
        return try await read(request, context) { try PointsDocument($0, limit: limit, before: before) }
    }
}
