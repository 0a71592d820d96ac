import StrideEvents

/// A night's sleep, over a day's 18:00–18:00 window, in whole seconds.
public struct SleepSummary: Hashable, Sendable {
    /// Time in bed (the union of InBed intervals).
    public var inBed: Int
    /// Asleep with no stage, including the deprecated `Asleep`; nil without a watch.
    public var asleepUnspecified: Int?
    /// Core sleep; nil without a watch.
    public var asleepCore: Int?
    /// Deep sleep; nil without a watch.
    public var asleepDeep: Int?
    /// REM sleep; nil without a watch.
    public var asleepREM: Int?
    /// Awake; nil without a watch.
    public var awake: Int?
    /// The union of the four asleep stages; nil without a watch.
    public var asleep: Int?
    /// `watch` when a watch's samples were used, `summary` when only summaries were (a night
    /// no device's own sample covers), `other` when only others were.
    public var source: DeviceClass
    /// The samples used.
    public var samples: Int
}

/// The sleep rule: samples overlapping the window, clipped to it; if any is from a watch,
/// only the watch's count, each stage as the measure of the union of its intervals (overlaps
/// never count twice); with no watch, only in-bed time is known, from every source.
///
/// Summaries (``DeviceClass/summary``, Health Auto Export's nights) count only in a window
/// with no other sleep sample: a night an export brought is counted from the export alone.
/// In a window of summaries only, their stages count as a watch's do when any of them has
/// time asleep or awake (the app summarises the watch's stages), else only in-bed time is
/// known; the source is `summary` either way.
public enum SleepPolicy {
    public static func summary(_ facts: [Fact], window: Range<Timestamp>) -> SleepSummary? {
        let overlapping = facts.filter { fact in
            fact.start == fact.end ? window.contains(fact.start) : fact.start < window.upperBound && fact.end > window.lowerBound
        }
        guard !overlapping.isEmpty else { return nil }
        let own = overlapping.filter { $0.deviceClass != .summary }
        let inWindow = own.isEmpty ? overlapping : own
        let isSummary = own.isEmpty
        let hasWatch =
            isSummary
            ? inWindow.contains { $0.end > $0.start && $0.sleep.map { $0 != .inBed } ?? false }
            : inWindow.contains { $0.deviceClass == .watch }
        let used = hasWatch && !isSummary ? inWindow.filter { $0.deviceClass == .watch } : inWindow
        func seconds(_ stages: Set<SleepValue>) -> Int {
            Int(Intervals.unionLength(used.filter { $0.sleep.map(stages.contains) ?? false }.map { $0.start..<$0.end }, within: window) / 1000)
        }
        let inBed = seconds([.inBed])
        guard hasWatch else {
            return SleepSummary(
                inBed: inBed, asleepUnspecified: nil, asleepCore: nil, asleepDeep: nil, asleepREM: nil, awake: nil, asleep: nil,
                source: isSummary ? .summary : .other, samples: used.filter { $0.sleep == .inBed }.count)
        }
        return SleepSummary(
            inBed: inBed, asleepUnspecified: seconds([.asleepUnspecified]), asleepCore: seconds([.asleepCore]),
            asleepDeep: seconds([.asleepDeep]), asleepREM: seconds([.asleepREM]), awake: seconds([.awake]),
            asleep: seconds([.asleepUnspecified, .asleepCore, .asleepDeep, .asleepREM]), source: isSummary ? .summary : .watch,
            samples: used.count)
    }
}

/// Measures of sets of intervals.
public enum Intervals {
    /// The length, in milliseconds, of the union of `spans` clipped to `window`.
    public static func unionLength(_ spans: [Range<Timestamp>], within window: Range<Timestamp>) -> Int64 {
        let clipped = spans.compactMap { span -> Range<Int64>? in
            let start = max(span.lowerBound, window.lowerBound).millisecondsSince1970
            let end = min(span.upperBound, window.upperBound).millisecondsSince1970
            return start < end ? start..<end : nil
        }.sorted { $0.lowerBound < $1.lowerBound }
        var total: Int64 = 0
        var current: Range<Int64>?
        for span in clipped {
            if let open = current, span.lowerBound <= open.upperBound {
                current = open.lowerBound..<max(open.upperBound, span.upperBound)
            } else {
                if let open = current { total += open.upperBound - open.lowerBound }
                current = span
            }
        }
        if let open = current { total += open.upperBound - open.lowerBound }
        return total
    }
}
