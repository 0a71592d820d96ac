import DailyHealth
import StrideContract
import StrideEvents

/// The daily records of a range: sleep by stage, heart rate, steps and distance.
enum DailyPage {
    /// The longest range one page draws.
    static let longestRange = 366

    /// What the page reads.
    struct Content {
        var first: CivilDate
        var last: CivilDate
        var records: [CivilDate: DailyRecord]
        var timeZone: String
    }

    /// The range asked for, completed: thirty days ending on the last day with data (or
    /// the other end when one is given), at most ``longestRange`` days.
    static func range(from first: CivilDate?, through last: CivilDate?, reader: PageReader) throws -> (CivilDate, CivilDate) {
        var (start, end): (CivilDate, CivilDate)
        switch (first, last) {
        case let (first?, last?): (start, end) = first <= last ? (first, last) : (last, first)
        case let (first?, nil): (start, end) = (first, first.adding(days: 29))
        case let (nil, last?): (start, end) = (last.adding(days: -29), last)
        case (nil, nil):
            end = try reader.lastActiveDay()
            start = end.adding(days: -29)
        }
        if end.daysSince1970 - start.daysSince1970 >= Int64(longestRange) { start = end.adding(days: -(longestRange - 1)) }
        return (start, end)
    }

    static func read(_ reader: PageReader, from first: CivilDate?, through last: CivilDate?) throws -> Content {
        let (start, end) = try range(from: first, through: last, reader: reader)
        let records = try reader.days(from: start, through: end)
        return Content(
            first: start, last: end, records: Dictionary(records.map { ($0.date, $0) }, uniquingKeysWith: { $1 }),
            timeZone: reader.ledger.timeZoneIdentifier)
    }

    static func render(_ content: Content, _ render: RenderContext) -> String {
        var days: [CivilDate] = []
        var day = content.first
        while day <= content.last {
            days.append(day)
            day = day.adding(days: 1)
        }
        var html = Shell.heading(render.level, "Daily records")
        let away = content.records.values.contains { $0.lived != nil }
        html += "<p class=\"lead\">\(content.first) to \(content.last), days local to "
        html += away ? "where they were lived (home: \(content.timeZone.html)): " : "\(content.timeZone.html): "
        html += "\(content.records.count.counted("day")) with data. Sleep is the night ending on the day.</p>"
        html += rangeForm(content, render)
        let prefix = render.idPrefix + "daily-"
        html += "<div class=\"charts\">"
        html += DailyCharts.sleep(days: days, records: content.records, id: prefix + "sleep")
        html += DailyCharts.heartRate(days: days, records: content.records, id: prefix + "heart-rate")
        html += DailyCharts.steps(days: days, records: content.records, id: prefix + "steps")
        html += DailyCharts.distance(days: days, records: content.records, id: prefix + "distance")
        html += "</div>"
        html += livedAway(days.compactMap { day in content.records[day]?.lived.map { (day, $0) } }, render)
        html += explainLinks(days.filter { content.records[$0] != nil }, render)
        return html
    }

    /// The days lived away from home or of travel (not 24 hours long): where, and how long.
    private static func livedAway(_ days: [(day: CivilDate, lived: DayLived)], _ render: RenderContext) -> String {
        guard !days.isEmpty else { return "" }
        var html = "<section class=\"panel\">" + Shell.heading(render.level + 1, "Days away and days of travel")
        html += "<p>Each is cut from its midnight where it was lived to the next day's: a day of flying east is shorter, west longer.</p>"
        html +=
            "<div class=\"table-wrap\"><table><thead><tr><th scope=\"col\">Day</th><th scope=\"col\">Where</th><th scope=\"col\" class=\"num\">Hours</th></tr></thead><tbody>"
        for (day, lived) in days {
            html += "<tr><td>\(day)</td><td>\(lived.place.html)</td><td class=\"num\">\(lived.hoursShown)</td></tr>"
        }
        return html + "</tbody></table></div></section>"
    }

    /// A link to every day with data, to its figures down to their samples; none in a report.
    private static func explainLinks(_ days: [CivilDate], _ render: RenderContext) -> String {
        guard !render.links.isReport, !days.isEmpty else { return "" }
        var html = "<section class=\"panel\">" + Shell.heading(render.level + 1, "Each day, explained")
        html += "<p>A day's figures down to their samples: which device counted when, and what was left out and why.</p>"
        html += "<p class=\"day-links\">"
        html += days.reversed().map { day in "<a href=\"\(render.links.dailyExplain(date: day).html)\">\(day)</a>" }.joined(separator: " ")
        return html + "</p></section>"
    }

    /// A form that reads another range (GET: it changes nothing, so it stays in the past
    /// too); none in a report.
    private static func rangeForm(_ content: Content, _ render: RenderContext) -> String {
        guard case .served = render.links.style else { return "" }
        let path = render.links.now.daily().split(separator: "?").first.map(String.init) ?? "/daily"
        var html = "<form class=\"panel\" method=\"get\" action=\"\(path.html)\"><fieldset><legend>Range</legend>"
        html += FormMarkup.input("from", label: "From", id: render.idPrefix + "range-from", type: "date", extra: "value=\"\(content.first)\"")
        html += FormMarkup.input("to", label: "To", id: render.idPrefix + "range-to", type: "date", extra: "value=\"\(content.last)\"")
        if let travel = render.links.timeTravelField { html += FormMarkup.hidden(travel.name, travel.value) }
        return html + "<button type=\"submit\">Show</button></fieldset></form>"
    }
}
