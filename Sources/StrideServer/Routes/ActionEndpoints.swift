import Hummingbird
import StrideContract
import StrideEvents
import StrideLedger

extension StrideAPI {
    /// Answers an action: reads its JSON body into typed values (`parse`), runs what they
    /// describe on the ledger, and answers its report; once per `Idempotency-Key`. An action
    /// whose client has gone by the time its turn on a ledger thread comes is not started.
    func action(
        _ request: Request, _ context: StrideRequestContext, status: HTTPResponse.Status = .ok,
        _ parse: @escaping @Sendable (JSONFields) throws -> @Sendable (Ledger, String) throws -> ActionReport
    ) async throws -> Response {
        let device = context.sender
        let limit = settings.maxActionBytes
        let body = try await JSONFields.body(of: request, limit: limit)
        return try await answers.answer(request, from: device, bodyDigest: SHA256Stream.hex(of: Array(body.readableBytesView))) { stamp in
            let perform = try parse(try JSONFields.parse(body))
            let isConnected = context.isConnected
            let work: @Sendable (Ledger) throws -> ActionReport = { ledger in
                guard isConnected() else { throw CancellationError() }
                return try perform(stamp.map(ledger.acting(for:)) ?? ledger, device)
            }
            let report = try await worker.run(work)
            return (status, report.json)
        }
    }

    /// The fields every action takes: `at`, when it happened (ISO 8601; default now).
    static let atField = Endpoint.Field.query("at", "when it happened, ISO 8601 with an offset (default: now; never ahead of the clock)").format(
        "date-time")

    /// The shoe rack's actions, and putting runs on shoes.
    static var shoeEndpoints: [Endpoint] {
        [
            Endpoint(
                method: .post, path: "/v1/shoes", summary: "Add a shoe to the rack (`stride shoes add`).",
                body: .json([
                    .query("name", "the shoe's name", required: true).longest(Plausible.nameCharacters),
                    .query("brand", "the maker").longest(Plausible.nameCharacters),
                    .query("startKilometers", "kilometres run before it joined the ledger (default 0)", type: "number").within(
                        Plausible.shoeStartKilometres),
                    .query("goalKilometers", "kilometres after which it should be replaced", type: "number").within(
                        Plausible.shoeGoalKilometres),
                    .query("isDefault", "make it the default shoe: new runs go to it", type: "boolean"), Self.atField,
                ]),
                answer: .action
            ) { api, request, context in
                try await api.action(request, context, status: .created) { fields in
                    let name = try fields.requiredText("name").trimmingCharacters(in: .whitespaces)
                    let brand = try fields.text("brand")
                    let start = try fields.number("startKilometers") ?? 0
                    guard start >= 0 else { throw APIError.badField("startKilometers", "must be 0 or more") }
                    let goal = try fields.number("goalKilometers")
                    if let goal, goal <= 0 { throw APIError.badField("goalKilometers", "must be more than 0") }
                    let isDefault = try fields.flag("isDefault")
                    let at = try fields.instant()
                    return { ledger, device in
                        let id = try ledger.registerShoe(
                            name: name, brand: brand, startKilometers: start, goalKilometers: goal, makeDefault: isDefault, at: at, sentBy: device)
                        return .shoeAdded(name: name, id: id, isDefault: isDefault)
                    }
                }
            },
            Endpoint(
                method: .post, path: "/v1/shoes/rename", summary: "Rename a shoe (`stride shoes rename`).",
                body: .json([
                    .query("shoe", "the shoe, by id or name", required: true),
                    .query("name", "its new name", required: true).longest(Plausible.nameCharacters), Self.atField,
                ]
                ),
                answer: .action
            ) { api, request, context in
                try await api.action(request, context) { fields in
                    let (shoe, name, at) = (try fields.requiredText("shoe"), try fields.requiredText("name"), try fields.instant())
                    return { ledger, device in
                        try ledger.renameShoe(shoe, to: name, at: at, sentBy: device)
                        return .shoeRenamed(shoe, to: name)
                    }
                }
            },
            retirement(isRetired: true), retirement(isRetired: false),
            Endpoint(
                method: .post, path: "/v1/shoes/default", summary: "Choose the default shoe, or clear it with null (`stride shoes default`).",
                body: .json([.query("shoe", "the shoe, by id or name; null clears the default", required: true), Self.atField]),
                answer: .action
            ) { api, request, context in
                try await api.action(request, context) { fields in
                    guard fields.has("shoe") else { throw APIError.badField("shoe", "give a shoe, or null to clear the default") }
                    let (shoe, at) = (try fields.text("shoe"), try fields.instant())
                    return { ledger, device in
                        try ledger.setDefaultShoe(shoe, at: at, sentBy: device)
                        return .defaultShoe(shoe)
                    }
                }
            },
            Endpoint(
                method: .post, path: "/v1/assign", summary: "Put a run on a shoe, moving it from another (`stride assign`).",
                body: .json([
                    .query("workout", "the workout's id from /v1/workouts, or a unique prefix", required: true),
                    .query("shoe", "the shoe, by id or name", required: true), Self.atField,
                ]),
                answer: .action
            ) { api, request, context in
                try await api.action(request, context) { fields in
                    let (workout, shoe, at) = (try fields.requiredText("workout"), try fields.requiredText("shoe"), try fields.instant())
                    return { ledger, device in
                        try ledger.assign(workout: workout, to: shoe, at: at, sentBy: device)
                        return .assigned(workout, to: shoe)
                    }
                }
            },
            workoutChange(path: "/v1/unassign", summary: "Take a workout off its shoe (`stride unassign`).") { ledger, workout, at, device in
                try ledger.unassign(workout: workout, at: at, sentBy: device)
                return .unassigned(workout)
            },
            workoutChange(
                path: "/v1/exclude",
                summary: "Keep a run off every shoe but one you put it on: off the default shoe and an archive's (`stride exclude`)."
            ) {
                ledger, workout, at, device in
                try ledger.exclude(workout: workout, at: at, sentBy: device)
                return .excluded(workout)
            },
            sameRun(true), sameRun(false),
        ]
    }

    /// `stride workouts same` and `different`.
    private static func sameRun(_ isSameRun: Bool) -> Endpoint {
        Endpoint(
            method: .post, path: isSameRun ? "/v1/workouts/same" : "/v1/workouts/different",
            summary: isSameRun
                ? "Say two workouts are one run, recorded twice: counted once (`stride workouts same`)."
                : "Say two workouts are different runs: each counted on its own (`stride workouts different`).",
            body: .json([
                .query("workout", "one workout, by id or a unique prefix", required: true),
                .query("other", "the other workout", required: true), Self.atField,
            ]),
            answer: .action
        ) { api, request, context in
            try await api.action(request, context) { fields in
                let (workout, other, at) = (try fields.requiredText("workout"), try fields.requiredText("other"), try fields.instant())
                return { ledger, device in
                    try ledger.decideSameRun(workout, other, isSameRun: isSameRun, at: at, sentBy: device)
                    return .sameRun(workout, other, isSameRun: isSameRun)
                }
            }
        }
    }

    private static func retirement(isRetired: Bool) -> Endpoint {
        Endpoint(
            method: .post, path: isRetired ? "/v1/shoes/retire" : "/v1/shoes/unretire",
            summary: isRetired
                ? "Retire a shoe: it takes no new runs (`stride shoes retire`)." : "Bring a retired shoe back (`stride shoes unretire`).",
            body: .json([.query("shoe", "the shoe, by id or name", required: true), Self.atField]), answer: .action
        ) { api, request, context in
            try await api.action(request, context) { fields in
                let (shoe, at) = (try fields.requiredText("shoe"), try fields.instant())
                return { ledger, device in
                    try ledger.setRetired(shoe, isRetired, at: at, sentBy: device)
                    return .shoeRetirement(shoe, isRetired: isRetired)
                }
            }
        }
    }

    private static func workoutChange(
        path: String, summary: String, _ perform: @escaping @Sendable (Ledger, String, Timestamp?, String) throws -> ActionReport
    ) -> Endpoint {
        Endpoint(
            method: .post, path: path, summary: summary,
            body: .json([.query("workout", "the workout's id, or a unique prefix", required: true), Self.atField]), answer: .action
        ) { api, request, context in
            try await api.action(request, context) { fields in
                let (workout, at) = (try fields.requiredText("workout"), try fields.instant())
                return { ledger, device in try perform(ledger, workout, at, device) }
            }
        }
    }

    /// Check-ins, the journal and spending points.
    static var pointsEndpoints: [Endpoint] {
        [
            Endpoint(
                method: .post, path: "/v1/checkin", summary: "Check in for the day of `at`: +1 point, once a day (`stride checkin`).",
                body: .json([Self.atField]), answer: .action
            ) { api, request, context in
                try await api.action(request, context) { fields in
                    let at = try fields.instant()
                    return { ledger, device in .checkedIn(try ledger.checkIn(at: at, sentBy: device)) }
                }
            },
            Endpoint(
                method: .post, path: "/v1/journal", summary: "Add a journal entry: the day's first and fifth earn 3 points (`stride journal add`).",
                body: .json([.query("text", "the entry", required: true).longest(Plausible.journalCharacters), Self.atField]), answer: .action
            ) { api, request, context in
                try await api.action(request, context, status: .created) { fields in
                    let (text, at) = (try fields.requiredText("text"), try fields.instant())
                    return { ledger, device in .journalEntry(try ledger.addJournalEntry(text, at: at, sentBy: device)) }
                }
            },
            Endpoint(
                method: .post, path: "/v1/points/spend", summary: "Spend points, only what the balance covers (`stride points spend`).",
                body: .json([
                    .query("points", "how many, 1 or more", type: "integer", required: true).within(Plausible.pointsSpent),
                    .query("reason", "what they are for", required: true).longest(Plausible.reasonCharacters),
                    .query("reopen", "a past day (yyyy-MM-dd) to reopen: a check-in or journal entry for it earns from then on").format("date"),
                    Self.atField,
                ]),
                answer: .action
            ) { api, request, context in
                try await api.action(request, context) { fields in
                    guard let points = try fields.integer("points", required: true), points >= 1 else {
                        throw APIError.badField("points", "spend 1 point or more")
                    }
                    let (reason, at, day) = (try fields.requiredText("reason"), try fields.instant(), try fields.day("reopen"))
                    return { ledger, device in
                        .spent(
                            points, reason: reason, reopening: day,
                            balance: try ledger.spend(points, reason: reason, reopening: day, at: at, sentBy: device))
                    }
                }
            },
        ]
    }
}
