import Foundation
import StrideEvents
import StrideLedger
import TrainingLog

/// `training explain week|month|year|effort|day …`: a training-log figure and the runs behind
/// it, down to the events (the workout recorded, its stream, the settings that held) and the
/// rules that turned them into the figure.
public struct TrainingExplainDocument: ContractDocument {
    /// What to explain, as read by ``Subject/init(kind:name:year:)`` (the one reader of it).
    public enum Subject: Sendable, Hashable {
        /// A period by its name: `2024-W03`, `2024-01`, `2024`.
        case period(TrainingLog.Period, String)
        /// The best effort over a distance (`5k`), all time or in a year.
        case effort(BestEffortPolicy.Distance, year: Int?)
        /// A day's load.
        case day(CivilDate)
    }

    /// A well-formed subject with nothing behind it (a week without runs, a distance no run
    /// covers, a day before the load starts): a failure of the command, 404 over HTTP.
    public struct UnknownSubject: Error, CustomStringConvertible {
        public var description: String
    }

    public var subject: Subject
    public var rules: [String]
    public var figures: JSONValue
    public var runs: [TrainingRun]
    public var view: Ledger.TrainingView
    public var time: LocalTime
    /// For an effort: the effort itself.
    public var effort: TrainingLog.BestEffort?
    /// For an effort: the readings of its stream around its start and its end (the one before
    /// and the one after each: the distance is interpolated between them), and how many
    /// readings lie within it.
    public var effortReadings: (atStart: [RunStreamCodec.Reading], atEnd: [RunStreamCodec.Reading], within: Int)?

    /// - Throws: ``UnknownSubject`` for a period, distance or day with nothing to explain; a
    ///   storage or projection failure.
    public init(_ ledger: Ledger, _ subject: Subject, _ query: TrainingQuery) throws {
        let view = try query.view(ledger)
        self.view = view
        self.subject = subject
        time = LocalTime(ledger)
        let all = view.runs(from: query.from, through: query.to)
        switch subject {
        case .period(let period, let name):
            guard let volume = TrainingLog.volume(all, per: period).first(where: { $0.period == name }) else {
                throw UnknownSubject(
                    description:
                        "no run in \(period.rawValue) \(name)\(Self.range(query)); `stride training \(period.rawValue)s` lists those with runs")
            }
            runs = all.filter { volume.workouts.contains($0.workout) }
            figures = .object([
                "runs": .integer(volume.runs), "km": TrainingFigures.kilometres(volume.kilometres),
                "seconds": TrainingFigures.seconds(volume.movingSeconds),
                "trimp": TrainingFigures.load(volume.trimp), "zones": TrainingFigures.zones(volume.secondsInZones),
            ])
            rules = [
                "km: the sum of each run's distance, from its counted copy (an archive's run: the distance the archive shows, as its shoe counts it)",
                "seconds: time in motion from each run's stream (distance growing at 0.5 m/s or more, each stretch at most 10 s); a run without a stream counts its elapsed time",
                Self.trimpRule, Self.zoneRule,
            ]
        case .effort(let distance, let year):
            let name = distance.name
            let candidates = year.map { year in all.filter { $0.day.year == year } } ?? all
            guard let best = TrainingLog.bestEfforts(candidates).first(where: { $0.distance.name == name }) else {
                throw UnknownSubject(description: "no run\(year.map { " in \($0)" } ?? "")\(Self.range(query)) has a stream covering \(name)")
            }
            effort = best
            runs = [best.run]
            // The readings themselves, from the stream's event.
            if let sequence = best.run.facts?.sequence, case .workoutStreamRecorded(let recorded)? = try ledger.event(at: sequence)?.event {
                let readings = recorded.stream.readings
                func around(_ second: Double) -> [RunStreamCodec.Reading] {
                    let after = readings.firstIndex { $0.seconds >= second } ?? readings.count - 1
                    return Array(readings[max(0, after - 1)...after])
                }
                effortReadings = (
                    around(best.effort.startSeconds), around(best.effort.endSeconds),
                    readings.count { $0.seconds >= best.effort.startSeconds && $0.seconds <= best.effort.endSeconds }
                )
            }
            figures = .object([
                "distance": .string(name), "meters": .number(best.distance.metres), "seconds": TrainingFigures.seconds(best.seconds),
                "fromSecond": TrainingFigures.seconds(best.effort.startSeconds), "toSecond": TrainingFigures.seconds(best.effort.endSeconds),
                "start": .string(time.format(best.start)),
            ])
            rules = [
                "the least elapsed time between two moments of one run's stream with \(PlausibleRange.number(best.distance.metres)) m between them, the distance interpolated linearly between readings",
                "no stretch of it goes faster between two readings than \(PlausibleRange.number(BestEffortPolicy.fastest)) m/s (a GPS jump, not running)",
                "compared over \(candidates.count) runs\(year.map { " of \($0)" } ?? ""), \(candidates.filter { $0.facts != nil }.count) with a stream",
            ]
        case .day(let day):
            guard day <= view.through else {
                throw UnknownSubject(description: "\(day) is after \(view.through), the last day the load runs through; give a day up to it")
            }
            let series = TrainingLog.load(view.runs, through: max(day, view.runs.first?.day ?? day))
            guard let index = series.firstIndex(where: { $0.date == day }) else {
                throw UnknownSubject(
                    description:
                        "the load starts on the day of the first run (\(view.runs.first?.day.description ?? "none yet")); \(day) is before it")
            }
            let today = series[index]
            let before = index > 0 ? series[index - 1] : nil
            runs = view.runs.filter { $0.day == day }
            figures = .object([
                "date": .string(day.description), "trimp": TrainingFigures.load(today.trimp), "fitness": TrainingFigures.load(today.fitness),
                "fatigue": TrainingFigures.load(today.fatigue), "form": TrainingFigures.load(today.form),
            ])
            let (fitness, fatigue) = (before?.fitness ?? 0, before?.fatigue ?? 0)
            func number(_ value: Double) -> String { String(format: "%.2f", value) }
            rules = [
                "TRIMP \(number(today.trimp)): the sum over the day's \(runs.count) run\(runs.count == 1 ? "" : "s")",
                "fitness = \(number(fitness)) + (\(number(today.trimp)) − \(number(fitness))) / 42 = \(number(today.fitness))",
                "fatigue = \(number(fatigue)) + (\(number(today.trimp)) − \(number(fatigue))) / 7 = \(number(today.fatigue))",
                "form = yesterday's fitness − fatigue = \(number(fitness)) − \(number(fatigue)) = \(number(today.form))",
                Self.trimpRule,
            ]
        }
    }

    static let trimpRule =
        "TRIMP: the sum over heart-rate readings of minutes × HRr × 0.64 × e^(1.92 × HRr), HRr = (HR − resting) / (maximum − resting) clamped to [0, 1]; each reading holds until the next, at most 10 s"
    static let zoneRule = "zones by percent of the maximum heart rate: Z1 [50, 60), Z2 [60, 70), Z3 [70, 80), Z4 [80, 90), Z5 90 and above"

    private static func range(_ query: TrainingQuery) -> String {
        switch (query.from, query.to) {
        case (nil, nil): ""
        case (let from?, nil): " from \(from)"
        case (nil, let to?): " through \(to)"
        case (let from?, let to?): " from \(from) through \(to)"
        }
    }

    /// The subject as the command line names it.
    public var title: String {
        switch subject {
        case .period(let period, let name): "\(period.rawValue) \(name)"
        case .effort(let distance, let year): "best \(distance.name)" + (year.map { " of \($0)" } ?? "")
        case .day(let day): "load on \(day)"
        }
    }

    /// A run, down to its events.
    func json(_ run: TrainingRun) -> JSONValue {
        var events: [JSONValue.Member] = [.init("recorded", .integer(run.recordedSequence))]
        events.append(.init("stream", run.facts.map { .integer($0.sequence) } ?? .null))
        events.append(
            .init(
                "settings",
                .array(
                    Set([run.maximumHeartRate.change?.sequence, run.restingHeartRate.change?.sequence].compactMap { $0 }).sorted().map {
                        .integer($0)
                    })))
        return .object([
            "workout": .string(Ledger.workoutID(run.workout)), "start": .string(time.format(run.start)), "day": .string(run.day.description),
            "km": TrainingFigures.kilometres(run.kilometres), "distanceFrom": .string(run.distanceSource), "source": .string(run.sourceName),
            "shoe": run.shoe.map(JSONValue.string) ?? .null, "sport": .string(run.sport),
            "copies": .array(run.copies.map { .string(Ledger.workoutID($0)) }),
            "stream": run.facts.map { facts in
                .object([
                    "workout": .string(Ledger.workoutID(run.streamWorkout ?? run.workout)), "source": .string(facts.source),
                    "readings": .integer(facts.readings),
                    "seconds": TrainingFigures.seconds(facts.seconds), "movingSeconds": TrainingFigures.seconds(facts.movingSeconds),
                    "climb": .number(TrainingFigures.rounded(facts.climbMetres, 1)),
                ])
            } ?? .null,
            "heartRateFrom": run.heartRateSource.map(JSONValue.string) ?? .null,
            "maximumHeartRate": TrainingFigures.setting(run.maximumHeartRate), "restingHeartRate": TrainingFigures.setting(run.restingHeartRate),
            "trimp": TrainingFigures.load(run.trimp), "zones": TrainingFigures.zones(run.secondsInZones),
            "events": .object(events),
        ])
    }

    public var json: JSONValue {
        var members: [JSONValue.Member] = [
            .init("explain", .string(title)), .init("figures", figures), .init("rules", .array(rules.map(JSONValue.string))),
            .init("runs", .array(runs.map(json))),
        ]
        if let readings = effortReadings {
            func reading(_ reading: RunStreamCodec.Reading) -> JSONValue {
                .object([
                    "second": .number(reading.seconds), "meters": reading.metres.map(JSONValue.number) ?? .null,
                    "heartRate": reading.heartRate.map(JSONValue.number) ?? .null,
                ])
            }
            members.append(
                .init(
                    "readings",
                    .object([
                        "atStart": .array(readings.atStart.map(reading)), "atEnd": .array(readings.atEnd.map(reading)),
                        "within": .integer(readings.within),
                    ])))
        }
        return .object(members)
    }
}
