import Foundation
import StrideContract
import StrideEvents
import StrideLedger
import StrideTestSupport
import Testing

@testable import StrideDashboard

/// A ledger may hold any value: an older release took a goal of 1e-300 km and a heart rate of
/// 1e17, and a decoder can hand over NaN. Every chart, page and document renders whatever it
/// holds, in bounded time and size, with finite coordinates.
@Suite("Pages and charts over extreme values")
struct ExtremeValueTests {
    static let extremes: [Double] = [
        0, -0.0, 1, -1, 42.5, Double.leastNonzeroMagnitude, 1e-320, 1e-300, 1e12, 1e15, 1e17, 1e300, 1e308, -1e308, .greatestFiniteMagnitude,
        .infinity,
        -.infinity, .nan,
    ]

    @Test("an axis over any two values has between 2 and 13 finite, rising ticks, and its ends hold them")
    func axes() {
        for low in Self.extremes {
            for high in Self.extremes {
                for fromZero in [true, false] {
                    let axis = ValueAxis.covering(low: low, high: high, fromZero: fromZero)
                    let name = "\(low)…\(high) fromZero \(fromZero)"
                    #expect((2...13).contains(axis.ticks.count), "\(name): \(axis.ticks.count) ticks")
                    #expect(axis.ticks.allSatisfy { $0.isFinite }, "\(name)")
                    #expect(zip(axis.ticks, axis.ticks.dropFirst()).allSatisfy { $0 < $1 }, "\(name)")
                    #expect(axis.minimum.isFinite && axis.maximum.isFinite && axis.minimum < axis.maximum, "\(name)")
                    let area = PlotArea()
                    for value in Self.extremes {
                        let y = area.y(value, on: axis)
                        #expect(y.isFinite && y >= area.top - 0.001 && y <= area.baseline + 0.001, "\(name): y(\(value)) = \(y)")
                    }
                }
            }
        }
    }

    @Test("a round step is finite and at least the smallest, whatever it is asked for")
    func steps() {
        for raw in Self.extremes + [1e-7, 0.3, 7, 12_345] {
            let step = ValueAxis.roundStep(raw)
            #expect(step.isFinite && step >= ValueAxis.smallestStep, "\(raw) → \(step)")
            if raw.isFinite, raw > ValueAxis.smallestStep { #expect(step >= min(raw, ValueAxis.largestMagnitude) * (1 - 1e-9), "\(raw) → \(step)") }
        }
    }

    @Test("every chart drawn over extreme values is a bounded SVG of finite numbers")
    func charts() {
        for value in Self.extremes {
            let bars = BarChart(
                id: "b", title: "Steps", summary: "", unit: "steps", categoryUnit: "day",
                bars: [
                    .init(key: "2024-05-01", label: "05-01", value: value, className: "watch"),
                    .init(key: "2024-05-02", label: "05-02", value: 3, className: "phone"),
                ],
                emptyMessage: "none", headings: ["day", "steps"])
            let cumulative = CumulativeChart(
                id: "c", title: "Kilometres", summary: "", unit: "km",
                steps: [
                    .init(sequence: 1, total: value, change: "", note: "", href: nil), .init(sequence: 2, total: 5, change: "", note: "", href: nil),
                ],
                emptyMessage: "none", headings: ["#", "change", "total", "what"])
            for (name, svg) in [("bars", bars.render()), ("cumulative", cumulative.render())] {
                #expect(svg.utf8.count < 64_000, "\(name) over \(value)")
                #expect(Self.numbersInAttributes(svg).allSatisfy { $0.isFinite }, "\(name) over \(value)")
                #expect(!svg.lowercased().contains("nan") && !svg.contains("inf\""), "\(name) over \(value)")
            }
            let bar = ProgressBar.render(kilometers: value, goal: value, label: "shoe")
            #expect(bar.utf8.count < 2_000, "progress over \(value)")
            #expect(Self.numbersInAttributes(bar).allSatisfy { $0.isFinite }, "progress over \(value)")
        }
    }

    @Test("a ledger an older release wrote — a goal of 1e-300 km, NaN kilometres, a heart rate of 1e17, a run of 1e17 m — renders every page")
    func olderLedger() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Ledger.create(at: folder + "/ledger", timeZone: "Europe/Paris", clock: Fixture.clock)
            let at = Fixture.now.adding(milliseconds: -86_400_000)
            // Appended as an older release did, without today's checks.
            _ = try ledger.append(
                [
                    (UInt128(3), "Tiny goal", 0.0, 1e-300), (UInt128(5), "NaN start", Double.nan, 600), (UInt128(7), "Huge start", 1e300, Double.nan),
                ].map { id, name, start, goal in
                    PendingEvent(
                        .shoeRegistered(ShoeRegistered(shoe: id, name: name, brand: nil, startKilometers: start, goalKilometers: goal)),
                        occurredAt: at, entity: .rack)
                })
            let lines = [
                #"{"type":"HKQuantityTypeIdentifierHeartRate","start":"2024-05-09T09:00:00+02:00","end":"2024-05-09T09:00:00+02:00","value":1e17,"unit":"count/min","device":"watch"}"#,
                #"{"type":"HKQuantityTypeIdentifierStepCount","start":"2024-05-09T08:00:00+02:00","end":"2024-05-09T09:00:00+02:00","value":1e300,"unit":"count","device":"phone"}"#,
                #"{"type":"HKQuantityTypeIdentifierStepCount","start":"2024-05-09T10:00:00+02:00","end":"2024-05-09T11:00:00+02:00","value":4000,"unit":"count","device":"phone"}"#,
                #"{"activity":"HKWorkoutActivityTypeRunning","start":"2024-05-09T07:00:00+02:00","end":"2024-05-09T07:30:00+02:00","distance":1e14,"distanceUnit":"km","id":"huge"}"#,
            ]
            try lines.joined(separator: "\n").write(toFile: folder + "/odd.ndjson", atomically: true, encoding: .utf8)
            let report = try ledger.ingest(file: folder + "/odd.ndjson")
            #expect(report.counts.leftOut.values.reduce(0) { $0 + $1.count } == 2)
            let run = try #require(try ledger.workouts(from: nil, through: nil, unassignedOnly: false).first)
            try ledger.assign(workout: Ledger.workoutID(run.id), to: "Tiny goal", at: nil)
            // The figures leave the odd values out: the day's steps are the plausible sample's.
            #expect(try ledger.dailyRecords(from: nil, through: nil).first?.steps?.value == 4000)
            #expect(try ledger.shoe(named: "Tiny goal").kilometers == 0)
            let context = PageContext(now: Fixture.now)
            var pages: [Dashboard.Page] = [
                .overview, .daily(from: nil, through: nil), .shoes, .points, .log(from: nil, limit: nil, type: nil),
                .dailyExplain(date: CivilDate(year: 2024, month: 5, day: 9), measure: nil, offset: 0),
            ]
            pages += try ShoesDocument(ledger).shoes.map { .audit(shoe: ShoeID.text($0.shoe.id)) }
            for page in pages {
                let began = ContinuousClock.now
                let html = try Dashboard.render(page: page, ledger: ledger, context: context)
                #expect(ContinuousClock.now - began < .seconds(5), "\(page)")
                #expect(html.utf8.count < 2_000_000, "\(page)")
                #expect(Self.numbersInAttributes(html).allSatisfy { $0.isFinite }, "\(page)")
            }
            let shoes = try Dashboard.render(page: .shoes, ledger: ledger, context: context)
            #expect(shoes.contains("goal of 1e-300 km left out: outside 10 to 5,000 km"))
        }
    }

    /// The numbers of an SVG's coordinate and size attributes (a percentage read without its
    /// sign); NaN for one that is not a number.
    static func numbersInAttributes(_ svg: String) -> [Double] {
        let pattern = #/ (?:x|y|x1|x2|y1|y2|width|height|cx|cy|r)="([^"]*)"/#
        return svg.matches(of: pattern).map { match in
            let text = match.output.1
            return Double(text.hasSuffix("%") ? text.dropLast() : text) ?? .nan
        }
    }
}

/// The labels of an axis whose ticks are less than one apart.
@Suite("Fractional axis labels")
struct FractionalAxisLabelTests {
    @Test(
        "as many decimals as the step needs, so that no two ticks read alike",
        arguments: [
            (0.0, 0.25, "0.00"), (0.25, 0.25, "0.25"), (0.5, 0.25, "0.50"), (1.0, 0.25, "1.00"), (0.5, 0.5, "0.5"), (0.4, 0.2, "0.4"),
            (0.1, 0.1, "0.1"), (0.05, 0.025, "0.050"), (0.000002, 0.000001, "0.000002"), (3.0, 0, "3"),
        ])
    func labels(value: Double, step: Double, expected: String) {
        #expect(Axes.fractional(value, step: step) == expected)
    }
}
