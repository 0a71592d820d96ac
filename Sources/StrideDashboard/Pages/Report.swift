import ShoeMileage
import StrideContract
import StrideEvents
import StrideLedger

extension Dashboard {
    /// How many of the latest events a report's log section holds.
    public static let reportedEventCount = 100

    /// Every page in one self-contained HTML document: the overview, the daily records of a
    /// range, the shoes, each shoe's audit, the points and the latest events, as sections
    /// with anchors (`#overview`, `#daily`, `#shoes`, `#audit-ID`, `#training`, `#points`, `#log`), the
    /// same stylesheet, no forms. Opens offline: nothing is fetched, no script runs.
    /// - Parameters:
    ///   - from: the daily range's first day; `through`, its last (see ``Page/daily(from:through:)``).
    ///   - timeTravel: the past to show, if any.
    ///   - now: the instant taken as now (default: the ledger's clock).
    /// - Throws: a storage failure, or an `EventLogFault` naming an event a replay cannot read.
    public static func report(
        _ ledger: Ledger, from first: CivilDate? = nil, through last: CivilDate? = nil, timeTravel: TimeTravel? = nil, now: Timestamp? = nil
    ) throws -> String {
        let context = PageContext(links: .report, forms: .omitted, timeTravel: timeTravel, now: now)
        let reader = try PageReader(ledger, context: context)
        let overview = try OverviewPage.read(reader)
        let daily = try DailyPage.read(reader, from: first, through: last)
        let shoes = try ShoesPage.read(reader)
        let audits = try shoes.shoes.map { try AuditPage.read(reader, shoe: ShoeID.text($0.shoe.id)) }
        let training = try TrainingPage.read(reader)
        let points = try PointsPage.read(reader)
        let log = try LogPage.read(reader, from: nil, limit: reportedEventCount, type: nil)

        var links = Links.report
        if let firstEvent = log.events.first?.sequence, let lastEvent = log.events.last?.sequence { links.reportedEvents = firstEvent...lastEvent }
        let render = RenderContext(links: links, csrf: nil, level: 2, idPrefix: "")
        var main = Shell.heading(1, "Stride report")
        let written = Shell.readable(reader.time.format(now ?? ledger.clock.now()))
        main += "<p class=\"lead\">Written \(written.html), days local to \(ledger.timeZoneIdentifier.html). "
        main += "Every figure is computed from the ledger's events; this file holds them as they were when it was written.</p>"
        main += Shell.banner(reader.past, lived: reader.lived, time: reader.time, now: nil)
        main += section("overview", OverviewPage.render(overview, render))
        main += section("daily", DailyPage.render(daily, render))
        var shoesSection = ShoesPage.render(shoes, render)
        if !audits.isEmpty {
            shoesSection += Shell.heading(3, "Audits") + "<ul class=\"notes\">"
            for audit in audits {
                shoesSection += "<li><a href=\"\(links.audit(shoe: audit.id).html)\">\((audit.shoe?.shoe.name ?? audit.name).html)</a></li>"
            }
            shoesSection += "</ul>"
        }
        main += section("shoes", shoesSection)
        for audit in audits { main += section("audit-" + HTML.anchor(audit.id), AuditPage.render(audit, render)) }
        main += section("training", TrainingPage.render(training, render))
        main += section("points", PointsPage.render(points, render))
        main += section("log", LogPage.render(log, render))
        return Shell.document(title: "Report", current: nil, links: links, banner: "", main: main)
    }

    private static func section(_ id: String, _ content: String) -> String {
        "<section class=\"page\" id=\"\(id.html)\">" + content + "</section>"
    }
}
