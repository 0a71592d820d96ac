import ArgumentParser
import Foundation
import StrideEvents

/// `stride-bench zones`: the zone timeline's lookups are binary searches, not scans — an
/// instant's day and a day's span cost the same with 1 period as with 10,000 — and the evidence
/// rule over years of observations, the work a ledger does once each time its inputs' clocks
/// tell it something new.
struct ZonesBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "zones", abstract: "Time the zone timeline's lookups against its size, and the evidence rule over years of readings.")

    @OptionGroup var options: BenchOptions

    @Option(help: "Lookups per measurement.")
    var lookups = 1_000_000

    func run() throws {
        let home = TimeZone(identifier: "Europe/London")!
        let away = ["Asia/Tokyo", "America/New_York", "Asia/Kolkata", "Australia/Sydney"].compactMap(TimeZone.init(identifier:))
        let first: Int64 = 16_800  // 2015-12-31
        // Instants spread over the ten years the periods cover, the same for every timeline.
        var generator = SystemRandomNumberGenerator()
        let instants = (0..<lookups).map { _ in
            Timestamp(secondsSince1970: Int64.random(in: first * 86_400..<(first + 3_650) * 86_400, using: &generator))
        }
        print("Lookups of an instant's day and a day's span, \(lookups.groupedDigits) each, medians of \(options.runs):")
        print("periods   day(of:)       span(of:)")
        for count in [0, 1, 100, 10_000] {
            // `count` periods of 1 to 3 days, spread over ten years.
            let step = count == 0 ? 1 : max(1, 3_650 / Int64(count))
            let periods = (0..<count).map { index in
                let from = first + Int64(index) * step
                return ZonePeriod(
                    away[index % away.count], from: CivilDate(daysSince1970: from), to: CivilDate(daysSince1970: from + max(1, step / 2)))
            }
            let calendar = ZonedCalendar(timeline: ZoneTimeline(home: home, periods: periods))
            var days: [Double] = []
            var spans: [Double] = []
            for _ in 0..<options.runs {
                var sink: Int64 = 0
                days.append(measure(items: instants.count) { for instant in instants { sink &+= calendar.dayNumber(of: instant) } })
                spans.append(
                    measure(items: instants.count) {
                        for instant in instants {
                            sink &+= calendar.span(of: CivilDate(daysSince1970: instant.secondsSince1970 / 86_400)).lowerBound.millisecondsSince1970
                        }
                    })
                if sink == 42 { print("") }
            }
            print(
                String(count).padding(toLength: 10, withPad: " ", startingAt: 0)
                    + formatRate(Rate(label: "", perSecond: days).median).padding(toLength: 15, withPad: " ", startingAt: 0)
                    + formatRate(Rate(label: "", perSecond: spans).median))
        }
        // Ten years of readings: a Health app's HKTimeZone every hour, a third of the time away.
        let readings = (0..<(3_650 * 24)).map { hour -> ZoneObservation in
            let instant = Timestamp(secondsSince1970: (first * 24 + Int64(hour)) * 3_600)
            let zone = (hour / 24) % 30 < 20 ? home : away[(hour / (24 * 30)) % away.count]
            return ZoneObservation(.zone(zone), at: instant, source: .healthTimeZone)
        }
        var seconds: [Double] = []
        var periodCount = 0
        for _ in 0..<options.runs {
            let began = monotonicSeconds()
            periodCount = ZoneEvidencePolicy.periods(home: home, observations: readings).count
            seconds.append(monotonicSeconds() - began)
        }
        let median = seconds.sorted()[seconds.count / 2]
        print(
            "The evidence rule over \(readings.count.groupedDigits) readings (ten years, one an hour): \(String(format: "%.3f", median)) s, \(periodCount) periods"
        )
    }
}
