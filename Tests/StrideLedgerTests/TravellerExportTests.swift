import DailyHealth
import Foundation
import StrideEvents
import StrideTestSupport
import Testing
import TrainingLog

@testable import StrideLedger

/// A traveller's Apple Health export — Paris, Tokyo, New York, Paris again, over five weeks
/// and both changes to summer time — read by Stride and checked day by day against an
/// oracle computed here from the trip's plan with Foundation's calendar alone: no
/// `ZonedCalendar`, `LocalCalendar`, `DailyRecord` or policy of Stride's.
@Suite("A traveller's export against an oracle of its own")
struct TravellerExportTests {
    /// The export, generated once from its seed.
    static let items = Traveller.items(seed: 0x5EED_2024)
    /// The oracle, over the export's dates and one either side.
    static let oracle = Oracle(items, from: Day(2024, 2, 25), through: Day(2024, 4, 5))
    /// The ledger's clock: after the trip, so every day is past.
    static let now = Timestamp(secondsSince1970: Trip.utc(Day(2024, 4, 6), 12))

    @Test("the oracle by hand: the days of travel last 16, 38 and 19 hours, the clocks' changes make 23; the samples across their ends split by time")
    func oracleByHand() {
        let oracle = Self.oracle
        // 1 March: Paris's midnight (23:00 UTC on 29 February) to Tokyo's (15:00 UTC on 1 March).
        // 7 March: Tokyo's midnight (15:00 UTC on 6 March) to New York's (05:00 UTC on 8 March).
        // 20 March: New York's midnight, summer time (04:00 UTC) to Paris's (23:00 UTC).
        // 10 March in New York and 31 March in Paris lose their 02:00 hour.
        let hours = [(Day(2024, 3, 1), 16.0), (Day(2024, 3, 7), 38), (Day(2024, 3, 20), 19), (Day(2024, 3, 10), 23), (Day(2024, 3, 31), 23)]
        for (day, expected) in hours { #expect(oracle.hours(of: day) == expected, "\(day)") }
        // The nights before 2, 8 and 21 March: 18:00 in the zone left to 18:00 in the zone reached.
        let nights = [(Day(2024, 3, 2), 16.0), (Day(2024, 3, 8), 38), (Day(2024, 3, 21), 19), (Day(2024, 3, 5), 24)]
        for (day, expected) in nights { #expect(oracle.nightHours(before: day) == expected, "night before \(day)") }
        // The samples across the ends of the days of travel: 1,200 steps over 40 minutes in the
        // air, 20 before Tokyo's midnight; 6,300 over the 45-minute run, 25 before New York's;
        // 300 over 30 minutes in the air, 15 before Paris's.
        let shares: [(Int64, Day, Double)] = [
            (Trip.utc(Day(2024, 3, 1), 14, 40), Day(2024, 3, 1), 600), (Trip.utc(Day(2024, 3, 1), 14, 40), Day(2024, 3, 2), 600),
            (Trip.utc(Day(2024, 3, 8), 4, 35), Day(2024, 3, 7), 3_500), (Trip.utc(Day(2024, 3, 8), 4, 35), Day(2024, 3, 8), 2_800),
            (Trip.utc(Day(2024, 3, 20), 22, 45), Day(2024, 3, 20), 150), (Trip.utc(Day(2024, 3, 20), 22, 45), Day(2024, 3, 21), 150),
        ]
        for (start, day, expected) in shares {
            let sample = Self.items.first { $0.start == start && $0.steps != nil }
            #expect(sample.map { oracle.share(of: $0, on: day) } == expected, "\(start) on \(day)")
        }
        // The run across New York's midnight counts on the 38-hour 7 March.
        #expect(oracle.day(of: Trip.utc(Day(2024, 3, 8), 4, 35)) == Day(2024, 3, 7))
        // The export holds what the test is about: steps across an ordinary local midnight,
        // sleep across a night's 18:00, and every sample's value once in the days.
        #expect(Self.items.contains { $0.steps != nil && oracle.daysTouched(by: $0).count > 1 && !Trip.isTravelBoundary($0) })
        #expect(Self.items.contains { $0.isAsleep && oracle.nightsTouched(by: $0).count > 1 })
        let total = Double(Self.items.compactMap(\.steps).reduce(0, +))
        #expect(abs(oracle.dates.map(oracle.steps(on:)).reduce(0, +) - total) < 1e-6 * total)
    }

    @Test("told by the runner (a travel period for each stay), each day's steps, night and length and each run's day are the oracle's")
    func toldByTheRunner() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Self.ledger(in: folder)
            _ = try ledger.ingest(file: try Self.write(Self.items, to: folder + "/export.xml"))
            try Self.tellTheTrip(to: ledger)
            let differences = try Self.differences(ledger, Self.oracle)
            #expect(differences == [])
        }
    }

    @Test("told only by the export's HKTimeZone, the ledger learns the plan's stays, and each day and run is the oracle's")
    func toldByTheExport() throws {
        try withTemporaryDirectory { folder in
            let ledger = try Self.ledger(in: folder)
            _ = try ledger.ingest(file: try Self.write(Self.items, to: folder + "/export.xml"))
            let learned = try ledger.travelPlan().learned.map { "\($0.zone.identifier) \($0.from)…\($0.to?.description ?? "")" }
            #expect(learned == ["Asia/Tokyo 2024-03-02…2024-03-08", "America/New_York 2024-03-08…2024-03-21"])
            let differences = try Self.differences(ledger, Self.oracle)
            #expect(differences == [])
        }
    }

    /// Who tells the ledger where the runner was.
    enum Telling: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case runner, export
        var testDescription: String { rawValue }
    }

    @Test("the export ingested twice, or its elements reversed or shuffled, gives the same days and run days", arguments: Telling.allCases)
    func orders(telling: Telling) throws {
        try withTemporaryDirectory { folder in
            var generator = SeededGenerator(state: 43)
            let orders = [("exported", Self.items), ("reversed", Self.items.reversed()), ("shuffled", Self.items.shuffled(using: &generator))]
            var seen: [(order: String, figures: Figures)] = []
            for (order, items) in orders {
                let ledger = try Self.ledger(in: folder, name: order)
                let file = try Self.write(items, to: folder + "/\(order).xml")
                _ = try ledger.ingest(file: file)
                if telling == .runner { try Self.tellTheTrip(to: ledger) }
                let figures = try Figures(ledger)
                #expect(try ledger.ingest(file: file).appended == 0, "\(order) again")
                #expect(try Figures(ledger).differences(from: figures) == [], "\(order) again")
                seen.append((order, figures))
            }
            for (order, figures) in seen.dropFirst() {
                #expect(figures.differences(from: seen[0].figures) == [], "\(order)")
            }
        }
    }

    // MARK: The ledger

    static func ledger(in folder: String, name: String = "ledger") throws -> Ledger {
        try Ledger.create(at: folder + "/" + name, timeZone: Trip.home, clock: FixedClock(now))
    }

    /// The runner's word for each stay away from home, as the plan has it.
    static func tellTheTrip(to ledger: Ledger) throws {
        for (stay, next) in zip(Trip.stays, Trip.stays.dropFirst()) where stay.zone != Trip.home {
            try ledger.addTravel(zone: stay.zone, from: stay.first.civil, to: next.first.civil)
        }
    }

    static func write(_ items: [Item], to path: String) throws -> String {
        let elements = items.map(\.element).joined(separator: "\n")
        let export = """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="fr_FR">
             <ExportDate value="2024-04-05 09:00:00 +0200"/>
            \(elements)
            </HealthData>

            """
        try export.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Where the ledger's days differ from the oracle's, a line each: steps (to 1e-6,
    /// relative), asleep seconds, the day's length, the sum of steps, each run's day.
    static func differences(_ ledger: Ledger, _ oracle: Oracle) throws -> [String] {
        var differences: [String] = []
        let records = try ledger.dailyRecords(from: oracle.dates[0].civil, through: oracle.dates[oracle.dates.count - 1].civil)
        let byDate = Dictionary(uniqueKeysWithValues: records.map { ($0.date, $0) })
        for day in oracle.dates {
            let record = byDate[day.civil]
            let (steps, expected) = (record?.steps?.value ?? 0, oracle.steps(on: day))
            if abs(steps - expected) > 1e-6 * max(1, expected) { differences.append("\(day) steps: Stride \(steps), oracle \(expected)") }
            let asleep = record?.sleep?.asleep ?? 0
            if asleep != oracle.asleep(on: day) { differences.append("\(day) asleep: Stride \(asleep) s, oracle \(oracle.asleep(on: day)) s") }
            // A day read as an ordinary one at home lasts as long as Paris's day.
            if let record {
                let hours = record.lived.map { Double($0.seconds) / 3600 } ?? Day.hours(of: day, in: TimeZone(identifier: Trip.home)!)
                if hours != oracle.hours(of: day) { differences.append("\(day) hours: Stride \(hours), oracle \(oracle.hours(of: day))") }
            }
        }
        let all = try ledger.dailyRecords(from: nil, through: nil).compactMap(\.steps?.value).reduce(0, +)
        let total = Double(oracle.items.compactMap(\.steps).reduce(0, +))
        if abs(all - total) > 1e-6 * total { differences.append("all steps: Stride \(all), the samples \(total)") }
        let runs = Dictionary(uniqueKeysWithValues: try ledger.trainingView().runs.map { ($0.start, $0.day) })
        for run in oracle.items where run.kilometres != nil {
            let day = runs[Timestamp(secondsSince1970: run.start)]
            if day != oracle.day(of: run.start)?.civil {
                differences.append(
                    "run at \(Timestamp(secondsSince1970: run.start)): Stride \(day?.description ?? "none"), oracle \(oracle.day(of: run.start).map { "\($0)" } ?? "none")"
                )
            }
        }
        if runs.count != oracle.items.filter({ $0.kilometres != nil }).count { differences.append("runs: Stride \(runs.count)") }
        return differences
    }

    /// What a ledger shows of its days and runs, to compare two ledgers.
    struct Figures {
        var days: [CivilDate: (steps: Double, asleep: Int?, inBed: Int?, lived: DayLived?)] = [:]
        var runDays: [Timestamp: CivilDate] = [:]

        init(_ ledger: Ledger) throws {
            for record in try ledger.dailyRecords(from: nil, through: nil) {
                days[record.date] = (record.steps?.value ?? 0, record.sleep?.asleep, record.sleep?.inBed, record.lived)
            }
            runDays = Dictionary(uniqueKeysWithValues: try ledger.trainingView().runs.map { ($0.start, $0.day) })
        }

        /// Where they differ, a line each; steps to 1e-9, relative (a sum in another order).
        func differences(from other: Figures) -> [String] {
            var differences: [String] = []
            for date in Set(days.keys).union(other.days.keys).sorted() {
                guard let mine = days[date], let theirs = other.days[date] else {
                    differences.append("\(date) in one ledger only")
                    continue
                }
                if abs(mine.steps - theirs.steps) > 1e-9 * max(1, theirs.steps) { differences.append("\(date) steps \(mine.steps), \(theirs.steps)") }
                if mine.asleep != theirs.asleep || mine.inBed != theirs.inBed || mine.lived != theirs.lived {
                    differences.append("\(date) \(mine), \(theirs)")
                }
            }
            if runDays != other.runDays { differences.append("run days \(runDays), \(other.runDays)") }
            return differences
        }
    }
}

extension TravellerExportTests {
    // MARK: The trip

    /// A calendar date, stepped and turned into instants with Foundation's Gregorian calendar.
    struct Day: Hashable, Comparable, Sendable, CustomStringConvertible {
        var year: Int
        var month: Int
        var day: Int

        init(_ year: Int, _ month: Int, _ day: Int) {
            (self.year, self.month, self.day) = (year, month, day)
        }

        static func < (lhs: Day, rhs: Day) -> Bool { (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day) }

        var description: String { "\(year)-\(Self.two(month))-\(Self.two(day))" }
        var civil: CivilDate { CivilDate(year: year, month: month, day: day) }

        static func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }

        static let utc: Calendar = {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            return calendar
        }()

        func adding(days: Int) -> Day {
            let date = Self.utc.date(byAdding: .day, value: days, to: Self.utc.date(from: DateComponents(year: year, month: month, day: day))!)!
            let parts = Self.utc.dateComponents([.year, .month, .day], from: date)
            return Day(parts.year!, parts.month!, parts.day!)
        }

        /// The instant (seconds since 1970) a wall clock in `zone` shows this date at `hour`:`minute`.
        func instant(hour: Int, minute: Int = 0, in zone: TimeZone) -> Int64 {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            return Int64(calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))!.timeIntervalSince1970)
        }

        /// The hours from this date's midnight to the next one's, both in `zone`.
        static func hours(of day: Day, in zone: TimeZone) -> Double {
            Double(day.adding(days: 1).instant(hour: 0, in: zone) - day.instant(hour: 0, in: zone)) / 3600
        }
    }

    /// The trip as planned: where the runner lived from which date, and the flights between.
    enum Trip {
        static let home = "Europe/Paris"
        /// Each stay's zone and first date; it lasts until the next one's. New York's holds the US
        /// change to summer time (10 March), the last the European one (31 March).
        static let stays: [(zone: String, first: Day)] = [
            (home, Day(2000, 1, 1)), ("Asia/Tokyo", Day(2024, 3, 2)), ("America/New_York", Day(2024, 3, 8)), (home, Day(2024, 3, 21)),
        ]
        /// The flights, departure and arrival (seconds, UTC): Paris 10:00 to Tokyo 06:00 the next
        /// morning; Tokyo 11:00 to New York 10:00 the same date; New York 17:00 to Paris 05:00. The
        /// phone shows the zone left until it lands.
        static let flights: [(departure: Int64, arrival: Int64)] = [
            (utc(Day(2024, 3, 1), 9), utc(Day(2024, 3, 1), 21)), (utc(Day(2024, 3, 7), 2), utc(Day(2024, 3, 7), 15)),
            (utc(Day(2024, 3, 20), 21), utc(Day(2024, 3, 21), 4)),
        ]
        /// The first morning and the last evening of the export.
        static let firstDay = Day(2024, 2, 26)
        static let lastDay = Day(2024, 4, 3)

        static func utc(_ day: Day, _ hour: Int, _ minute: Int = 0) -> Int64 {
            day.instant(hour: hour, minute: minute, in: TimeZone(identifier: "UTC")!)
        }

        /// The zone the plan gives a date.
        static func zone(on day: Day) -> TimeZone {
            TimeZone(identifier: stays.last { $0.first <= day }!.zone)!
        }

        /// The zone the phone showed at an instant: what the Health app writes as `HKTimeZone`.
        static func phoneZone(at instant: Int64) -> TimeZone {
            TimeZone(identifier: stays[flights.filter { $0.arrival <= instant }.count].zone)!
        }

        /// Whether a sample is one of those placed across the end of a day of travel.
        static func isTravelBoundary(_ item: Item) -> Bool {
            [utc(Day(2024, 3, 1), 14, 40), utc(Day(2024, 3, 8), 4, 35), utc(Day(2024, 3, 20), 22, 45)].contains(item.start)
        }
    }

    // MARK: The export

    /// One element of the export: steps, a sleep stage or a run, from one Apple Watch, with the
    /// zone its phone showed at its start.
    struct Item: Sendable {
        enum Kind: Sendable {
            case steps(Int)
            case sleep(String)
            case run(kilometres: Double)
        }

        var kind: Kind
        /// Seconds since 1970.
        var start: Int64
        var end: Int64
        var zone: TimeZone

        init(_ kind: Kind, _ start: Int64, _ end: Int64) {
            (self.kind, self.start, self.end) = (kind, start, end)
            zone = Trip.phoneZone(at: start)
        }

        var steps: Int? { if case .steps(let value) = kind { value } else { nil } }
        var kilometres: Double? { if case .run(let kilometres) = kind { kilometres } else { nil } }
        var isAsleep: Bool { if case .sleep(let stage) = kind { stage != Traveller.awake } else { false } }

        static let device =
            "&lt;&lt;HKDevice: 0x283b2c1e0&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.3&gt;"

        /// As the Health app writes it: dates at the offset of the zone it names.
        var element: String {
            let source = #"sourceName="Apple Watch de Léa" sourceVersion="10.3" device="\#(Self.device)""#
            let dates =
                #"creationDate="\#(Self.date(end + 60, zone))" startDate="\#(Self.date(start, zone))" endDate="\#(Self.date(end, zone))""#
            let metadata = "\n  <MetadataEntry key=\"HKTimeZone\" value=\"\(zone.identifier)\"/>\n "
            switch kind {
            case .steps(let value):
                return #" <Record type="HKQuantityTypeIdentifierStepCount" \#(source) unit="count" \#(dates) value="\#(value)">"#
                    + metadata + "</Record>"
            case .sleep(let stage):
                return #" <Record type="HKCategoryTypeIdentifierSleepAnalysis" \#(source) \#(dates) value="\#(stage)">"# + metadata + "</Record>"
            case .run(let kilometres):
                let minutes = Double(end - start) / 60
                return #" <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="\#(minutes)" durationUnit="min" "#
                    + #"totalDistance="\#(kilometres)" totalDistanceUnit="km" \#(source) \#(dates)>"# + metadata + "</Workout>"
            }
        }

        /// `2024-03-07 06:30:00 +0900`.
        static func date(_ instant: Int64, _ zone: TimeZone) -> String {
            let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant)))
            let wall = Day.utc.dateComponents(
                [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: TimeInterval(instant) + TimeInterval(offset)))
            let day = Day(wall.year!, wall.month!, wall.day!)
            let clock = "\(Day.two(wall.hour!)):\(Day.two(wall.minute!)):\(Day.two(wall.second!))"
            return "\(day) \(clock) \(offset < 0 ? "-" : "+")\(Day.two(abs(offset) / 3600))\(Day.two(abs(offset) % 3600 / 60))"
        }
    }

    /// The traveller's five weeks, drawn from a seed.
    enum Traveller {
        static let awake = "HKCategoryValueSleepAnalysisAwake"
        static let stages = [
            "HKCategoryValueSleepAnalysisAsleepCore", "HKCategoryValueSleepAnalysisAsleepDeep", "HKCategoryValueSleepAnalysisAsleepREM",
        ]

        /// The export's elements, records by start then the runs, as the Health app groups them.
        static func items(seed: UInt64) -> [Item] {
            var random = SeededGenerator(state: seed)
            func minutes(_ range: ClosedRange<Int64>) -> Int64 { 60 * Int64.random(in: range, using: &random) }

            // The sleeps: a night in the zone of the date it ends on, in bed 22:00–00:50 and up
            // 05:45–07:00; none in bed on the nights spent flying, asleep in the air instead (in
            // the zone left, across 18:00 there or at the destination), and a nap after landing.
            var sleeps: [(start: Int64, end: Int64)] = []
            var day = Trip.firstDay
            while day <= Trip.lastDay.adding(days: 1) {
                defer { day = day.adding(days: 1) }
                guard day != Day(2024, 3, 2), day != Day(2024, 3, 21) else { continue }
                let zone = Trip.zone(on: day)
                var bed = day.adding(days: -1).instant(hour: 22, in: zone) + minutes(0...170)
                // After the run across New York's midnight on the day of landing there.
                if day == Day(2024, 3, 8) { bed = day.instant(hour: 0, minute: 55, in: zone) }
                sleeps.append((bed, day.instant(hour: 5, minute: 45, in: zone) + minutes(0...75)))
            }
            let tokyo = TimeZone(identifier: "Asia/Tokyo")!
            let paris = TimeZone(identifier: Trip.home)!
            sleeps += [
                (Trip.utc(Day(2024, 3, 1), 16, 30), Trip.utc(Day(2024, 3, 1), 20)),
                (Day(2024, 3, 2).instant(hour: 13, in: tokyo), Day(2024, 3, 2).instant(hour: 14, minute: 30, in: tokyo)),
                (Trip.utc(Day(2024, 3, 7), 6), Trip.utc(Day(2024, 3, 7), 10)),
                (Trip.utc(Day(2024, 3, 20), 23, 30), Trip.utc(Day(2024, 3, 21), 3, 30)),
                (Day(2024, 3, 21).instant(hour: 14, in: paris), Day(2024, 3, 21).instant(hour: 15, minute: 30, in: paris)),
            ]
            sleeps.sort { $0.start < $1.start }
            var items: [Item] = []
            for sleep in sleeps {
                var cursor = sleep.start
                while cursor < sleep.end {
                    let end = min(sleep.end, cursor + minutes(20...90))
                    items.append(Item(.sleep(stages.randomElement(using: &random)!), cursor, end))
                    cursor = end
                    if cursor < sleep.end, Bool.random(using: &random) {
                        let up = min(sleep.end, cursor + minutes(2...10))
                        items.append(Item(.sleep(awake), cursor, up))
                        cursor = up
                    }
                }
                // Now and then a stage without a name over the start of the night, as older
                // watches wrote: it overlaps the others and counts once.
                if Int.random(in: 0..<3, using: &random) == 0 {
                    items.append(
                        Item(
                            .sleep("HKCategoryValueSleepAnalysisAsleepUnspecified"), sleep.start + 600,
                            min(sleep.end, sleep.start + minutes(60...150))))
                }
            }

            // Steps placed across the end of each day of travel, by hand (see `oracleByHand`).
            let placed: [(start: Int64, end: Int64, steps: Int)] = [
                (Trip.utc(Day(2024, 3, 1), 14, 40), Trip.utc(Day(2024, 3, 1), 15, 20), 1_200),
                (Trip.utc(Day(2024, 3, 8), 4, 35), Trip.utc(Day(2024, 3, 8), 5, 20), 6_300),
                (Trip.utc(Day(2024, 3, 20), 22, 45), Trip.utc(Day(2024, 3, 20), 23, 15), 300),
            ]
            items += placed.map { Item(.steps($0.steps), $0.start, $0.end) }
            // Elsewhere awake, a sample of 4 to 75 minutes every hour or so.
            let busy = (sleeps + placed.map { ($0.start, $0.end) }).sorted { $0.start < $1.start }
            for (before, after) in zip(busy, busy.dropFirst()) {
                var cursor = before.end + minutes(0...20)
                while cursor + 60 < after.start {
                    let end = min(after.start, cursor + minutes(4...75))
                    items.append(
                        Item(.steps(max(1, Int((Double(end - cursor) * Double.random(in: 0.2...2.2, using: &random)).rounded()))), cursor, end))
                    cursor = end + minutes(3...50)
                }
            }

            // The runs: mornings and an evening in each city, one on each day the clocks change,
            // and one across New York's midnight on the 38-hour day of landing there.
            let newYork = TimeZone(identifier: "America/New_York")!
            let runs: [(Day, Int, Int)] = [
                (Day(2024, 2, 27), 7, 20), (Day(2024, 3, 3), 7, 30), (Day(2024, 3, 5), 18, 30), (Day(2024, 3, 10), 9, 0),
                (Day(2024, 3, 16), 7, 45), (Day(2024, 3, 23), 10, 0), (Day(2024, 3, 31), 8, 30),
            ]
            for (day, hour, minute) in runs {
                let start = day.instant(hour: hour, minute: minute, in: Trip.zone(on: day))
                let duration = minutes(30...70)
                let kilometres = (Double(duration) / 60 / Double.random(in: 5...6, using: &random) * 100).rounded() / 100
                items.append(Item(.run(kilometres: kilometres), start, start + duration))
            }
            let acrossMidnight = Day(2024, 3, 7).instant(hour: 23, minute: 35, in: newYork)
            items.append(Item(.run(kilometres: 8.1), acrossMidnight, acrossMidnight + 45 * 60))
            return items.sorted { ($0.kilometres == nil ? 0 : 1, $0.start) < ($1.kilometres == nil ? 0 : 1, $1.start) }
        }
    }

    // MARK: The oracle

    /// The figures the plan implies, by the rule of issue 43 computed with Foundation alone: day
    /// D from midnight of D in D's zone to midnight of D+1 in D+1's (never before the day before
    /// starts); the night before D from 18:00 of D−1 in D−1's zone to 18:00 of D in D's.
    struct Oracle: Sendable {
        let items: [Item]
        let dates: [Day]
        let days: [Day: Range<Int64>]
        let nights: [Day: Range<Int64>]

        init(_ items: [Item], from first: Day, through last: Day) {
            self.items = items
            var dates = [first]
            while dates[dates.count - 1] < last { dates.append(dates[dates.count - 1].adding(days: 1)) }
            self.dates = dates
            var starts: [Int64] = []
            var evenings = [first.adding(days: -1).instant(hour: 18, in: Trip.zone(on: first.adding(days: -1)))]
            for day in dates + [last.adding(days: 1)] {
                starts.append(max(day.instant(hour: 0, in: Trip.zone(on: day)), starts.last ?? .min))
                evenings.append(max(day.instant(hour: 18, in: Trip.zone(on: day)), evenings[evenings.count - 1]))
            }
            days = Dictionary(uniqueKeysWithValues: dates.indices.map { (dates[$0], starts[$0]..<starts[$0 + 1]) })
            nights = Dictionary(uniqueKeysWithValues: dates.indices.map { (dates[$0], evenings[$0]..<evenings[$0 + 1]) })
        }

        func hours(of day: Day) -> Double { Double(days[day]!.upperBound - days[day]!.lowerBound) / 3600 }
        func nightHours(before day: Day) -> Double { Double(nights[day]!.upperBound - nights[day]!.lowerBound) / 3600 }

        /// The day an instant falls in.
        func day(of instant: Int64) -> Day? { days.first { $0.value.contains(instant) }?.key }

        /// A step sample's share of a day: its value times the part of its span in the day.
        func share(of item: Item, on day: Day) -> Double {
            let span = days[day]!
            let overlap = min(span.upperBound, item.end) - max(span.lowerBound, item.start)
            return overlap > 0 ? Double(item.steps ?? 0) * Double(overlap) / Double(item.end - item.start) : 0
        }

        func steps(on day: Day) -> Double { items.reduce(0) { $0 + share(of: $1, on: day) } }

        /// The seconds of the union of the asleep spans inside the night before `day`.
        func asleep(on day: Day) -> Int {
            let window = nights[day]!
            let clipped = items.filter(\.isAsleep).map { (start: max($0.start, window.lowerBound), end: min($0.end, window.upperBound)) }
                .filter { $0.start < $0.end }.sorted { $0.start < $1.start }
            var total: Int64 = 0
            var reached = Int64.min
            for span in clipped {
                let start = max(span.start, reached)
                if span.end > start { total += span.end - start }
                reached = max(reached, span.end)
            }
            return Int(total)
        }

        func daysTouched(by item: Item) -> [Day] { dates.filter { share(of: item, on: $0) > 0 } }
        func nightsTouched(by item: Item) -> [Day] { dates.filter { nights[$0]!.overlaps(item.start..<item.end) } }
    }
}
