import StrideEvents

/// A day's heart rate, in beats per minute.
public struct HeartRateSummary: Hashable, Sendable {
    public var average: Double
    public var minimum: Double
    public var maximum: Double
    /// The samples used.
    public var count: Int
    /// The device class whose samples were used.
    public var source: DeviceClass
}

/// The heart-rate rule: samples whose start lies in the day; if any is from a watch, only
/// the watch's count. Resting heart rate: the mean of the day's resting samples.
///
/// Summaries (``DeviceClass/summary``, Health Auto Export's points) count only on a day with
/// no other sample of the measure: they are HealthKit's statistics over the samples an export
/// brings, so a day that has those has them already. A summary's value is its bucket's
/// average; the day's minimum and maximum are then those of the buckets' averages (exact
/// for Health Auto Export's default per-second grouping, where each point is one reading).
public enum HeartRatePolicy {
    public static func summary(_ facts: [Fact], day: Range<Timestamp>) -> HeartRateSummary? {
        let inDay = ownSamplesFirst(facts.filter { day.contains($0.start) })
        guard !inDay.isEmpty else { return nil }
        let hasWatch = inDay.contains { $0.deviceClass == .watch }
        let used = hasWatch ? inDay.filter { $0.deviceClass == .watch } : inDay
        let values = used.map(\.value)
        let best = used.map(\.deviceClass).min() ?? .other
        return HeartRateSummary(
            average: values.reduce(0, +) / Double(values.count), minimum: values.min() ?? 0, maximum: values.max() ?? 0,
            count: values.count, source: best)
    }

    /// The mean of the resting samples whose start lies in the day, or nil.
    public static func resting(_ facts: [Fact], day: Range<Timestamp>) -> Double? {
        let values = ownSamplesFirst(facts.filter { day.contains($0.start) }).map(\.value)
        return values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
    }

    /// The facts that are not summaries when there are any; else the summaries.
    static func ownSamplesFirst(_ facts: [Fact]) -> [Fact] {
        guard facts.contains(where: { $0.deviceClass == .summary }) else { return facts }
        let own = facts.filter { $0.deviceClass != .summary }
        return own.isEmpty ? facts : own
    }
}
