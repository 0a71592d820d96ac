import StrideEvents

/// How one sample counted in a day's figure.
public enum SampleOutcome: Hashable, Sendable {
    /// It counted: its part in the day.
    case counted
    /// It counted in part: a better device class took some of its time.
    case partlyOutranked(by: DeviceClass)
    /// It counted nothing: a better device class covered it.
    case outranked(by: DeviceClass)
    /// A summary (a pushed bucket or night) whose time the devices' own samples already
    /// account for: it adds nothing.
    case coveredByDevices
    /// Kept in the log, left out of figures (odd content, withdrawn, a repeat).
    case leftOut(LeftOut)
}

/// One sample of a day's measure, as `daily explain` shows it.
public struct ExplainedSample: Hashable, Sendable {
    /// The sample's fact (its event's sequence, span, value, device class).
    public var fact: Fact
    /// What of it falls in the day: for steps, distance and energy the part of its value inside
    /// the day; for sleep the seconds inside the night's window; for heart rate its value.
    public var inDay: Double
    /// What it added to the figure.
    public var counted: Double
    /// Why it counted as it did.
    public var outcome: SampleOutcome
    /// The figure once it is taken in: the running total (for heart rate the running average,
    /// for sleep the running union), whose last value is the figure. Nil until a sample counts.
    public var runningTotal: Double?
}

/// A part of a measure's figure beside the headline one (heart rate's minimum, a sleep stage).
public struct FigurePart: Hashable, Sendable {
    public var name: String
    public var value: Double?
}

/// Every sample that touched a day's measure, and how the figure was made of them.
public struct MeasureExplanation: Hashable, Sendable {
    /// The measure.
    public var measure: Measure
    /// The figure `stride daily` prints: steps, metres, kilocalories, the average heart rate,
    /// the resting rate, seconds asleep (in bed, with no watch); nil when the day has none.
    public var figure: Double?
    /// The figure's other parts.
    public var parts: [FigurePart]
    /// The samples that count, in the order the figure takes them in, then those left out.
    public var samples: [ExplainedSample]
    /// For steps, distance and energy: the stretches of the day each device class won.
    public var stretches: [WonStretch]
}

/// `daily explain`'s policy: each figure of a day down to its samples, by the same rules and in
/// the same order as the figure itself (``DailyRecord``), so that the last running total is the
/// figure. Pure.
public enum DayExplanation {
    /// The explanations of `measures` for a day, from its facts.
    public static func explain(_ facts: DayFacts, day: CivilDate, calendar: ZonedCalendar, measures: [Measure]) -> [MeasureExplanation] {
        let span = calendar.span(of: day)
        return measures.map { measure in
            let counting = facts[measure]
            var explanation: MeasureExplanation
            switch measure {
            case .steps, .distance, .activeEnergy: explanation = activity(measure, counting, day: span)
            case .heartRate: explanation = heartRate(counting, day: span)
            case .restingHeartRate: explanation = resting(counting, day: span)
            case .sleep: explanation = sleep(counting, window: calendar.sleepWindow(of: day))
            }
            explanation.samples += facts.leftOut(of: measure).map { fact in
                ExplainedSample(fact: fact, inDay: fact.value, counted: 0, outcome: .leftOut(fact.leftOut), runningTotal: nil)
            }
            return explanation
        }
    }

    static func activity(_ measure: Measure, _ facts: [Fact], day: Range<Timestamp>) -> MeasureExplanation {
        guard let evaluation = ActivityPolicy.evaluate(facts, day: day) else {
            return MeasureExplanation(measure: measure, figure: nil, parts: [], samples: [], stretches: [])
        }
        let samples = evaluation.entries.map { entry in
            let outcome: SampleOutcome
            if case .summary = entry.kind {
                outcome = entry.counted > 0 ? .counted : .coveredByDevices
            } else if let better = entry.outrankedBy {
                outcome = entry.counted > 0 ? .partlyOutranked(by: better) : .outranked(by: better)
            } else {
                outcome = .counted
            }
            return ExplainedSample(
                fact: facts[entry.factIndex], inDay: entry.inDay, counted: entry.counted, outcome: outcome, runningTotal: entry.runningTotal)
        }
        return MeasureExplanation(measure: measure, figure: evaluation.total, parts: [], samples: samples, stretches: evaluation.stretches)
    }

    static func heartRate(_ facts: [Fact], day: Range<Timestamp>) -> MeasureExplanation {
        let summary = HeartRatePolicy.summary(facts, day: day)
        let inDay = facts.filter { day.contains($0.start) }
        let hasWatch = HeartRatePolicy.ownSamplesFirst(inDay).contains { $0.deviceClass == .watch }
        return MeasureExplanation(
            measure: .heartRate, figure: summary?.average,
            parts: [
                FigurePart(name: "minimum", value: summary?.minimum), FigurePart(name: "maximum", value: summary?.maximum),
                FigurePart(name: "count", value: summary.map { Double($0.count) }),
            ], samples: runningMean(inDay, outranking: hasWatch ? .watch : nil), stretches: [])
    }

    static func resting(_ facts: [Fact], day: Range<Timestamp>) -> MeasureExplanation {
        MeasureExplanation(
            measure: .restingHeartRate, figure: HeartRatePolicy.resting(facts, day: day), parts: [],
            samples: runningMean(facts.filter { day.contains($0.start) }, outranking: nil), stretches: [])
    }

    /// A day's readings with the running mean of those that count: a summary counts only on a
    /// day without the devices' own readings, and with `best`, only that class's readings count
    /// (the order and the sum are ``HeartRatePolicy``'s, so the last mean is its figure).
    private static func runningMean(_ inDay: [Fact], outranking best: DeviceClass?) -> [ExplainedSample] {
        let hasOwn = inDay.contains { $0.deviceClass != .summary }
        var sum = 0.0
        var count = 0
        return inDay.map { fact -> ExplainedSample in
            let outcome: SampleOutcome? =
                fact.deviceClass == .summary && hasOwn
                ? .coveredByDevices : best.flatMap { fact.deviceClass == $0 ? nil : .outranked(by: $0) }
            if let outcome {
                return ExplainedSample(
                    fact: fact, inDay: fact.value, counted: 0, outcome: outcome, runningTotal: count > 0 ? sum / Double(count) : nil)
            }
            sum += fact.value
            count += 1
            return ExplainedSample(fact: fact, inDay: fact.value, counted: fact.value, outcome: .counted, runningTotal: sum / Double(count))
        }
    }

    static func sleep(_ facts: [Fact], window: Range<Timestamp>) -> MeasureExplanation {
        let summary = SleepPolicy.summary(facts, window: window)
        let overlapping = facts.filter { fact in
            fact.start == fact.end ? window.contains(fact.start) : fact.start < window.upperBound && fact.end > window.lowerBound
        }
        let hasOwn = overlapping.contains { $0.deviceClass != .summary }
        // What the policy counts: the watch's own samples when it wrote any (or the summaries'
        // stages in a night of summaries only); else time in bed from every source.
        let countsStages = summary?.asleep != nil
        let usesWatchOnly = countsStages && hasOwn
        let asleepStages: Set<SleepValue> = [.asleepUnspecified, .asleepCore, .asleepDeep, .asleepREM]
        var asleep: [Range<Timestamp>] = []
        var inBed: [Range<Timestamp>] = []
        var running: Double?
        let samples = overlapping.map { fact -> ExplainedSample in
            let seconds = Double(Intervals.unionLength([fact.start..<fact.end], within: window) / 1000)
            if fact.deviceClass == .summary, hasOwn {
                return ExplainedSample(fact: fact, inDay: seconds, counted: 0, outcome: .coveredByDevices, runningTotal: running)
            }
            if usesWatchOnly, fact.deviceClass != .watch {
                return ExplainedSample(fact: fact, inDay: seconds, counted: 0, outcome: .outranked(by: .watch), runningTotal: running)
            }
            let before = running ?? 0
            if countsStages {
                if let stage = fact.sleep, asleepStages.contains(stage) { asleep.append(fact.start..<fact.end) }
                running = Double(Intervals.unionLength(asleep, within: window) / 1000)
            } else {
                if fact.sleep == .inBed { inBed.append(fact.start..<fact.end) }
                running = Double(Intervals.unionLength(inBed, within: window) / 1000)
            }
            return ExplainedSample(fact: fact, inDay: seconds, counted: (running ?? 0) - before, outcome: .counted, runningTotal: running)
        }
        let parts: [FigurePart] = [
            FigurePart(name: "inBed", value: summary.map { Double($0.inBed) }),
            FigurePart(name: "asleepCore", value: summary?.asleepCore.map(Double.init)),
            FigurePart(name: "asleepDeep", value: summary?.asleepDeep.map(Double.init)),
            FigurePart(name: "asleepREM", value: summary?.asleepREM.map(Double.init)),
            FigurePart(name: "asleepUnspecified", value: summary?.asleepUnspecified.map(Double.init)),
            FigurePart(name: "awake", value: summary?.awake.map(Double.init)),
        ]
        return MeasureExplanation(
            measure: .sleep, figure: summary.map { Double($0.asleep ?? $0.inBed) }, parts: parts, samples: samples, stretches: [])
    }
}
