import StrideEvents
import TrainingLog

extension Ledger {
    /// Sets the runner's maximum and resting heart rate, from a local day (`from`) or, without
    /// one, for all time before any dated change (see ``AthleteSettings``).
    /// - Throws: ``ValueRefusal`` for a figure outside its plausible range, for a maximum not
    ///   above the resting heart rate that would hold with it, for a day before
    ///   ``Plausible/firstDayText`` or after today, or when nothing is given; nothing is appended.
    @discardableResult
    public func setAthlete(
        maximumHeartRate: Double?, restingHeartRate: Double?, from day: CivilDate?, sentBy: String? = nil
    ) throws
        -> AthleteSettingsChanged
    {
        guard maximumHeartRate != nil || restingHeartRate != nil else {
            throw ValueRefusal(
                what: "the settings", value: "(none given)", allowed: "a maximum or a resting heart rate, or both",
                why: "a change must change something")
        }
        _ = try maximumHeartRate.map { try ValueRefusal.check($0, in: Plausible.maximumHeartRateSetting, as: "the maximum heart rate") }
        _ = try restingHeartRate.map { try ValueRefusal.check($0, in: Plausible.restingHeartRateSetting, as: "the resting heart rate") }
        let calendar = dailyHealth.calendar
        let today = calendar.day(of: clock.now())
        if let day {
            let first = calendar.day(of: Plausible.firstSampleInstant)
            guard day >= first, day <= today else {
                throw ValueRefusal(
                    what: "the day", value: day.description, allowed: "from \(Plausible.firstSampleDayText) through today (\(today))",
                    why: "a setting holds for days the ledger can hold")
            }
        }
        // The pair that would hold on the change's day must leave room for a heart-rate reserve.
        let settings = try state(of: training).settings()
        let checkDay = day ?? calendar.day(of: Plausible.firstSampleInstant)
        let maximum = maximumHeartRate ?? settings.maximumHeartRate(on: checkDay)?.value
        let resting = restingHeartRate ?? settings.restingHeartRate(on: checkDay)?.value
        if let maximum, let resting, maximum <= resting {
            throw ValueRefusal(
                what: "the maximum heart rate", value: "\(PlausibleRange.number(maximum)) beats a minute",
                allowed: "above the resting heart rate (\(PlausibleRange.number(resting)))", why: "the heart-rate reserve would be none")
        }
        let change = AthleteSettingsChanged(maximumHeartRate: maximumHeartRate, restingHeartRate: restingHeartRate, from: day, sentBy: sentBy)
        let occurredAt = day.map { calendar.start(of: $0) } ?? clock.now()
        try append([PendingEvent(.athleteSettingsChanged(change), occurredAt: occurredAt, entity: .athlete)])
        return change
    }
}
