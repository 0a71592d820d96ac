import StrideEvents

/// The days step samples touch: what an ingest's step awards are decided for.
extension DailyHealthProjection {
    /// The local days the step samples of a batch touch; `recordedAt` is when the ingest
    /// reading it began (its samples are recorded no earlier).
    public func stepDays(of batch: [PendingEvent], recordedAt: Timestamp) -> Set<CivilDate> {
        var days = Set<CivilDate>()
        for index in batch.indices where batch[index].typeCode == EventType.sampleRecorded.code {
            // A sample the quality rule leaves out counts on no day (and may span millennia).
            guard case .event(.sampleRecorded(let sample)) = batch[index].body, sample.healthTypeCode == HealthTypeCatalog.stepCount,
                SampleQuality.problem(with: sample, recordedAt: recordedAt) == nil
            else { continue }
            insertStepDays(start: sample.start, end: sample.end, into: &days)
        }
        return days
    }

    /// Adds the local days a step sample from `start` to `end` touches to `days` (a week and a
    /// few days at most: a longer sample counts on no day).
    public func insertStepDays(start: Timestamp, end: Timestamp, into days: inout Set<CivilDate>) {
        let fact = Fact(start: start, end: max(end, start), value: 0, deviceClass: .other)
        var (day, last) = dayRange(of: fact, for: .steps)
        last = min(last, day.adding(days: Int(Self.longestCountedSpanInDays)))
        while day <= last {
            days.insert(day)
            day = day.adding(days: 1)
        }
    }
}
