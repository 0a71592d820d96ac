import StrideEvents

/// How much each summary bucket adds to a day's activity total beyond what devices' own
/// samples (and finer buckets) already count in its span (see ``ActivityPolicy``).
enum SummaryTopUp {
    /// For each of `summaries`, in order, what it adds to the day (0 when nothing).
    ///
    /// The day is cut at every span's and bucket's start and end; each stretch holds what
    /// the devices' samples count there (their values spread evenly over their spans, by the
    /// class rule) and the zero-length samples that counted at an instant in it. Buckets are
    /// then taken finest first (shortest span, then earliest): a bucket's share of the day
    /// (its value times the part of its span inside the day over its span) is compared with
    /// what its stretches already hold, and any excess is spread evenly over them, so that a
    /// coarser bucket over the same time sees it. A zero-length bucket counts whole where no
    /// device's span or counted instant lies, else not at all.
    static func amounts(_ summaries: [Fact], spans: [Fact], countedPoints: [Fact], dayStart: Int64, dayEnd: Int64) -> [Double] {
        var edges = ActivityPolicy.cuts(spans + summaries.filter { $0.end > $0.start }, dayStart: dayStart, dayEnd: dayEnd)
        if edges.count < 2 { edges = [dayStart, dayEnd] }
        var held = ActivityPolicy.sweep(spans, cuts: edges).stretches
        for point in countedPoints {
            if let stretch = stretch(holding: point.start.millisecondsSince1970, in: edges) { held[stretch] += point.value }
        }
        var added = [Double](repeating: 0, count: summaries.count)
        let order = summaries.indices.sorted { lhs, rhs in
            let (left, right) = (summaries[lhs], summaries[rhs])
            let (leftSpan, rightSpan) = (
                left.end.millisecondsSince1970 - left.start.millisecondsSince1970,
                right.end.millisecondsSince1970 - right.start.millisecondsSince1970
            )
            return leftSpan != rightSpan ? leftSpan < rightSpan : left.start < right.start
        }
        for index in order {
            let bucket = summaries[index]
            guard bucket.value.isFinite, bucket.value > 0 else { continue }
            let start = bucket.start.millisecondsSince1970
            let end = bucket.end.millisecondsSince1970
            if end == start {
                let isCovered =
                    spans.contains { $0.start <= bucket.start && bucket.start < $0.end }
                    || countedPoints.contains { $0.start == bucket.start }
                if !isCovered { added[index] = bucket.value }
                continue
            }
            let low = max(start, dayStart)
            let high = min(end, dayEnd)
            guard low < high, let first = stretch(holding: low, in: edges) else { continue }
            var last = first
            var already = 0.0
            while last < held.count, edges[last] < high {
                already += held[last]
                last += 1
            }
            let share = bucket.value * Double(high - low) / Double(end - start)
            let excess = share - already
            // Spreading a value over stretches and adding it back up is exact only to a few
            // units in the last place: a bucket equal to what the samples hold adds nothing.
            guard excess > 1e-9 * max(1, abs(share)) else { continue }
            added[index] = excess
            for stretch in first..<last {
                held[stretch] += excess * Double(edges[stretch + 1] - edges[stretch]) / Double(high - low)
            }
        }
        return added
    }

    /// The index of the stretch `[edges[i], edges[i + 1])` holding an instant, or nil.
    private static func stretch(holding instant: Int64, in edges: [Int64]) -> Int? {
        guard let firstEdge = edges.first, let lastEdge = edges.last, instant >= firstEdge, instant < lastEdge else { return nil }
        var low = 0
        var high = edges.count - 1
        // Invariant: edges[low] <= instant < edges[high].
        while high - low > 1 {
            let middle = (low + high) / 2
            if edges[middle] <= instant { low = middle } else { high = middle }
        }
        return low
    }
}
