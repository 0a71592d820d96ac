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
public enum ActivityPolicy {
    public static func total(_ facts: [Fact], day: Range<Timestamp>) -> ActivityTotal? {
        let dayStart = day.lowerBound.millisecondsSince1970
        let dayEnd = day.upperBound.millisecondsSince1970
        let spans = facts.filter {
            $0.end > $0.start && $0.start < day.upperBound && $0.end > day.lowerBound && $0.deviceClass != .summary
        }
        let points = facts.filter { $0.end == $0.start && day.contains($0.start) && $0.deviceClass != .summary }
        let summaries = facts.filter {
            $0.deviceClass == .summary
                && ($0.end > $0.start ? $0.start < day.upperBound && $0.end > day.lowerBound : day.contains($0.start))
        }
        guard !spans.isEmpty || !points.isEmpty || !summaries.isEmpty else { return nil }

        let ordered = cuts(spans, dayStart: dayStart, dayEnd: dayEnd)
        let contributions = sweep(spans, cuts: ordered).contributions
        var total = contributions.reduce(0, +)
        var used = Set(spans.indices.filter { contributions[$0] > 0 }.map { spans[$0].deviceClass })
        var usedCount = contributions.filter { $0 > 0 }.count
        var countedPoints: [Fact] = []
        for point in points {
            let instant = point.start
            let covering = spans.filter { $0.start <= instant && instant < $0.end }.map(\.deviceClass).min()
            if let covering, covering < point.deviceClass { continue }
            total += point.value
            used.insert(point.deviceClass)
            usedCount += 1
            countedPoints.append(point)
        }
        if !summaries.isEmpty {
            let added = SummaryTopUp.amounts(
                summaries, spans: spans, countedPoints: countedPoints, dayStart: dayStart, dayEnd: dayEnd)
            for amount in added where amount > 0 {
                total += amount
                used.insert(.summary)
                usedCount += 1
            }
        }
        return ActivityTotal(value: total, samplesUsed: usedCount, classes: used.sorted())
    }

    /// The class rule over the stretches between `cuts`: what each span contributes, and what
    /// each stretch holds. (Plain arrays and loops: an ingest's step awards total every day a
    /// file touches.)
    static func sweep(_ spans: [Fact], cuts ordered: [Int64]) -> (contributions: [Double], stretches: [Double]) {
        var contributions = [Double](repeating: 0, count: spans.count)
        var stretches = [Double](repeating: 0, count: max(0, ordered.count - 1))
        // Every start and end inside the day cuts it into stretches covered by a fixed set.
        let byStart = spans.indices.sorted { spans[$0].start < spans[$1].start }
        var next = 0
        var active: [Int] = []
        for cut in 1..<ordered.count {
            let (low, high) = (ordered[cut - 1], ordered[cut])
            while next < byStart.count, spans[byStart[next]].start.millisecondsSince1970 <= low {
                active.append(byStart[next])
                next += 1
            }
            active.removeAll { spans[$0].end.millisecondsSince1970 <= low }
            guard let first = active.first else { continue }
            var best = spans[first].deviceClass
            for index in active where spans[index].deviceClass < best { best = spans[index].deviceClass }
            for index in active where spans[index].deviceClass == best {
                let fact = spans[index]
                let duration = Double(fact.end.millisecondsSince1970 - fact.start.millisecondsSince1970)
                let share = fact.value * Double(high - low) / duration
                contributions[index] += share
                stretches[cut - 1] += share
            }
        }
        return (contributions, stretches)
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
