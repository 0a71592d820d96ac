import DailyHealth
import StrideContract
import StrideEvents
import StrideLedger

/// The runner's dashboard as HTML: each page a whole HTML5 document (inline CSS, inline SVG
/// charts, no script, nothing from the network), rendered from the contract's documents.
///
/// A page is read, then rendered: ``read(_:from:context:)`` reads the contract documents a
/// page needs (and, for the past, replays the ledger in memory); ``render(_:)`` turns them
/// into HTML without touching the ledger. ``render(page:ledger:context:)`` does both. The
/// split lets a benchmark time reading alone against reading and rendering.
public enum Dashboard {
    /// A page and what it is asked for.
    public enum Page: Sendable, Hashable {
        /// The last seven days at a glance, the shoes nearest their goal, new notifications, the balance.
        case overview
        /// Daily records from `from` through `through` (thirty days to the last day with
        /// data when neither is given).
        case daily(from: CivilDate?, through: CivilDate?)
        /// One day's measure down to its samples (steps when none is given), from a sample on.
        case dailyExplain(date: CivilDate, measure: Measure?, offset: Int)
        /// The rack, runs per week, and the forms.
        case shoes
        /// A shoe's audit: the shoe's id (or its name).
        case audit(shoe: String)
        /// The training log: weekly volume by shoe, fitness and fatigue, efforts, zones.
        case training
        /// Balance, history, journal, check-in and journal forms.
        case points
        /// Events from a sequence (the latest page when nil), at most `limit` (default 50,
        /// at most 500), only of `type` when given.
        case log(from: UInt64?, limit: Int?, type: EventType?)
    }

    /// A page's documents, read and ready to render.
    public struct PageData {
        let page: Page
        let context: PageContext
        let past: PageReader.Past?
        let lived: Timestamp?
        let time: LocalTime
        let content: Content

        enum Content {
            case overview(OverviewPage.Content)
            case daily(DailyPage.Content)
            case explain(ExplainPage.Content)
            case shoes(ShoesPage.Content)
            case audit(AuditPage.Content)
            case points(PointsPage.Content)
            case training(TrainingPage.Content)
            case log(LogPage.Content)
        }
    }

    /// Reads what `page` shows, as the ledger stands or as it stood at the context's time
    /// travel.
    /// - Throws: `ShoeError.unknownShoe` for an audit of a shoe the ledger does not know;
    ///   a storage failure, or an `EventLogFault` naming an event a replay cannot read.
    public static func read(_ page: Page, from ledger: Ledger, context: PageContext) throws -> PageData {
        let reader = try PageReader(ledger, context: context, figures: page.figures)
        let content: PageData.Content
        switch page {
        case .overview: content = .overview(try OverviewPage.read(reader))
        case .daily(let first, let last): content = .daily(try DailyPage.read(reader, from: first, through: last))
        case .dailyExplain(let date, let measure, let offset):
            content = .explain(try ExplainPage.read(reader, day: date, measure: measure, offset: offset))
        case .shoes: content = .shoes(try ShoesPage.read(reader))
        case .audit(let shoe): content = .audit(try AuditPage.read(reader, shoe: shoe))
        case .points: content = .points(try PointsPage.read(reader))
        case .training: content = .training(try TrainingPage.read(reader))
        case .log(let first, let limit, let type): content = .log(try LogPage.read(reader, from: first, limit: limit, type: type))
        }
        return PageData(page: page, context: context, past: reader.past, lived: reader.lived, time: reader.time, content: content)
    }

    /// The page as one HTML document, from what ``read(_:from:context:)`` read.
    public static func render(_ data: PageData) -> String {
        var links = data.context.links
        if let lived = data.lived { links.asOf = data.time.format(lived) }
        if let past = data.past { links.asRecorded = String(past.sequence) }
        var csrf: String?
        if case .shown(let value) = data.context.forms, data.past == nil, data.lived == nil { csrf = value }
        let render = RenderContext(links: links, csrf: csrf, level: 1, idPrefix: "")
        let (title, section, main) = body(data.content, render)
        let banner =
            Shell.banner(data.past, lived: data.lived, time: data.time, now: links.isReport ? nil : nowLink(data.page, links.now))
            + (data.context.notice?.html ?? "")
        var signOut: String?
        if case .shown(let value) = data.context.forms { signOut = value }
        return Shell.document(title: title, current: section, links: links, banner: banner, main: main, signOutCSRF: signOut)
    }

    /// Reads and renders a page.
    /// - Throws: as ``read(_:from:context:)``.
    public static func render(page: Page, ledger: Ledger, context: PageContext) throws -> String {
        render(try read(page, from: ledger, context: context))
    }

    /// The sign-in page: a token field (a password field, never filled in) posted to
    /// `/signin` under the links' prefix, and `error` above it when given.
    public static func signIn(error: String? = nil, links: Links = .served()) -> String {
        SignInPage.render(error: error, links: links)
    }

    /// A page that could not be shown: `title` and the sentence saying why and what to do,
    /// in the site's frame, with a link back to the overview.
    public static func problem(title: String, message: String, links: Links = .served()) -> String {
        let main =
            Shell.heading(1, title) + "<p class=\"notice refused\" role=\"alert\">\(message.html)</p>"
            + "<p><a href=\"\(links.overview.html)\">Back to the overview</a></p>"
        return Shell.document(title: title, current: nil, links: links, banner: "", main: main)
    }

    /// A page's title, its place in the navigation and its `<main>` content.
    static func body(_ content: PageData.Content, _ render: RenderContext) -> (String, Shell.Section?, String) {
        switch content {
        case .overview(let content): ("Overview", .overview, OverviewPage.render(content, render))
        case .daily(let content): ("Daily records", .daily, DailyPage.render(content, render))
        case .explain(let content):
            (
                "\(ExplainWording.title(of: content.measure)) on \(content.document.report.date), explained", .daily,
                ExplainPage.render(content, render)
            )
        case .shoes(let content): ("Shoes", .shoes, ShoesPage.render(content, render))
        case .audit(let content): ("Audit of \(content.shoe?.shoe.name ?? content.name)", .shoes, AuditPage.render(content, render))
        case .points(let content): ("Points", .points, PointsPage.render(content, render))
        case .training(let content): ("Training", .training, TrainingPage.render(content, render))
        case .log(let content): ("Log", .log, LogPage.render(content, render))
        }
    }

    /// The same page as the ledger stands now.
    static func nowLink(_ page: Page, _ links: Links) -> String {
        switch page {
        case .overview: links.overview
        case .daily(let first, let last): links.daily(from: first, through: last)
        case .dailyExplain(let date, let measure, let offset):
            links.dailyExplain(date: date, measure: measure.map(DailyExplainDocument.name(of:)), offset: offset)
        case .shoes: links.shoes
        case .audit(let shoe): links.audit(shoe: shoe)
        case .points: links.points
        case .training: links.training
        case .log(let first, _, let type): links.log(from: first, type: type?.name)
        }
    }
}

extension Dashboard.Page {
    /// The figures a replay folds to show this page in the past: only those it shows (the log
    /// reads the present's events cut at the sequence; an audit cuts the present's audit, and
    /// needs the rack as it stood to know the shoe was on it).
    var figures: Set<Ledger.ReplayedFigures> {
        switch self {
        case .overview: [.daily, .mileage, .points]
        case .daily, .dailyExplain: [.daily]
        case .shoes: [.mileage]
        case .points: [.points]
        // The training log reads its own rows as recorded (``Ledger/trainingView(asOf:asRecordedThrough:)``).
        case .training: []
        case .audit: [.mileage]
        case .log: []
        }
    }
}
