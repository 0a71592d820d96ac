import StrideEvents

/// The training log's figures, from the runs (``TrainingRun``). Pure: the same runs give the
/// same figures, whenever and wherever asked.
public enum TrainingLog {
    /// Volume over a period (an ISO week, a month, a year).
    public struct Volume: Sendable, Hashable {
        /// `2024-W03`, `2024-01` or `2024`.
        public var period: String
        /// Its first day.
        public var start: CivilDate
        public var runs = 0
        public var kilometres = 0.0
        /// Seconds in motion, and from start to end.
        public var movingSeconds = 0.0
        public var elapsedSeconds = 0.0
        public var climbMetres = 0.0
        public var trimp = 0.0
        /// Seconds in each zone (index 0 is Z1).
        public var secondsInZones = [Double](repeating: 0, count: 5)
        /// Kilometres by shoe name; runs on no shoe under ``noShoe``.
        public var kilometresByShoe: [String: Double] = [:]
        /// Kilometres by sport (``RunSport``).
        public var kilometresBySport: [String: Double] = [:]
        /// The runs, by start.
        public var workouts: [UInt128] = []

        public init(period: String, start: CivilDate) {
            self.period = period
            self.start = start
        }

        mutating func add(_ run: TrainingRun) {
            runs += 1
            kilometres += run.kilometres
            movingSeconds += run.movingSeconds
            elapsedSeconds += run.elapsedSeconds
            climbMetres += run.climbMetres
            trimp += run.trimp
            for (zone, seconds) in run.secondsInZones.enumerated() { secondsInZones[zone] += seconds }
            kilometresByShoe[run.shoe ?? TrainingLog.noShoe, default: 0] += run.kilometres
            kilometresBySport[run.sport, default: 0] += run.kilometres
            workouts.append(run.workout)
        }
    }

    /// The runs by start: as given when they are (the ledger's are), else sorted.
    static func inOrder(_ runs: [TrainingRun]) -> [TrainingRun] {
        zip(runs, runs.dropFirst()).allSatisfy { $0.start <= $1.start } ? runs : runs.sorted { $0.start < $1.start }
    }

    /// The name runs on no shoe are counted under.
    public static let noShoe = "(no shoe)"

    /// How runs are grouped into periods.
    public enum Period: String, Sendable, CaseIterable {
        case week, month, year

        /// The period holding a day: its name and first day.
        public func holding(_ day: CivilDate) -> (name: String, start: CivilDate) {
            switch self {
            case .week: (ISOWeek.name(of: day), ISOWeek.start(of: day))
            // `2024-01-15`'s first seven and four characters.
            case .month: (String(day.description.prefix(7)), CivilDate(year: day.year, month: day.month, day: 1))
            case .year: (String(day.description.prefix(4)), CivilDate(year: day.year, month: 1, day: 1))
            }
        }
    }

    /// Volume per period, for the periods with a run, oldest first.
    public static func volume(_ runs: [TrainingRun], per period: Period) -> [Volume] {
        var byStart: [CivilDate: Volume] = [:]
        for run in inOrder(runs) {
            let (name, start) = period.holding(run.day)
            byStart[start, default: Volume(period: name, start: start)].add(run)
        }
        return byStart.values.sorted { $0.start < $1.start }
    }

    /// A best effort: the run, where in it, and how long.
    public struct BestEffort: Sendable, Hashable {
        public var distance: BestEffortPolicy.Distance
        public var seconds: Double
        public var run: TrainingRun
        public var effort: RunFacts.Effort
        /// When the effort started.
        public var start: Timestamp { run.facts.map { $0.start.adding(milliseconds: Int64((effort.startSeconds * 1000).rounded())) } ?? run.start }
    }

    /// The best effort over each distance among the runs (fastest first where two tie: the
    /// earlier run), in the order of ``BestEffortPolicy/Distance/all``; a distance no run
    /// covered is left out.
    public static func bestEfforts(_ runs: [TrainingRun]) -> [BestEffort] {
        BestEffortPolicy.Distance.all.compactMap { distance in
            var best: BestEffort?
            for run in inOrder(runs) {
                guard let effort = run.facts?.efforts.first(where: { $0.distance == distance.name }) else { continue }
                if best.map({ effort.seconds < $0.seconds }) ?? true {
                    best = BestEffort(distance: distance, seconds: effort.seconds, run: run, effort: effort)
                }
            }
            return best
        }
    }

    /// Seconds in each zone (index 0 is Z1) over the runs.
    public static func secondsInZones(_ runs: [TrainingRun]) -> [Double] {
        var seconds = [Double](repeating: 0, count: 5)
        for run in runs {
            for (zone, held) in run.secondsInZones.enumerated() { seconds[zone] += held }
        }
        return seconds
    }

    /// Fitness, fatigue and form for every day from the first run through `last`.
    public static func load(_ runs: [TrainingRun], through last: CivilDate) -> [TrainingLoadPolicy.Day] {
        var trimpByDay: [CivilDate: Double] = [:]
        for run in runs { trimpByDay[run.day, default: 0] += run.trimp }
        return TrainingLoadPolicy.days(trimpByDay: trimpByDay, through: last)
    }
}

extension TrainingLog {
    /// A shoe's outlook: its kilometres, what it ran in the last eight weeks, and the day it
    /// reaches its goal at that pace (``ShoeForecast``).
    public struct ShoeOutlook: Sendable, Hashable {
        public var name: String
        public var kilometres: Double
        public var goalKilometres: Double?
        public var isRetired: Bool
        /// Kilometres of its runs over the ``ShoeForecast/windowDays`` through the day asked.
        public var recentKilometres: Double
        /// The day it reaches its goal; nil without a goal, retired, or with no run lately.
        public var goalDay: CivilDate?

        public init(name: String, kilometres: Double, goalKilometres: Double?, isRetired: Bool, recentKilometres: Double, goalDay: CivilDate?) {
            self.name = name
            self.kilometres = kilometres
            self.goalKilometres = goalKilometres
            self.isRetired = isRetired
            self.recentKilometres = recentKilometres
            self.goalDay = goalDay
        }
    }

    /// Each shoe's outlook on `today`, from the runs on it (by name) over the eight weeks
    /// through `today`. A retired shoe, or one without a goal, has no goal day.
    public static func shoeOutlooks(
        _ shoes: [(name: String, kilometres: Double, goalKilometres: Double?, isRetired: Bool)], runs: [TrainingRun], today: CivilDate
    ) -> [ShoeOutlook] {
        let first = today.adding(days: -(ShoeForecast.windowDays - 1))
        var recent: [String: Double] = [:]
        for run in runs where run.day >= first && run.day <= today {
            if let shoe = run.shoe { recent[shoe, default: 0] += run.kilometres }
        }
        return shoes.map { shoe in
            let lately = recent[shoe.name] ?? 0
            let day =
                shoe.isRetired
                ? nil
                : shoe.goalKilometres.flatMap {
                    ShoeForecast.goalDay(kilometres: shoe.kilometres, goal: $0, recentKilometres: lately, today: today)
                }
            return ShoeOutlook(
                name: shoe.name, kilometres: shoe.kilometres, goalKilometres: shoe.goalKilometres, isRetired: shoe.isRetired,
                recentKilometres: lately, goalDay: day)
        }
    }
}
