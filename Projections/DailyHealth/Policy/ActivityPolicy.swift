import StrideEvents

/// A day's total of an additive measure (steps, metres, kilocalories) and what made it.
public struct ActivityTotal: Hashable, Sendable {
    /// The total.
    public var value: Double
    /// The samples that counted for something.
    public var samplesUsed: Int
    /// Their device classes, best first.
    public var classes: [DeviceClass]
}

/// The activity rule for steps, distance and energy over a day: a sample's value is spread
/// evenly over its span, so one crossing midnight is split by time; where samples of several
/// device classes overlap, the best class present (watch, then phone, then other) takes each
/// stretch of time and the others count nothing there, while two samples of the winning
/// class that overlap both count; a zero-length sample counts where no better class covers
/// its instant. Nil when no sample touches the day.
///
/// Summaries (``DeviceClass/summary``, Health Auto Export's buckets) are HealthKit's totals
/// over the same samples a device wrote, so they only fill in: a bucket adds what the
/// devices' samples (and the finer buckets already counted) leave of its value within its
/// span, never less than nothing — `max(0, bucket − what is already counted there)`.
/// Buckets are taken finest first, so an hour bucket tops up its minutes, and a day bucket
/// its hours. Where no device sample lies in a bucket, it counts whole; where an export's
/// samples already account for it, it adds nothing. (The class order alone would not do: a
/// bucket spreads its value over its whole span, so it would count again in the gaps
/// between the samples it was computed from.)
///
/// The total is the sum of what each sample counts for, taken in the order the ledger
/// recorded them, then the summaries': `daily explain` lists them in that order with a running
/// total, so its last line is the figure, always (``ActivityEvaluation``).
public enum ActivityPolicy {
    public static func total(_ facts: [Fact], day: Range<Timestamp>) -> ActivityTotal? {
        evaluate(facts, day: day, explaining: false).map { ActivityTotal(value: $0.total, samplesUsed: $0.samplesUsed, classes: $0.classes) }
    }

    /// How each of `facts` counts in the day: ``total(_:day:)`` with the reasons. With
    /// `explaining`, the stretches each class won and who outranked whom are worked out too.
    public static func evaluate(_ facts: [Fact], day: Range<Timestamp>, explaining: Bool = true) -> ActivityEvaluation? {
        let dayStart = day.lowerBound.millisecondsSince1970
        let dayEnd = day.upperBound.millisecondsSince1970
        // Each fact's role: a span, an instant or a summary touching the day, or nothing.
        var spans: [Fact] = []
        var points: [Fact] = []
        var summaries: [Fact] = []
        var roles: [(index: Int, kind: ActivityEvaluation.Kind)] = []
        for (index, fact) in facts.enumerated() {
            let touches = fact.end > fact.start ? fact.start < day.upperBound && fact.end > day.lowerBound : day.contains(fact.start)
            guard touches else { continue }
            if fact.deviceClass == .summary {
                roles.append((index, .summary(summaries.count)))
                summaries.append(fact)
            } else if fact.end > fact.start {
                roles.append((index, .span(spans.count)))
                spans.append(fact)
            } else {
                roles.append((index, .instant(points.count)))
                points.append(fact)
            }
        }
        guard !roles.isEmpty else { return nil }

        let ordered = cuts(spans, dayStart: dayStart, dayEnd: dayEnd)
        let swept = sweep(spans, cuts: ordered, explaining: explaining)
        var pointCounted = [Double](repeating: 0, count: points.count)
        var pointOutrankedBy = [DeviceClass?](repeating: nil, count: points.count)
        var countedPoints: [Fact] = []
        for (index, point) in points.enumerated() {
            let instant = point.start
            let covering = spans.filter { $0.start <= instant && instant < $0.end }.map(\.deviceClass).min()
            if let covering, covering < point.deviceClass {
                pointOutrankedBy[index] = covering
                continue
            }
            pointCounted[index] = point.value
            countedPoints.append(point)
        }
        let summaryAmounts =
            summaries.isEmpty
            ? [] : SummaryTopUp.amounts(summaries, spans: spans, countedPoints: countedPoints, dayStart: dayStart, dayEnd: dayEnd)

        var evaluation = ActivityEvaluation(stretches: explaining ? swept.won : [])
        var used = Set<DeviceClass>()
        func add(_ index: Int, _ kind: ActivityEvaluation.Kind, counted: Double, inDay: Double, outrankedBy: DeviceClass?, counts: Bool) {
            evaluation.total += counted
            if counts {
                used.insert(facts[index].deviceClass)
                evaluation.samplesUsed += 1
            }
            evaluation.entries.append(
                ActivityEvaluation.Entry(
                    factIndex: index, kind: kind, inDay: inDay, counted: counted, outrankedBy: outrankedBy, runningTotal: evaluation.total))
        }
        // Devices' own samples in the order recorded, then the summaries in theirs.
        for (index, kind) in roles {
            switch kind {
            case .span(let span):
                let fact = spans[span]
                let overlap = min(dayEnd, fact.end.millisecondsSince1970) - max(dayStart, fact.start.millisecondsSince1970)
                let inDay = fact.value * Double(overlap) / Double(fact.end.millisecondsSince1970 - fact.start.millisecondsSince1970)
                add(
                    index, kind, counted: swept.contributions[span], inDay: inDay, outrankedBy: explaining ? swept.lostTo[span] : nil,
                    counts: swept.contributions[span] > 0)
            case .instant(let point):
                add(
                    index, kind, counted: pointCounted[point], inDay: points[point].value, outrankedBy: pointOutrankedBy[point],
                    counts: pointOutrankedBy[point] == nil)
            case .summary:
                continue
            }
        }
        for (index, kind) in roles {
            guard case .summary(let summary) = kind else { continue }
            let bucket = summaries[summary]
            let inDay: Double
            if bucket.end > bucket.start {
                let overlap = min(dayEnd, bucket.end.millisecondsSince1970) - max(dayStart, bucket.start.millisecondsSince1970)
                inDay = bucket.value * Double(overlap) / Double(bucket.end.millisecondsSince1970 - bucket.start.millisecondsSince1970)
            } else {
                inDay = bucket.value
            }
            add(index, kind, counted: max(0, summaryAmounts[summary]), inDay: inDay, outrankedBy: nil, counts: summaryAmounts[summary] > 0)
        }
        evaluation.classes = used.sorted()
        return evaluation
    }

    /// The class rule over the stretches between `cuts`: what each span contributes, and what
    /// each stretch holds. With `explaining`, also the stretches each class won (merged) and,
    /// for each span, the best class that took time from it. (Plain arrays and loops: an
    /// ingest's step awards total every day a file touches.)
    static func sweep(
        _ spans: [Fact], cuts ordered: [Int64], explaining: Bool = false
    ) -> (contributions: [Double], stretches: [Double], won: [WonStretch], lostTo: [DeviceClass?]) {
        var contributions = [Double](repeating: 0, count: spans.count)
        var stretches = [Double](repeating: 0, count: max(0, ordered.count - 1))
        var won: [WonStretch] = []
        var lostTo = [DeviceClass?](repeating: nil, count: explaining ? spans.count : 0)
        // Every start and end inside the day cuts it into stretches covered by a fixed set.
        let byStart = spans.indices.sorted { spans[$0].start < spans[$1].start }
        var next = 0
        var active: [Int] = []
        for cut in 1..<max(1, ordered.count) {
            let (low, high) = (ordered[cut - 1], ordered[cut])
            while next < byStart.count, spans[byStart[next]].start.millisecondsSince1970 <= low {
                active.append(byStart[next])
                next += 1
            }
            active.removeAll { spans[$0].end.millisecondsSince1970 <= low }
            guard let first = active.first else { continue }
            var best = spans[first].deviceClass
            for index in active where spans[index].deviceClass < best { best = spans[index].deviceClass }
            for index in active {
                guard spans[index].deviceClass == best else {
                    if explaining { lostTo[index] = min(lostTo[index] ?? best, best) }
                    continue
                }
                let fact = spans[index]
                let duration = Double(fact.end.millisecondsSince1970 - fact.start.millisecondsSince1970)
                let share = fact.value * Double(high - low) / duration
                contributions[index] += share
                stretches[cut - 1] += share
            }
            if explaining {
                let start = Timestamp(millisecondsSince1970: low)
                let end = Timestamp(millisecondsSince1970: high)
                if let last = won.last, last.deviceClass == best, last.end == start {
                    won[won.count - 1].end = end
                    won[won.count - 1].amount += stretches[cut - 1]
                } else {
                    won.append(WonStretch(start: start, end: end, deviceClass: best, amount: stretches[cut - 1]))
                }
            }
        }
        return (contributions, stretches, won, lostTo)
    }

    /// The day's start and end and every span's start and end within it, in order, once each.
    static func cuts(_ spans: [Fact], dayStart: Int64, dayEnd: Int64) -> [Int64] {
        var cuts: [Int64] = [dayStart, dayEnd]
        cuts.reserveCapacity(2 * spans.count + 2)
        for fact in spans {
            cuts.append(max(dayStart, fact.start.millisecondsSince1970))
            cuts.append(min(dayEnd, fact.end.millisecondsSince1970))
        }
        cuts.sort()
        var kept = 0
        for index in cuts.indices where index == 0 || cuts[index] != cuts[kept - 1] {
            cuts[kept] = cuts[index]
            kept += 1
        }
        cuts.removeLast(cuts.count - kept)
        return cuts
    }
}

/// A stretch of a day that one device class won: from `start` to `end`, its samples counted
/// `amount` there and every other class nothing.
public struct WonStretch: Hashable, Sendable {
    public var start: Timestamp
    public var end: Timestamp
    public var deviceClass: DeviceClass
    public var amount: Double
}

/// How each sample touching a day counted in its activity total, in the order of the sum.
public struct ActivityEvaluation: Hashable, Sendable {
    /// A sample's role in the day.
    public enum Kind: Hashable, Sendable {
        /// A sample with a span (its index among the day's spans).
        case span(Int)
        /// A zero-length sample (its index among the day's instants).
        case instant(Int)
        /// A summary bucket (its index among the day's summaries).
        case summary(Int)
    }

    /// One sample: where it is among the facts given, what part of its value falls in the
    /// day, what it counted for, the better class that took time from it (if one did), and
    /// the total once it is added.
    public struct Entry: Hashable, Sendable {
        public var factIndex: Int
        public var kind: Kind
        public var inDay: Double
        public var counted: Double
        public var outrankedBy: DeviceClass?
        public var runningTotal: Double
    }

    /// The samples, in the order the total adds them up.
    public var entries: [Entry] = []
    /// The stretches each class won (when explaining).
    public var stretches: [WonStretch]
    /// The total: the last running total.
    public var total: Double = 0
    /// The samples that counted for something.
    public var samplesUsed = 0
    /// Their classes, best first.
    public var classes: [DeviceClass] = []

    init(stretches: [WonStretch]) {
        self.stretches = stretches
    }
}
