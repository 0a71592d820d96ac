import Foundation

extension SampleQuality {
    /// Why a sample's dates cannot be believed: before 2000 (``Plausible/firstSampleInstant``),
    /// or starting well after the clock that recorded it. Nil when they can.
    static func problemWithDates(start: Timestamp, recordedAt: Timestamp) -> String? {
        if start < Plausible.firstSampleInstant {
            return "it starts before \(Plausible.firstSampleDayText), before any device a runner has recorded"
        }
        if start > recordedAt.adding(milliseconds: Plausible.sampleClockSkewMilliseconds) {
            return "it starts after the clock that recorded it (\(recordedAt)), more than ten minutes ahead"
        }
        return nil
    }

    /// Why a measured sample's value cannot be believed: outside the range of one sample, or,
    /// over ten minutes or more, at a rate no one keeps (``Plausible``). Nil when it can.
    /// `unit` is one the type's unit rule admits.
    static func problemWithValue(_ number: Double, unit: String, typeCode: UInt64, start: Timestamp, end: Timestamp) -> String? {
        let (total, perSecond): (PlausibleRange, PlausibleRange?)
        let amount: Double
        let perHour: Bool
        switch typeCode {
        case HealthTypeCatalog.heartRate: (total, perSecond, amount, perHour) = (Plausible.heartRate, nil, number, false)
        case HealthTypeCatalog.restingHeartRate: (total, perSecond, amount, perHour) = (Plausible.restingHeartRate, nil, number, false)
        case HealthTypeCatalog.stepCount: (total, perSecond, amount, perHour) = (Plausible.stepsPerSample, Plausible.stepsPerSecond, number, false)
        case HealthTypeCatalog.distanceWalkingRunning:
            (total, perSecond, amount, perHour) = (
                Plausible.metresPerSample, Plausible.metresPerSecond, number * (HealthUnits.metres(per: unit) ?? 1), false
            )
        case HealthTypeCatalog.activeEnergyBurned:
            (total, perSecond, amount, perHour) = (
                Plausible.kilocaloriesPerSample, Plausible.kilocaloriesPerHour, number * (HealthUnits.kilocalories(per: unit) ?? 1), true
            )
        default: return nil
        }
        guard total.contains(amount) else {
            return "its value \(PlausibleRange.number(amount)) \(total.unit) is outside \(total.text): \(total.why)"
        }
        let (span, overflow) = end.millisecondsSince1970.subtractingReportingOverflow(start.millisecondsSince1970)
        guard let perSecond, !overflow, span >= Plausible.rateJudgedFromMilliseconds else { return nil }
        let rate = amount / (Double(span) / (perHour ? 3_600_000 : 1000))
        guard perSecond.contains(rate) else {
            return "its rate of \(String(format: "%.4g", rate)) \(perSecond.unit) is outside \(perSecond.text): \(perSecond.why)"
        }
        return nil
    }
}
