import DailyHealth
import Foundation
import Hummingbird
import StrideContract
import StrideDashboard
import StrideEvents
import StrideLedger

/// The runner's dashboard as the server serves it: the pages at `/`, the sign-in form, and the
/// pages' forms, each carried out by the API endpoint that does the same (so a form and an API
/// call are one code path, with one set of refusals).
struct DashboardSite: Sendable {
    /// The session cookie's name.
    static let cookieName = "stride_session"
    /// The sign-in page and form.
    static let signInPath = FormAction.signIn.rawValue
    /// A `Set-Cookie` value that removes the session cookie.
    static let clearedCookie = "\(cookieName)=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict"

    let api: StrideAPI
    let sessions: Sessions
    /// The API's actions, by path: the forms are sent on to them (with this site's API).
    static let actions = Dictionary(StrideAPI.endpoints.filter(\.isWrite).map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
    /// Proxies believed, and the public URL (``RequestOrigin``).
    let trustedProxies: Set<String>
    let publicURL: String?

    init(api: StrideAPI, sessions: Sessions) {
        self.api = api
        self.sessions = sessions
        trustedProxies = api.settings.trustedProxies
        publicURL = api.settings.publicURL
    }

    /// The pages' paths and what each shows.
    static let pages: [(path: String, page: @Sendable (QueryParameters) throws -> Dashboard.Page)] = [
        ("/", { _ in .overview }),
        ("/daily", { query in .daily(from: try query.day("from"), through: try query.day("to")) }),
        (
            "/daily/explain",
            { query in
                guard let date = try query.day("date") else { throw APIError.badField("date", "this parameter is required") }
                let measure = try query.text("measure").map { name -> Measure in
                    guard let measure = DailyExplainDocument.measure(named: name) else {
                        throw APIError.badField("measure", DailyExplainDocument.measureRefusal(name))
                    }
                    return measure
                }
                return .dailyExplain(date: date, measure: measure, offset: try query.integer(StrideAPI.explainOffset) ?? 0)
            }
        ),
        ("/shoes", { _ in .shoes }),
        ("/shoes/audit", { query in .audit(shoe: try query.required("shoe")) }),
        ("/training", { _ in .training }),
        ("/points", { _ in .points }),
        (
            "/log",
            { query in
                let from = try query.integer("from", in: 1...Int.max).map(UInt64.init)
                let limit = try query.integer("limit", in: 1...500)
                var type: EventType?
                if let name = query.text("type") {
                    guard let known = EventType.known(name: name) else {
                        throw APIError.badField("type", "unknown event type \"\(name.shownInMessage)\"")
                    }
                    type = known
                }
                return .log(from: from, limit: limit, type: type)
            }
        ),
    ]

    /// Adds the pages, the sign-out and the forms to `pages` (the group behind
    /// ``SessionMiddleware``; the sign-in is ``SignInPage``): each is shown or carried out by
    /// the dashboard of the site the session is for.
    static func register(on pages: RouterGroup<StrideRequestContext>) {
        for (path, page) in Self.pages {
            pages.get(RouterPath(path)) { request, context in
                var context = context
                context.lane = Lane.of(request)
                return try await context.runnerSite().dashboard.show(request, context, page)
            }
        }
        pages.post(RouterPath(FormAction.signOut.rawValue)) { request, context in
            let dashboard = try context.runnerSite().dashboard
            let session = try await dashboard.checkedForm(request, context).session
            await dashboard.sessions.close(id: session.id)
            return HTMLAnswer.seeOther(Self.signInPath, headers: [.setCookie: Self.clearedCookie])
        }
        for action in FormAction.allCases where action != .signIn && action != .signOut {
            pages.post(RouterPath(action.rawValue)) { request, context in try await context.runnerSite().dashboard.send(action, request, context) }
        }
    }

    /// A page, for the session's device, at the time travel asked for.
    func show(
        _ request: Request, _ context: StrideRequestContext, _ page: @Sendable (QueryParameters) throws -> Dashboard.Page
    ) async throws -> Response {
        guard let session = context.session else { return SessionMiddleware.refuse(request, ended: false) }
        let query = QueryParameters(request: request)
        let asked: Dashboard.Page
        var travel: TimeTravel?
        do {
            asked = try page(query)
            travel = try query.timeTravel()
        } catch {
            return HTMLAnswer.page(Dashboard.problem(title: "This page cannot be shown", message: APIError.from(error).message), status: .badRequest)
        }
        let notice = await sessions.takeNotice(of: session.id)
        let pageContext = PageContext(forms: .shown(csrf: session.csrf), timeTravel: travel, notice: notice)
        let chosen = asked
        do {
            // One view of the ledger, as for the API's reads, in the lane the route table chose
            // (a page as recorded replays the log: the heavy lane).
            let html = try await api.inView(of: context) { ledger in
                try Dashboard.render(page: chosen, ledger: ledger, context: pageContext)
            }
            return HTMLAnswer.page(html)
        } catch {
            let refusal = APIError.from(error)
            return HTMLAnswer.page(Dashboard.problem(title: "This page cannot be shown", message: refusal.message), status: refusal.status)
        }
    }

    /// Where the browser that sent `request` reached the server.
    private func origin(of request: Request, _ context: StrideRequestContext) -> RequestOrigin {
        RequestOrigin.of(request, context, trustedProxies: trustedProxies, publicURL: publicURL)
    }

    /// A form from a signed-in page: its fields, once the session and its CSRF value check.
    func checkedForm(_ request: Request, _ context: StrideRequestContext) async throws -> (session: Sessions.Session, fields: FormFields) {
        guard let session = context.session else { throw APIError.unauthorized }
        try SameSite.check(request, from: origin(of: request, context))
        let fields = try await FormFields.read(request)
        guard let sent = fields["csrf"], Self.sameBytes(sent, session.csrf) else {
            throw APIError(.forbidden, "the form is out of date or was not sent from this dashboard; reload the page and send it again")
        }
        return (session, fields)
    }

    /// Carries out a form through the API endpoint that does the same, then goes back to the
    /// page it came from with the outcome said at its top.
    func send(_ action: FormAction, _ request: Request, _ context: StrideRequestContext) async throws -> Response {
        let (session, fields) = try await checkedForm(request, context)
        let notice: Notice
        do {
            guard let path = Self.formRoutes[action]?.endpoint, let endpoint = Self.actions[path] else {
                throw APIError(.notFound, "this form has no action on this server")
            }
            let body = try fields.json(for: endpoint)
            let forwarded = Request(
                head: HTTPRequest(method: .post, scheme: nil, authority: nil, path: path, headerFields: [.contentType: "application/json"]),
                body: RequestBody(buffer: ByteBuffer(bytes: body.bytes)))
            let answer = try await endpoint.handler(api, forwarded, context)
            let said = try await Self.sentence(of: answer)
            notice = answer.status.code < 400 ? Notice(said ?? "Done.") : Notice(said ?? answer.status.reasonPhrase, isRefusal: true)
        } catch {
            notice = Notice(APIError.from(error).message, isRefusal: true)
        }
        await sessions.say(notice, to: session.id)
        return HTMLAnswer.seeOther(Self.formRoutes[action]?.returnsTo ?? "/")
    }

    /// The API route that carries out each form, and the page the form goes back to.
    static let formRoutes: [FormAction: (endpoint: String, returnsTo: String)] = [
        .addShoe: ("/v1/shoes", "/shoes"), .renameShoe: ("/v1/shoes/rename", "/shoes"), .retireShoe: ("/v1/shoes/retire", "/shoes"),
        .unretireShoe: ("/v1/shoes/unretire", "/shoes"), .defaultShoe: ("/v1/shoes/default", "/shoes"), .assign: ("/v1/assign", "/shoes"),
        .unassign: ("/v1/unassign", "/shoes"), .exclude: ("/v1/exclude", "/shoes"), .checkIn: ("/v1/checkin", "/points"),
        .journal: ("/v1/journal", "/points"),
    ]

    /// The sentence of an action's JSON answer: its `message`, or a refusal's `error`.
    private static func sentence(of response: Response) async throws -> String? {
        let collected = CollectedBody()
        try await response.body.write(collected)
        let parsed = try? Array(collected.buffer.readableBytesView).withUnsafeBytes { try JSONParser.parse($0) }
        guard case .object(let object) = parsed else { return nil }
        for key in ["message", "error"] { if case .string(let text) = object[key] { return text } }
        return nil
    }

    /// Compares two strings in time that depends on their length only.
    static func sameBytes(_ first: String, _ second: String) -> Bool {
        let (a, b) = (Array(first.utf8), Array(second.utf8))
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

/// An answer's body, collected (an action's answer is one small JSON object).
private final class CollectedBody: ResponseBodyWriter {
    var buffer = ByteBuffer()

    func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        self.buffer.writeBuffer(&buffer)
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
