import DailyHealth
import SampleCounts
import StrideEvents
import StrideProjection

/// One sample of an explained day, with what the ledger knows of it beyond its fact.
public struct ExplainedSampleLine: Hashable, Sendable {
    /// How it counted.
    public var explained: ExplainedSample
    /// Its id, as `stride log` prints it (what `stride samples withdraw` takes).
    public var id: String
    /// Who wrote it.
    public var sourceName: String
    /// For a sample left out: why, in a sentence (its odd content, its withdrawal, the sample
    /// it repeats).
    public var reason: String?
}

/// A measure of an explained day: the explanation, and a page of its samples.
public struct ExplainedMeasure: Hashable, Sendable {
    /// The figure, its parts, every sample's outcome and running total, the stretches each
    /// class won.
    public var explanation: MeasureExplanation
    /// The samples from ``offset``, at most the limit asked for, with their ids and sources.
    public var samples: [ExplainedSampleLine]
    /// How many samples touched the day in all.
    public var samplesTotal: Int
    /// Where the page starts among them.
    public var offset: Int
}

/// `daily explain DATE`: every figure of a day down to its samples.
public struct DayExplanationReport: Hashable, Sendable {
    /// The local day.
    public var date: CivilDate
    /// The measures explained, in the order of ``Measure``.
    public var measures: [ExplainedMeasure]
    /// Where the day was lived, when not an ordinary day at home: its zone and length (see
    /// `stride travel explain` for why).
    public var lived: DayLived? = nil
}

extension Ledger {
    /// The longest page of samples an explanation lists per measure.
    public static let longestExplainPage = 5_000

    /// Explains a day's figures down to their samples: for each measure, every sample that
    /// touched the day (its id, source, span, value and the part of it in the day), how it
    /// counted (counted, outranked by a better device class, a summary the devices already
    /// account for, left out and why), the running total whose last value is the figure
    /// `stride daily` prints, and for steps, distance and energy the stretches of time each
    /// device class won. Samples are listed `limit` at a time from `offset`; the running
    /// totals are those of the whole day.
    /// - Parameters:
    ///   - measures: the measures to explain (every one when empty).
    ///   - replayed: a state of the past to read instead of the present (`?asOf=` on a page).
    /// - Throws: a storage failure.
    public func explainDay(
        _ day: CivilDate, measures: [Measure] = [], offset: Int = 0, limit: Int = 200, replayed: ReplayedState? = nil
    ) throws -> DayExplanationReport {
        let daily = try replayed?.dailyState() ?? dailyState()
        let facts = try daily.facts(of: day) ?? DayFacts()
        let explained = DayExplanation.explain(
            facts, day: day, calendar: daily.projection.days, measures: measures.isEmpty ? Measure.allCases : measures)
        let statuses = try state(of: SampleCountsProjection())
        let pageSize = max(0, min(limit, Self.longestExplainPage))
        return DayExplanationReport(
            date: day,
            measures: try explained.map { explanation in
                let start = min(max(0, offset), explanation.samples.count)
                let page = Array(explanation.samples[start..<min(explanation.samples.count, start + pageSize)])
                let events = try store.events(atSequences: page.map(\.fact.sequence))
                let bySequence = Dictionary(events.map { ($0.sequence, $0) }, uniquingKeysWith: { first, _ in first })
                let lines = try page.map { sample in
                    let event = bySequence[sample.fact.sequence]
                    var sourceName = "?"
                    var reason: String?
                    if let event, case .sampleRecorded(let recorded) = event.event {
                        sourceName = recorded.sourceName
                        if case .leftOut(let why) = sample.outcome {
                            reason = try Self.leftOutReason(
                                why, sample: recorded, recordedAt: event.recordedAt, sequence: event.sequence, statuses: statuses)
                        }
                    }
                    return ExplainedSampleLine(explained: sample, id: event?.entity.shortID ?? "", sourceName: sourceName, reason: reason)
                }
                return ExplainedMeasure(explanation: explanation, samples: lines, samplesTotal: explanation.samples.count, offset: start)
            }, lived: DayLived(day, in: daily.projection.days))
    }

    /// Why a sample is left out, in a sentence.
    private static func leftOutReason(
        _ why: LeftOut, sample: SampleRecorded, recordedAt: Timestamp, sequence: UInt64, statuses: ProjectionState<SampleCountsProjection>
    ) throws -> String {
        var reasons: [String] = []
        let status = try statuses.status(ofSample: sequence)
        if why.contains(.withdrawn) { reasons.append(status?.withdrawal?.cause.description ?? "withdrawn") }
        if why.contains(.repeated) {
            reasons.append(
                status?.repeatOf.map { "a repeat of the sample recorded at event \($0) (the same record of an earlier export)" } ?? "a repeat")
        }
        if why.contains(.odd) { reasons.append("odd content: " + (SampleQuality.problem(with: sample, recordedAt: recordedAt) ?? "unreadable")) }
        return reasons.joined(separator: "; ")
    }
}

extension Ledger.ReplayedState {
    /// The daily records' state as of then, when they were folded.
    func dailyState() -> ProjectionState<DailyHealthProjection>? {
        daily
    }
}
