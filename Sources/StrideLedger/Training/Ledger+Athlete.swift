import StrideEvents
import StrideStore
import TrainingLog

extension Ledger {
    /// Sets the runner's maximum and resting heart rate, from a local day (`from`) or, without
    /// one, for all time before any dated change (see ``AthleteSettings``).
    /// - Throws: ``ValueRefusal`` for a figure outside its plausible range, for a day before
    ///   ``Plausible/firstDayText`` or after today, when nothing is given, or when on any day the
    ///   change reaches (dated or not: see ``AthleteSettings/inconsistency(adding:)``) the
    ///   maximum would not lie above the resting rate that holds with it; nothing is appended.
    ///   ``LedgerError/busy(_:)`` when other writers keep changing the settings meanwhile.
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
        let calendar = try days()
        let today = calendar.day(of: clock.now())
        if let day {
            let first = calendar.day(of: Plausible.firstSampleInstant)
            guard day >= first, day <= today else {
                throw ValueRefusal(
                    what: "the day", value: day.description, allowed: "from \(Plausible.firstSampleDayText) through today (\(today))",
                    why: "a setting holds for days the ledger can hold")
            }
        }
        let change = AthleteSettingsChanged(maximumHeartRate: maximumHeartRate, restingHeartRate: restingHeartRate, from: day, sentBy: sentBy)
        let occurredAt = day.map { calendar.start(of: $0) } ?? clock.now()
        // The settings are checked as a whole: every day the change reaches must keep a
        // maximum above the resting rate that holds with it, whether it is dated or not.
        return try decideAndAppend(about: "the heart-rate settings") {
            let version = try store.version(of: .athlete)
            let settings = try state(of: training).settings()
            let proposed = AthleteSettings.Change(
                sequence: .max, recordedAt: clock.now(), from: day, maximumHeartRate: maximumHeartRate, restingHeartRate: restingHeartRate)
            if let inconsistency = settings.inconsistency(adding: proposed) {
                throw Self.refusal(inconsistency, of: proposed)
            }
            return Decision(
                events: [PendingEvent(.athleteSettingsChanged(change), occurredAt: occurredAt, entity: .athlete)],
                expecting: [VersionExpectation(.athlete, version: version)], value: change)
        }
    }

    /// Why `change` is refused: the stretch of days it would leave without sense, and the
    /// figures in force there (the one it sets named first).
    private static func refusal(_ inconsistency: AthleteSettings.Inconsistency, of change: AthleteSettings.Change) -> ValueRefusal {
        func shown(_ figure: AthleteSettings.Figure?) -> String {
            guard let figure else { return "none" }
            return PlausibleRange.number(figure.value) + (figure.change?.from.map { ", set from \($0)" } ?? ", set for all time")
        }
        let days = inconsistency.from.map { "from \($0)" } ?? "before any dated change"
        let (maximum, resting) = (inconsistency.maximum, inconsistency.resting)
        switch inconsistency.problem {
        case .noReserve where maximum?.change == change:
            return ValueRefusal(
                what: "the maximum heart rate", value: "\(PlausibleRange.number(maximum?.value ?? 0)) beats a minute",
                allowed: "above the resting heart rate that holds with it \(days) (\(shown(resting)))", why: "the heart-rate reserve would be none")
        case .noReserve:
            return ValueRefusal(
                what: "the resting heart rate", value: "\(PlausibleRange.number(resting?.value ?? 0)) beats a minute",
                allowed: "below the maximum heart rate that holds with it \(days) (\(shown(maximum)))", why: "the heart-rate reserve would be none")
        case .maximumOutOfRange:
            return ValueRefusal(
                what: "the maximum heart rate that would hold with it \(days)", value: shown(maximum),
                allowed: Plausible.maximumHeartRateSetting.text + "; set it again", why: Plausible.maximumHeartRateSetting.why)
        case .restingOutOfRange:
            return ValueRefusal(
                what: "the resting heart rate that would hold with it \(days)", value: shown(resting),
                allowed: Plausible.restingHeartRateSetting.text + "; set it again", why: Plausible.restingHeartRateSetting.why)
        }
    }
}
