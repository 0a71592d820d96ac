import Foundation
import StrideContract
import StrideEvents
import StrideLedger
import TrainingLog

/// The training log: weekly volume stacked by shoe, fitness, fatigue and form over time, the
/// best efforts, and time in heart-rate zones per week.
enum TrainingPage {
    /// The weeks the charts draw, and the days of the load.
    static let shownWeeks = 26
    static let shownDays = 180

    struct Content {
        var weeks: TrainingVolumeDocument
        var load: TrainingLoadDocument
        var efforts: TrainingEffortsDocument
        var zones: TrainingZonesDocument
        var shoes: TrainingShoesDocument
        var today: CivilDate
    }

    /// Reads the documents from one view. The charts end today or, for a runner who has not
    /// run lately, at the last run's week (and the load four weeks after it), so that a
    /// ledger of past years shows its training, not months of nothing.
    static func read(_ reader: PageReader) throws -> Content {
        // The contract's one builder of a training query, the command line's and the API's too.
        let query = try TrainingRequest(travel: reader.timeTravel).query(in: reader.ledger)
        let view = try query.view(reader.ledger)
        let lastRun = view.runs.last?.day ?? reader.today
        let weeksEnd = min(reader.today, lastRun)
        var recent = query
        recent.from = ISOWeek.start(of: weeksEnd).adding(days: -7 * (shownWeeks - 1))
        recent.to = weeksEnd
        var days = query
        days.to = min(reader.today, lastRun.adding(days: 28))
        days.from = days.to?.adding(days: -shownDays + 1)
        var weeks = TrainingVolumeDocument(view, per: .week, recent)
        weeks.volumes = Self.everyWeek(weeks.volumes, from: recent.from!, through: weeksEnd)
        var zones = TrainingZonesDocument(view, recent)
        zones.weeks = Self.everyWeek(zones.weeks, from: recent.from!, through: weeksEnd)
        return Content(
            weeks: weeks, load: TrainingLoadDocument(view, days), efforts: TrainingEffortsDocument(view, query, time: reader.time),
            zones: zones, shoes: TrainingShoesDocument(view, query), today: weeksEnd)
    }

    /// The weeks from `first` through `last`, those without runs as empty weeks: a chart shows
    /// the gaps.
    static func everyWeek(_ volumes: [TrainingLog.Volume], from first: CivilDate, through last: CivilDate) -> [TrainingLog.Volume] {
        var byStart = Dictionary(volumes.map { ($0.start, $0) }, uniquingKeysWith: { first, _ in first })
        var all: [TrainingLog.Volume] = []
        var week = ISOWeek.start(of: first)
        while week <= last {
            all.append(byStart.removeValue(forKey: week) ?? TrainingLog.Volume(period: ISOWeek.name(of: week), start: week))
            week = week.adding(days: 7)
        }
        return all
    }

    /// The CSS classes shoes are drawn in, in turn (the most-run shoe first).
    static let shoeClasses = ["shoe1", "shoe2", "shoe3", "shoe4", "shoe5", "shoe6"]

    static func render(_ content: Content, _ render: RenderContext) -> String {
        var html = Shell.heading(render.level, "Training")
        html += "<p class=\"lead\">Every run once, from its best copy, on its local day. "
        html += content.weeks.settings.sentence.replacingOccurrences(of: "\n  ", with: " ").html + "</p>"
        let thisWeek = content.weeks.volumes.last
        let lastDay = content.load.days.last
        html += "<div class=\"cards\">"
        let cards: [(String, String)] = [
            (thisWeek.map { "Week \($0.period)" } ?? "This week", String(format: "%.1f km", thisWeek?.kilometres ?? 0)),
            ("Fitness", String(format: "%.1f", lastDay?.fitness ?? 0)),
            ("Fatigue", String(format: "%.1f", lastDay?.fatigue ?? 0)), ("Form", String(format: "%+.1f", lastDay?.form ?? 0)),
        ]
        for (label, value) in cards {
            html += "<div class=\"card\"><span class=\"label\">\(label)</span><span class=\"value\">\(value.html)</span></div>"
        }
        html += "</div><div class=\"charts\">"
        html += volumeChart(content, render) + loadChart(content, render) + zonesChart(content, render)
        html += "</div>"
        html += Shell.heading(render.level + 1, "Best efforts")
        html += effortsTable(content.efforts)
        html += Shell.heading(render.level + 1, "Shoes and their goals")
        html += shoesTable(content.shoes)
        return html
    }

    private static func volumeChart(_ content: Content, _ render: RenderContext) -> String {
        let volumes = content.weeks.volumes
        var byShoe: [String: Double] = [:]
        for volume in volumes { byShoe.merge(volume.kilometresByShoe, uniquingKeysWith: +) }
        let shoes = byShoe.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }.map(\.key)
        let series = shoes.enumerated().map { index, shoe in
            StackedBarChart.Series(key: shoe, label: shoe, className: shoeClasses[min(index, shoeClasses.count - 1)])
        }
        return StackedBarChart(
            id: render.idPrefix + "training-volume", title: "Kilometres per week, by shoe",
            summary: "Each ISO week's running kilometres (Monday first), stacked by the shoe each run is on.", unit: "km",
            categoryUnit: "week", keyName: "week", series: series,
            columns: volumes.map { volume in
                .init(key: volume.period, label: String(volume.period.suffix(3)), values: volume.kilometresByShoe, note: "\(volume.runs) runs")
            }, emptyMessage: "No runs in the last \(shownWeeks) weeks.", tickText: { Format.count($0.wholeForDisplay) },
            valueText: { String(format: "%.1f", $0) }, categoryHeading: "Week", noteHeading: "Runs"
        ).render()
    }

    private static func loadChart(_ content: Content, _ render: RenderContext) -> String {
        let days = content.load.days
        return LineChart(
            id: render.idPrefix + "training-load", title: "Fitness, fatigue and form",
            summary: "Fitness (42-day), fatigue (7-day) and form (yesterday's fitness minus fatigue) from each day's TRIMP.",
            unit: "TRIMP", categoryUnit: "day", keys: days.map(\.date.description), labels: days.map { String($0.date.description.suffix(5)) },
            series: [
                .init(key: "fitness", label: "Fitness", className: "fitness", values: days.map(\.fitness)),
                .init(key: "fatigue", label: "Fatigue", className: "fatigue", values: days.map(\.fatigue)),
                .init(key: "form", label: "Form", className: "form", values: days.map(\.form)),
            ], emptyMessage: "No load yet: it needs runs with a heart rate.", valueText: { String(format: "%.1f", $0) }
        ).render()
    }

    private static func zonesChart(_ content: Content, _ render: RenderContext) -> String {
        let series = (1...5).map { StackedBarChart.Series(key: "z\($0)", label: "Z\($0)", className: "zone\($0)") }
        return StackedBarChart(
            id: render.idPrefix + "training-zones", title: "Time in heart-rate zones per week",
            summary: "Hours in each zone of percent of the maximum heart rate: Z1 50–60 %, Z2 60–70 %, Z3 70–80 %, Z4 80–90 %, Z5 90 % and above.",
            unit: "h", categoryUnit: "week", keyName: "week", series: series,
            columns: content.zones.weeks.map { week in
                .init(
                    key: week.period, label: String(week.period.suffix(3)),
                    values: Dictionary(uniqueKeysWithValues: week.secondsInZones.enumerated().map { ("z\($0.offset + 1)", $0.element) }))
            }, emptyMessage: "No heart rate in the last \(shownWeeks) weeks' runs.", scale: 1.0 / 3600,
            tickText: { String(format: "%g", $0) }, valueText: { Format.duration(seconds: Int($0.rounded())) }, categoryHeading: "Week",
            noteHeading: ""
        ).render()
    }

    private static func effortsTable(_ document: TrainingEffortsDocument) -> String {
        var html = "<div class=\"table-wrap\"><table><caption>The fastest stretch of each distance in any run's stream, all time</caption><thead><tr>"
        for heading in ["Distance", "Time", "Pace /km", "Day", "Workout"] { html += "<th scope=\"col\">\(heading)</th>" }
        html += "</tr></thead><tbody>"
        for effort in document.efforts {
            let pace = effort.seconds / effort.distance.metres * 1000
            html += "<tr><th scope=\"row\">\(effort.distance.name.html)</th><td class=\"num\">\(ExplainWording.stopwatch(effort.seconds))</td>"
            html += "<td class=\"num\">\(ExplainWording.stopwatch(pace))</td><td class=\"when\">\(effort.run.day.description)</td>"
            html += "<td><code>\(Ledger.workoutID(effort.run.workout))</code></td></tr>"
        }
        if document.efforts.isEmpty { html += "<tr><td colspan=\"5\">No run with a stream covers 400 m yet.</td></tr>" }
        html += "</tbody></table></div>"
        html +=
            "<p class=\"note\">A stretch faster than \(Format.fixed(BestEffortPolicy.fastest, 1)) m/s between two readings is a GPS jump: no effort spans one. "
        html += "<code>stride training explain effort 5k</code> shows the run and readings behind an effort.</p>"
        return html
    }

    private static func shoesTable(_ document: TrainingShoesDocument) -> String {
        var html =
            "<div class=\"table-wrap\"><table><caption>When each shoe reaches its goal, at its pace of the eight weeks through \(document.day)</caption><thead><tr>"
        for heading in ["Shoe", "Km", "Goal", "Last 8 weeks", "Reaches its goal"] { html += "<th scope=\"col\">\(heading)</th>" }
        html += "</tr></thead><tbody>"
        for shoe in document.shoes {
            let when = document.reaches(shoe)
            html += "<tr><th scope=\"row\">\(shoe.name.html)</th><td class=\"num\">\(Format.fixed(shoe.kilometres, 1))</td>"
            html += "<td class=\"num\">\(shoe.goalKilometres.map { Format.fixed($0, 0) } ?? "–")</td>"
            html += "<td class=\"num\">\(Format.fixed(shoe.recentKilometres, 1))</td><td>\(when.html)</td></tr>"
        }
        if document.shoes.isEmpty { html += "<tr><td colspan=\"5\">No shoes on the rack.</td></tr>" }
        return html + "</tbody></table></div>"
    }
}
