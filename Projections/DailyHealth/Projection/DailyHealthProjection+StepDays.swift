import StrideEvents

/// The days step samples touch: what an ingest's step awards are decided for (the ingest
/// gathers the spans of the step samples that count as it checks each one).
extension DailyHealthProjection {
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
