import StrideEvents

/// Reads Health Auto Export's `sleep_analysis` points, in their three shapes, into sleep
/// samples (`HKCategoryValueSleepAnalysis…` values, no unit).
///
/// - Unaggregated (`startDate`, `endDate`, `value`): one HealthKit sample each, kept as is.
/// - Aggregated, one point a night, before app 6.6.2 (`asleep`, `inBed`, with `sleepStart`,
///   `sleepEnd`, `inBedStart`, `inBedEnd`) and since (`core`, `deep`, `rem`, `awake`,
///   `asleep`, `inBed`, sometimes `totalSleep` and `inBedStart`/`inBedEnd`), all in hours: a
///   night has totals, not intervals, so its stages are laid out back to back from
///   `sleepStart` (unstaged `asleep`, then core, deep, REM, awake) — the daily record counts
///   each stage's total within its 18:00–18:00 window, where the order does not matter — and
///   its time in bed spans `inBedStart`–`inBedEnd` when given, else `inBed` hours from
///   `sleepStart`. A night is named by the local date of its `sleepEnd`; each stage of it is
///   a revisable sample, so a night re-sent with more sleep replaces the one before.
struct SleepReader {
    var maker: SampleMaker

    /// The stages of an aggregated night, in the order they are laid out.
    private static let stages: [(key: String, value: String)] = [
        ("asleep", SleepValue.asleepUnspecified.identifier),
        ("core", SleepValue.asleepCore.identifier),
        ("deep", SleepValue.asleepDeep.identifier),
        ("rem", SleepValue.asleepREM.identifier),
        ("awake", SleepValue.awake.identifier),
    ]
    private static let inBed = SleepValue.inBed.identifier

    /// Reads one point, handing its samples to `emit`; with no `emit`, only checks its dates.
    /// - Returns: its start as printed (`startDate`, or `sleepStart` for a night).
    /// - Throws: ``FieldError`` for a point without its dates; what `emit` throws.
    @discardableResult
    mutating func read(_ point: DocumentObject, metricName: String, emit: ((PushedSample) throws -> Void)?) throws -> HealthAutoExportDate {
        if point["startDate"] != nil || point["endDate"] != nil {
            let start = try point.date("startDate")
            let end = try point.date("endDate")
            if let emit { try emit(unaggregated(point, start: start, end: end, metricName: metricName)) }
            return start
        }
        let sleepStart = try point.date("sleepStart")
        let sleepEnd = try point.date("sleepEnd")
        let inBedStart = try point.optionalDate("inBedStart")
        let inBedEnd = try point.optionalDate("inBedEnd")
        guard let emit else { return sleepStart }
        for sample in night(point, metricName: metricName, sleep: (sleepStart, sleepEnd), inBed: (inBedStart, inBedEnd)) {
            try emit(sample)
        }
        return sleepStart
    }

    private mutating func unaggregated(
        _ point: DocumentObject, start: HealthAutoExportDate, end: HealthAutoExportDate, metricName: String
    ) -> PushedSample {
        let written = point.optionalText("value") ?? ""
        // A value not listed is kept as written, and left out of figures as unknown.
        let value = HealthAutoExportNames.sleepValue(written) ?? written
        let source = SampleMaker.source(point.optionalText("source"))
        return maker.fixed(
            type: HealthAutoExportNames.sleepAnalysis, value: .text(value), unit: nil, start: start.instant, end: end.instant,
            source: source,
            content: "\(start.instant.millisecondsSince1970)\u{1F}\(end.instant.millisecondsSince1970)\u{1F}\(written)\u{1F}\(source)",
            metadata: [MetadataEntry(key: "HAEName", value: metricName)]
                + SampleMaker.members(of: point, excluding: ["startDate", "endDate", "source", "value"]),
            path: point.path)
    }

    private mutating func night(
        _ point: DocumentObject, metricName: String, sleep: (start: HealthAutoExportDate, end: HealthAutoExportDate),
        inBed: (start: HealthAutoExportDate?, end: HealthAutoExportDate?)
    ) -> [PushedSample] {
        let (sleepStart, sleepEnd) = sleep
        let (inBedStart, inBedEnd) = inBed
        let night = sleepEnd.date.description
        let members = SampleMaker.members(of: point)
        let content = SampleMaker.content(members, units: "hr")
        let metadata = [MetadataEntry(key: "HAEName", value: metricName)] + members
        let stageSource = SampleMaker.source(point.optionalText("source") ?? point.optionalText("sleepSource"))
        var hours = Self.stages.map { point.number($0.key) }
        // Newer versions also give the total; with no stage and no unstaged sleep, it is that.
        if let total = point.number("totalSleep"), total > 0, hours.prefix(4).allSatisfy({ ($0 ?? 0) == 0 }) { hours[0] = total }
        var samples: [PushedSample] = []
        var cursor = sleepStart.instant
        for (stage, duration) in zip(Self.stages, hours) {
            guard let duration else { continue }
            let end = cursor.adding(milliseconds: Self.milliseconds(hours: duration))
            samples.append(
                maker.revisable(
                    type: HealthAutoExportNames.sleepAnalysis, value: .text(stage.value), unit: nil, start: cursor, end: end,
                    source: stageSource, syncIdentifier: "hae:night:\(night):\(stage.key)", content: content, metadata: metadata,
                    path: point.path))
            cursor = max(cursor, end)
        }
        let inBedSpan: Range<Timestamp>?
        if let inBedStart, let inBedEnd, inBedStart.instant <= inBedEnd.instant {
            inBedSpan = inBedStart.instant..<inBedEnd.instant
        } else if let duration = point.number("inBed") {
            let end = sleepStart.instant.adding(milliseconds: Self.milliseconds(hours: duration))
            inBedSpan = sleepStart.instant..<max(sleepStart.instant, end)
        } else {
            inBedSpan = nil
        }
        if let inBedSpan {
            samples.append(
                maker.revisable(
                    type: HealthAutoExportNames.sleepAnalysis, value: .text(Self.inBed), unit: nil, start: inBedSpan.lowerBound,
                    end: inBedSpan.upperBound,
                    source: SampleMaker.source(point.optionalText("inBedSource") ?? point.optionalText("source")),
                    syncIdentifier: "hae:night:\(night):inBed", content: content, metadata: metadata, path: point.path))
        }
        return samples
    }

    /// Hours as milliseconds; an absurd duration is bounded (the sample is then left out of
    /// figures as too long, and kept).
    private static func milliseconds(hours: Double) -> Int64 {
        let milliseconds = (hours * 3_600_000).rounded()
        guard milliseconds.isFinite else { return 0 }
        return Int64(max(-1e13, min(1e13, milliseconds)))
    }
}
