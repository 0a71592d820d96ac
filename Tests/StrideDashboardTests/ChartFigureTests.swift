import Foundation
import StrideContract
import StrideDashboard
import StrideEvents
import StrideLedger
import StrideTestSupport
import Testing

/// The charts draw the contract's numbers: each figure here is read back from the SVG's
/// geometry and compared with the document the command line prints.
@Suite("Charts draw the contract's numbers")
struct ChartFigureTests {
    static let week = (CivilDate(year: 2024, month: 5, day: 6), CivilDate(year: 2024, month: 5, day: 9))

    static func dailyPage(_ ledger: Ledger) throws -> String {
        try Dashboard.render(page: .daily(from: week.0, through: week.1), ledger: ledger, context: PageContext(now: Fixture.now))
    }

    @Test("each day's steps bar is as tall as the day's total, coloured by the device class that won it")
    func steps() throws {
        try withTemporaryDirectory { folder in
            let (ledger, _) = try Fixture.full(in: folder)
            let html = try Self.dailyPage(ledger)
            let chart = try #require(DrawnChart(in: html, figure: "daily-steps"))
            let days = try DailyDocument(ledger, from: Self.week.0, through: Self.week.1).days
            let withSteps = days.filter { $0.steps != nil }
            #expect(withSteps.count == 4)
            for day in withSteps {
                let bar = try #require(chart.elements("rect", matching: ["data-day": day.date.description]).first)
                let total = try #require(day.steps?.value)
                #expect(abs(chart.value(ofHeight: bar.number("height")) - total) < 0.01 * total, "\(day.date)")
                let winner = day.steps?.classes.first?.description ?? ""
                #expect(bar["class"]?.contains(winner) == true, "\(day.date): \(bar["class"] ?? "")")
            }
            // Hand-computed: the watch's 12,000 steps win May 8 over the phone's 11,000.
            let may8 = try #require(chart.elements("rect", matching: ["data-day": "2024-05-08"]).first)
            #expect(abs(chart.value(ofHeight: may8.number("height")) - 12_000) < 120)
            #expect(may8["class"] == "bar watch")
            #expect(chart.elements("rect", matching: ["data-day": "2024-05-07"]).first?["class"] == "bar phone")
        }
    }

    @Test("a watch night is stacked by stage, each segment as long as the record's stage; a phone night shows time in bed")
    func sleep() throws {
        try withTemporaryDirectory { folder in
            let (ledger, _) = try Fixture.full(in: folder)
            let chart = try #require(DrawnChart(in: try Self.dailyPage(ledger), figure: "daily-sleep"))
            let days = try DailyDocument(ledger, from: Self.week.0, through: Self.week.1).days
            let watchNight = try #require(days.first { $0.date == CivilDate(year: 2024, month: 5, day: 7) }?.sleep)
            let segments = chart.elements("rect", matching: ["data-day": "2024-05-07"])
            let drawn = Dictionary(segments.map { ($0["data-series"] ?? "", $0.number("height")) }, uniquingKeysWith: +)
            // The axis is drawn in hours; its scale attributes, like the record, in seconds.
            for (series, seconds) in [
                ("deep", watchNight.asleepDeep), ("core", watchNight.asleepCore), ("rem", watchNight.asleepREM), ("awake", watchNight.awake),
            ] {
                #expect(abs(chart.value(ofHeight: drawn[series] ?? 0) - Double(seconds ?? 0)) < 60, "\(series)")
            }
            // Hand-computed: deep 02:15–03:45 is 1.5 h; core 3 h + 50 min; awake 15 min.
            #expect(abs(chart.value(ofHeight: drawn["deep"] ?? 0) - 5_400) < 60)
            #expect(abs(chart.value(ofHeight: drawn["core"] ?? 0) - 13_800) < 60)
            #expect(abs(chart.value(ofHeight: drawn["awake"] ?? 0) - 900) < 60)
            let phoneNight = chart.elements("rect", matching: ["data-day": "2024-05-08"])
            #expect(phoneNight.map { $0["data-series"] } == ["inBed"])
            #expect(abs(chart.value(ofHeight: phoneNight.first?.number("height") ?? 0) - 8 * 3_600) < 60)
        }
    }

    @Test("a shoe's progress bar fills its share of the goal, whole and marked past it")
    func progress() throws {
        try withTemporaryDirectory { folder in
            let (ledger, _) = try Fixture.full(in: folder)
            let html = try Dashboard.render(page: .shoes, ledger: ledger, context: PageContext(now: Fixture.now))
            let bars = DrawnChart.elements("svg", in: html).filter { $0["class"] == "progress-bar" }
            for view in try ShoesDocument(ledger).shoes {
                let goal = try #require(view.shoe.goalKilometers)
                let drawn = bars.filter { $0.number("data-goal") == goal && abs($0.number("data-value") - view.shoe.kilometers) < 0.001 }
                #expect(drawn.count == 1, "\(view.shoe.name)")
            }
            // Hand-computed: Novablast started at 15 km and took the 10.5 km run: 25.5 of 20, past its goal.
            #expect(html.contains("25.5 of 20 km (128%)"))
            let fills = DrawnChart.elements("rect", in: html).filter { $0["class"]?.hasPrefix("fill") == true }
            #expect(fills.contains { $0["class"] == "fill over" && $0["width"] == "100" })
        }
    }

    @Test("the audit's cumulative line ends at the shoe's figure, each dot at its step's running total")
    func audit() throws {
        try withTemporaryDirectory { folder in
            let (ledger, _) = try Fixture.full(in: folder)
            let shoe = try #require(try ShoesDocument(ledger).shoes.first { $0.shoe.name == "Novablast" })
            let id = ShoeID.text(shoe.shoe.id)
            let html = try Dashboard.render(page: .audit(shoe: id), ledger: ledger, context: PageContext(now: Fixture.now))
            let chart = try #require(DrawnChart(in: html, figure: "audit-line-" + id))
            let steps = try ShoeAuditDocument(ledger, shoe: id).steps
            let dots = chart.elements("circle", matching: ["class": "dot"])
            #expect(dots.count == steps.count)
            let plotTop = chart.attributes.number("data-plot-top")
            let plotHeight = chart.attributes.number("data-plot-height")
            for (dot, step) in zip(dots, steps) {
                #expect(dot["data-sequence"] == String(step.entry.sequence))
                let drawn = chart.value(ofHeight: plotTop + plotHeight - dot.number("cy")) + chart.attributes.number("data-value-min")
                #expect(abs(drawn - step.runningTotal) < 0.01 * max(step.runningTotal, 1))
            }
            #expect(abs((steps.last?.runningTotal ?? 0) - shoe.shoe.kilometers) < 0.001)
            // Each step links to its event in the log.
            for step in steps { #expect(html.contains("/log?from=\(step.entry.sequence)#e-\(step.entry.sequence)")) }
        }
    }

    @Test("every drawn chart has a title, a unit on its axis and its numbers in a table a click away")
    func accessible() throws {
        try withTemporaryDirectory { folder in
            let (ledger, _) = try Fixture.full(in: folder)
            for page in [Dashboard.Page.overview, .daily(from: Self.week.0, through: Self.week.1), .points] {
                let html = try Dashboard.render(page: page, ledger: ledger, context: PageContext(now: Fixture.now))
                let figures = html.components(separatedBy: "<figure class=\"chart\"").dropFirst()
                #expect(!figures.isEmpty, "\(page)")
                for figure in figures {
                    let end = figure.range(of: "</figure>").map { String(figure[..<$0.lowerBound]) } ?? figure
                    #expect(end.contains("<title id="), "\(page)")
                    #expect(end.contains("<text class=\"unit\""), "\(page)")
                    #expect(end.contains("<details") && end.contains("<table"), "\(page)")
                }
            }
        }
    }
}
