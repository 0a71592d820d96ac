import Foundation
import StrideEvents
import StrideLedger
import TrainingLog

/// What every training document is read from: the runs in a range of local days, at a point
/// in time (``Ledger/trainingView(asOf:asRecordedThrough:)``).
public struct TrainingQuery: Sendable, Hashable {
    /// The first and last local day of the runs shown (open ends when nil).
    public var from: CivilDate?
    public var to: CivilDate?
    /// As of a moment of the runner's life, or as recorded through a sequence.
    public var asOf: Timestamp?
    public var asRecordedThrough: UInt64?

    public init(from: CivilDate? = nil, to: CivilDate? = nil, asOf: Timestamp? = nil, asRecordedThrough: UInt64? = nil) {
        self.from = from
        self.to = to
        self.asOf = asOf
        self.asRecordedThrough = asRecordedThrough
    }

    /// The view the query reads.
    /// - Throws: a storage or projection failure.
    public func view(_ ledger: Ledger) throws -> Ledger.TrainingView {
        try ledger.trainingView(asOf: asOf, asRecordedThrough: asRecordedThrough)
    }
}

/// The figures' rounding in the contract: kilometres to the metre, seconds to the tenth, TRIMP
/// and the load to the hundredth.
enum TrainingFigures {
    static func rounded(_ value: Double, _ places: Double) -> Double {
        let scale = pow(10, places)
        return (value * scale).rounded() / scale
    }

    static func kilometres(_ value: Double) -> JSONValue { .number(rounded(value, 3)) }
    static func seconds(_ value: Double) -> JSONValue { .number(rounded(value, 1)) }
    static func load(_ value: Double) -> JSONValue { .number(rounded(value, 2)) }

    /// A heart-rate figure, and whether (and how) it was estimated.
    static func setting(_ figure: AthleteSettings.Figure) -> JSONValue {
        .object([
            "value": .number(rounded(figure.value, 1)), "estimated": .bool(figure.isEstimated),
            "setAt": figure.change.map { .integer($0.sequence) } ?? .null, "how": figure.estimate.map(JSONValue.string) ?? .null,
        ])
    }

    static func zones(_ seconds: [Double]) -> JSONValue {
        .array(seconds.enumerated().map { .object(["zone": .integer($0.offset + 1), "seconds": Self.seconds($0.element)]) })
    }
}

/// The heart-rate settings as they hold on a day: set by the runner, or estimated (and how).
public struct TrainingSettings: Sendable, Hashable {
    public var day: CivilDate
    public var maximum: AthleteSettings.Figure
    public var resting: AthleteSettings.Figure

    /// The settings of a view on a day: the runner's, else the view's estimates.
    public init(_ view: Ledger.TrainingView, on day: CivilDate) {
        self.day = day
        maximum = view.settings.maximumHeartRate(on: day) ?? view.estimatedMaximum
        resting = view.settings.restingHeartRate(on: day) ?? view.estimatedResting
    }

    public var json: JSONValue {
        .object([
            "day": .string(day.description), "maximumHeartRate": TrainingFigures.setting(maximum),
            "restingHeartRate": TrainingFigures.setting(resting),
        ])
    }

    /// `188`, or `188*` for an estimate.
    public static func text(_ figure: AthleteSettings.Figure) -> String {
        String(format: "%.0f", figure.value) + (figure.isEstimated ? "*" : "")
    }

    /// `Maximum heart rate 190, resting 50*.`, an estimate starred, then how each estimate was
    /// made: the sentence the command line and the pages print.
    public var sentence: String {
        var text = "Maximum heart rate \(Self.text(maximum)), resting \(Self.text(resting))."
        for how in [maximum.estimate, resting.estimate].compactMap({ $0 }) { text += "\n  * \(how)" }
        return text
    }
}

/// `training weeks|months|years --json`: volume per ISO week (Monday first), month or year.
public struct TrainingVolumeDocument: ContractDocument {
    public var period: TrainingLog.Period
    public var volumes: [TrainingLog.Volume]
    /// The settings on the last day shown.
    public var settings: TrainingSettings

    /// - Throws: a storage or projection failure.
    public init(_ ledger: Ledger, per period: TrainingLog.Period, _ query: TrainingQuery) throws {
        self.init(try query.view(ledger), per: period, query)
    }

    /// The document of a view already read.
    public init(_ view: Ledger.TrainingView, per period: TrainingLog.Period, _ query: TrainingQuery) {
        self.period = period
        volumes = TrainingLog.volume(view.runs(from: query.from, through: query.to), per: period)
        settings = TrainingSettings(view, on: min(query.to ?? view.through, view.through))
    }

    /// The key of the list and of each period's name: `weeks`/`week`, `months`/`month`, `years`/`year`.
    public var listKey: String { period.rawValue + "s" }

    public var json: JSONValue {
        .object([
            JSONValue.Member(
                listKey,
                .array(
                    volumes.map { volume in
                        .object([
                            JSONValue.Member(period.rawValue, .string(volume.period)), .init("start", .string(volume.start.description)),
                            .init("runs", .integer(volume.runs)), .init("km", TrainingFigures.kilometres(volume.kilometres)),
                            .init("seconds", TrainingFigures.seconds(volume.movingSeconds)),
                            .init("elapsedSeconds", TrainingFigures.seconds(volume.elapsedSeconds)),
                            .init("climb", .number(TrainingFigures.rounded(volume.climbMetres, 1))),
                            .init("trimp", TrainingFigures.load(volume.trimp)), .init("zones", TrainingFigures.zones(volume.secondsInZones)),
                            .init(
                                "sports",
                                .object(
                                    volume.kilometresBySport.sorted { $0.key < $1.key }.map {
                                        JSONValue.Member($0.key, TrainingFigures.kilometres($0.value))
                                    }
                                )),
                            .init(
                                "shoes",
                                .object(
                                    volume.kilometresByShoe.sorted { $0.key < $1.key }.map {
                                        JSONValue.Member($0.key, TrainingFigures.kilometres($0.value))
                                    }
                                )),
                        ])
                    })),
            JSONValue.Member("settings", settings.json),
        ])
    }
}

/// `training efforts --json`: the best effort over each distance, all time and per year.
public struct TrainingEffortsDocument: ContractDocument {
    public var efforts: [TrainingLog.BestEffort]
    public var byYear: [(year: Int, efforts: [TrainingLog.BestEffort])]
    public var time: LocalTime

    /// - Throws: a storage or projection failure.
    public init(_ ledger: Ledger, _ query: TrainingQuery) throws {
        self.init(try query.view(ledger), query, time: LocalTime(ledger))
    }

    /// The document of a view already read.
    public init(_ view: Ledger.TrainingView, _ query: TrainingQuery, time: LocalTime) {
        let runs = view.runs(from: query.from, through: query.to)
        efforts = TrainingLog.bestEfforts(runs)
        byYear = Dictionary(grouping: runs, by: \.day.year).sorted { $0.key < $1.key }.map { ($0.key, TrainingLog.bestEfforts($0.value)) }
            .filter { !$0.1.isEmpty }
        self.time = time
    }

    func json(_ effort: TrainingLog.BestEffort) -> JSONValue {
        .object([
            "distance": .string(effort.distance.name), "meters": .number(effort.distance.metres), "seconds": TrainingFigures.seconds(effort.seconds),
            "workout": .string(Ledger.workoutID(effort.run.workout)), "start": .string(time.format(effort.start)),
            "runStart": .string(time.format(effort.run.start)), "fromSecond": TrainingFigures.seconds(effort.effort.startSeconds),
        ])
    }

    public var json: JSONValue {
        .object([
            "efforts": .array(efforts.map(json)),
            "years": .array(byYear.map { .object(["year": .integer($0.year), "efforts": .array($0.efforts.map(json))]) }),
            "fastestBelieved": .object([
                "metersPerSecond": .number(BestEffortPolicy.fastest),
                "why": .string("a stretch faster than this between two readings is a GPS jump, not running: no effort spans one"),
            ]),
        ])
    }
}

/// `training zones --json`: seconds in each heart-rate zone, in all and per ISO week.
public struct TrainingZonesDocument: ContractDocument {
    public var seconds: [Double]
    public var weeks: [TrainingLog.Volume]
    public var settings: TrainingSettings

    /// - Throws: a storage or projection failure.
    public init(_ ledger: Ledger, _ query: TrainingQuery) throws {
        self.init(try query.view(ledger), query)
    }

    /// The document of a view already read.
    public init(_ view: Ledger.TrainingView, _ query: TrainingQuery) {
        let runs = view.runs(from: query.from, through: query.to)
        seconds = TrainingLog.secondsInZones(runs)
        weeks = TrainingLog.volume(runs, per: .week)
        settings = TrainingSettings(view, on: min(query.to ?? view.through, view.through))
    }

    /// Each zone's share of the maximum heart rate, in percent: Z1 [50, 60) … Z5 90 and above.
    public static let bounds: [(Int, Int?)] = [(50, 60), (60, 70), (70, 80), (80, 90), (90, nil)]

    public var json: JSONValue {
        .object([
            "zones": .array(
                seconds.enumerated().map { index, held in
                    .object([
                        "zone": .integer(index + 1), "seconds": TrainingFigures.seconds(held),
                        "fromPercent": .integer(Self.bounds[index].0), "toPercent": Self.bounds[index].1.map { .integer($0) } ?? .null,
                    ])
                }),
            "weeks": .array(
                weeks.map {
                    .object(["week": .string($0.period), "start": .string($0.start.description), "zones": TrainingFigures.zones($0.secondsInZones)])
                }),
            "settings": settings.json,
        ])
    }
}

/// `training load --json`: each day's TRIMP, fitness (42 days), fatigue (7 days) and form.
public struct TrainingLoadDocument: ContractDocument {
    public var days: [TrainingLoadPolicy.Day]
    public var settings: TrainingSettings

    /// The days from `query.from` through `query.to` (today, or the as-of day, at the latest);
    /// the series itself always starts at the first run.
    /// - Throws: a storage or projection failure.
    public init(_ ledger: Ledger, _ query: TrainingQuery) throws {
        self.init(try query.view(ledger), query)
    }

    /// The document of a view already read.
    public init(_ view: Ledger.TrainingView, _ query: TrainingQuery) {
        let last = min(query.to ?? view.through, view.through)
        days = TrainingLog.load(view.runs, through: last).filter { day in query.from.map { day.date >= $0 } ?? true }
        settings = TrainingSettings(view, on: last)
    }

    public var json: JSONValue {
        .object([
            "days": .array(
                days.map {
                    .object([
                        "date": .string($0.date.description), "trimp": TrainingFigures.load($0.trimp), "fitness": TrainingFigures.load($0.fitness),
                        "fatigue": TrainingFigures.load($0.fatigue), "form": TrainingFigures.load($0.form),
                    ])
                }),
            "constants": .object(["fitnessDays": .number(TrainingLoadPolicy.fitnessDays), "fatigueDays": .number(TrainingLoadPolicy.fatigueDays)]),
            "settings": settings.json,
        ])
    }
}

/// `training shoes --json`: each shoe's kilometres, what it ran in the last eight weeks, and
/// the day it reaches its goal at that pace.
public struct TrainingShoesDocument: ContractDocument {
    public var shoes: [TrainingLog.ShoeOutlook]
    /// The day the outlook is taken on: today, `--to`, or the as-of day.
    public var day: CivilDate

    /// - Throws: a storage or projection failure.
    public init(_ ledger: Ledger, _ query: TrainingQuery) throws {
        self.init(try query.view(ledger), query)
    }

    /// The document of a view already read.
    public init(_ view: Ledger.TrainingView, _ query: TrainingQuery) {
        day = min(query.to ?? view.through, view.through)
        let shoes = view.shoes.map {
            (name: $0.shoe.name, kilometres: $0.shoe.kilometers, goalKilometres: $0.shoe.goalKilometers, isRetired: $0.shoe.isRetired)
        }
        self.shoes = TrainingLog.shoeOutlooks(shoes, runs: view.runs(from: nil, through: day), today: day)
    }

    /// When a shoe reaches its goal, as a runner reads it: `about 2024-10-08`, `reached`,
    /// `retired`, `no goal`, or `not at this pace` (no run in the eight weeks).
    public func reaches(_ shoe: TrainingLog.ShoeOutlook) -> String {
        if shoe.isRetired { return "retired" }
        guard shoe.goalKilometres != nil else { return "no goal" }
        return shoe.goalDay.map { $0 == day ? "reached" : "about \($0)" } ?? "not at this pace"
    }

    public var json: JSONValue {
        .object([
            "day": .string(day.description), "windowDays": .integer(ShoeForecast.windowDays),
            "shoes": .array(
                shoes.map { shoe in
                    .object([
                        "name": .string(shoe.name), "km": TrainingFigures.kilometres(shoe.kilometres),
                        "goalKm": shoe.goalKilometres.map(JSONValue.number) ?? .null, "isRetired": .bool(shoe.isRetired),
                        "recentKm": TrainingFigures.kilometres(shoe.recentKilometres),
                        "goalDay": shoe.goalDay.map { .string($0.description) } ?? .null,
                    ])
                }),
        ])
    }
}
