import ShoeMileage
import StrideContract
import StrideEvents
import StrideLedger

/// The shoe rack: each shoe's kilometres against its goal, its runs per week and its status,
/// with the forms a runner needs (see `ShoeForms`).
enum ShoesPage {
    /// How many weeks the runs-per-week charts cover, ending with the week of the last day
    /// with data or a run.
    static let weeks = 12

    /// What the page reads.
    struct Content {
        var shoes: [ShoeView]
        /// The Mondays starting each week charted, oldest first.
        var weekStarts: [CivilDate]
        /// Runs per charted week, by shoe.
        var runsPerWeek: [UInt128: [Int]]
        /// Runs on no shoe, newest first (the present only).
        var unassigned: [Workout]
        /// The latest runs on a shoe, newest first (the present only).
        var recent: [Workout]
        var isPast: Bool
        var time: LocalTime
    }

    /// The Monday of a day's week.
    static func weekStart(of day: CivilDate) -> CivilDate {
        // 1970-01-01 was a Thursday: three days after a Monday.
        let offset = ((day.daysSince1970 + 3) % 7 + 7) % 7
        return day.adding(days: -Int(offset))
    }

    static func read(_ reader: PageReader) throws -> Content {
        let shoes = try reader.shoes()
        let thisWeek = weekStart(of: try reader.lastActiveDay())
        let starts = (0..<weeks).map { thisWeek.adding(days: 7 * ($0 - weeks + 1)) }
        let workouts = try reader.workouts().filter(\.isRunning)
        let startDays = Dictionary(workouts.map { ($0.id, reader.ledger.day(ofRunStartingAt: $0.start)) }, uniquingKeysWith: { first, _ in first })
        var runsPerWeek: [UInt128: [Int]] = [:]
        for view in shoes {
            var counts = Array(repeating: 0, count: weeks)
            for run in try reader.runs(of: view) {
                guard let day = startDays[run], let first = starts.first, day >= first else { continue }
                let index = Int((day.daysSince1970 - first.daysSince1970) / 7)
                if index < weeks { counts[index] += 1 }
            }
            runsPerWeek[view.shoe.id] = counts
        }
        let isPast = reader.isPast
        let newestFirst = workouts.reversed()
        return Content(
            shoes: shoes, weekStarts: starts, runsPerWeek: runsPerWeek,
            unassigned: isPast ? [] : Array(newestFirst.filter { $0.shoe == nil && $0.runOf == nil }.prefix(20)),
            recent: isPast ? [] : Array(newestFirst.filter { $0.shoe != nil }.prefix(10)), isPast: isPast, time: reader.time)
    }

    static func render(_ content: Content, _ render: RenderContext) -> String {
        var html = Shell.heading(render.level, "Shoes")
        let active = content.shoes.filter { !$0.shoe.isRetired }.count
        html += "<p class=\"lead\">\(content.shoes.count.counted("shoe")) on the rack, \(active) active. "
        html += "A shoe's kilometres are its starting kilometres plus the runs on it now.</p>"
        if content.shoes.isEmpty {
            html += "<p class=\"note\">No shoes on the rack yet.</p>"
        } else {
            html += "<div class=\"shoes\">"
            for view in content.shoes { html += shoe(view, content, render) }
            html += "</div>"
        }
        html += ShoeForms.rackForms(content, render)
        if content.isPast {
            html += "<p class=\"note\">Runs are assigned from the present only: back to now to place them.</p>"
        } else {
            html += ShoeForms.unassigned(content, render)
            html += ShoeForms.recent(content, render)
        }
        return html
    }

    private static func shoe(_ view: ShoeView, _ content: Content, _ render: RenderContext) -> String {
        let shoe = view.shoe
        let id = ShoeID.text(shoe.id)
        var html = "<article class=\"shoe\" id=\"\(render.idPrefix)shoe-\(id)\">"
        html += Shell.heading(render.level + 1, shoe.name)
        var badges = ""
        if view.isDefault { badges += "<span class=\"badge default\">default</span>" }
        if shoe.isRetired { badges += "<span class=\"badge retired\">retired</span>" }
        if !badges.isEmpty { html += "<p>\(badges)</p>" }
        var facts: [String] = []
        if let brand = shoe.brand, !brand.isEmpty { facts.append(brand.html) }
        facts.append(shoe.runs.counted("run"))
        if let lastRun = shoe.lastRun { facts.append("last " + Shell.readable(content.time.format(lastRun)).prefix(10)) }
        if shoe.startKilometers > 0 { facts.append("started at " + Format.kilometers(shoe.startKilometers)) }
        html += "<p class=\"note\">\(facts.joined(separator: " · "))</p>"
        html += ProgressBar.render(kilometers: shoe.kilometers, goal: shoe.goalKilometers, label: shoe.name)
        let counts = content.runsPerWeek[shoe.id] ?? []
        let bars = zip(content.weekStarts, counts).map { start, count in
            BarChart.Bar(key: start.description, label: Format.shortDate(start.description), value: Double(count), className: "runs")
        }
        let chart = BarChart(
            id: render.idPrefix + "runs-" + id, title: "Runs per week on \(shoe.name)",
            summary: "How many runs on this shoe started in each of the last \(weeks) weeks (weeks start on Monday).", unit: "runs",
            categoryUnit: "week of", keyName: "week", bars: bars,
            emptyMessage: "No runs on \(shoe.name) in the last \(weeks) weeks.", tickText: { String($0.wholeForDisplay) },
            valueText: { String($0.wholeForDisplay) }, headings: ["Week of", "Runs"])
        html += chart.render()
        html += "<p><a href=\"\(render.links.audit(shoe: id).html)\">How \(shoe.name.html) reached \(Format.kilometers(shoe.kilometers))</a></p>"
        html += ShoeForms.shoeForms(view, render)
        return html + "</article>"
    }
}
