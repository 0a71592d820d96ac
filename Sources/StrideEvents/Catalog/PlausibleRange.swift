/// A range a number must lie in to be believed: what a runner types or a device sends is
/// checked against one. An action outside it is refused, naming the range; an ingested sample
/// outside it is kept as written and left out of figures (``SampleQuality``).
public struct PlausibleRange: Sendable, Hashable {
    /// The lowest value believed.
    public let lowest: Double
    /// The highest value believed.
    public let highest: Double
    /// The unit the range is said in (`km`, `beats a minute`), empty for a count.
    public let unit: String
    /// Why the range is what it is.
    public let why: String

    /// A range from `lowest` to `highest`, both believed.
    public init(_ lowest: Double, _ highest: Double, unit: String, why: String) {
        self.lowest = lowest
        self.highest = highest
        self.unit = unit
        self.why = why
    }

    /// Whether `value` lies in the range (never for NaN or an infinity).
    public func contains(_ value: Double) -> Bool {
        value.isFinite && value >= lowest && value <= highest
    }

    /// The range as a sentence says it: `20 to 300 beats a minute`.
    public var text: String {
        let unitText = unit.isEmpty ? "" : " " + unit
        return "\(Self.number(lowest)) to \(Self.number(highest))\(unitText)"
    }

    /// A bound as a person writes it: whole numbers with thousands separated (`250,000`).
    public static func number(_ value: Double) -> String {
        guard value == value.rounded(), abs(value) < 1e15 else { return String(value) }
        let whole = Int64(value)
        let digits = String(whole.magnitude)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return (whole < 0 ? "-" : "") + grouped
    }
}

/// Every range Stride believes, in one place (docs/FORMATS.md, "Plausible values", lists them
/// with these reasons). Each lies well outside what the real exports in `../shared/fixtures`
/// hold, so that no real sample is left out, and well inside what would break a figure.
public enum Plausible {
    // MARK: Samples (kept and left out of figures when outside)

    /// A heart rate: the slowest hearts measured at rest beat about 27 times a minute, and no
    /// human heart beats 300 times (the real exports: 31 to 177).
    public static let heartRate = PlausibleRange(20, 300, unit: "beats a minute", why: "no human heart beats outside it")
    /// A resting heart rate: an athlete's can be below 30, and a resting heart above 200 is not
    /// resting (the real exports: 37 to 74).
    public static let restingHeartRate = PlausibleRange(20, 200, unit: "beats a minute", why: "no resting heart beats outside it")
    /// The steps of one sample: a day's total is the largest an app writes (often as an
    /// instant), and the most steps anyone takes in a day is far below 250,000 (the real
    /// exports: at most 30,000).
    public static let stepsPerSample = PlausibleRange(0, 250_000, unit: "steps", why: "no one walks more in a day")
    /// Steps a second, over a sample of ten minutes or more: a sprinter's cadence is about 5
    /// (the real exports: at most 2.7).
    public static let stepsPerSecond = PlausibleRange(0, 5, unit: "steps a second", why: "a sprinter's cadence is about 5")
    /// The walking and running distance of one sample, in metres: the 24-hour running record is
    /// about 320 km (the real exports: at most 150 km, a day written as an instant).
    public static let metresPerSample = PlausibleRange(0, 350_000, unit: "m", why: "no one runs farther in a day")
    /// Metres a second over a sample of ten minutes or more: the fastest sprinters reach 12.5
    /// (the real exports: at most 3.6).
    public static let metresPerSecond = PlausibleRange(0, 12.5, unit: "m a second", why: "no one runs faster")
    /// The active energy of one sample, in kilocalories: a day of the hardest stage race burns
    /// under 10,000 (the real exports: at most 1,442, a day written as an instant).
    public static let kilocaloriesPerSample = PlausibleRange(0, 20_000, unit: "kcal", why: "no one burns more in a day")
    /// Kilocalories an hour over a sample of ten minutes or more: elite cyclists sustain about
    /// 1,500 (the real exports: at most 869).
    public static let kilocaloriesPerHour = PlausibleRange(0, 3_000, unit: "kcal an hour", why: "no one burns faster for long")
    /// The shortest span over which a sample's rate is judged: over less, a burst of a few
    /// steps in a second is real, and a day's total written as an instant has no rate.
    public static let rateJudgedFromMilliseconds: Int64 = 10 * 60 * 1000

    /// The first instant a runner's action may be dated: 2014-01-01 (UTC), the year the Health
    /// app appeared (iOS 8) — shoes, check-ins and entries are the runner's own, kept since.
    public static let firstInstant = Timestamp(millisecondsSince1970: 1_388_534_400_000)
    /// The first day of actions, as the messages say it.
    public static let firstDayText = "2014-01-01"
    /// The first instant a sample may start: 2000-01-01 (UTC). Apps import older history into
    /// Health — the real iOS 8 export in the fixtures holds 1,465 step, distance and energy
    /// samples of 2012 and 2013 that an app imported — so samples go further back than
    /// actions; before 2000, no pedometer or heart-rate strap a runner still has recorded.
    public static let firstSampleInstant = Timestamp(millisecondsSince1970: 946_684_800_000)
    /// The first day of samples, as the summary says it.
    public static let firstSampleDayText = "2000-01-01"
    /// How far ahead of the clock that recorded it a sample may start: ten minutes, for
    /// clocks that drift. A phone whose clock said 2030 wrote samples that start years ahead.
    public static let sampleClockSkewMilliseconds: Int64 = 10 * 60 * 1000

    // MARK: Workouts (kept, their distance left out of mileage when outside)

    /// The distance of one workout: multi-day races and rides aside, no single recording runs
    /// past 1,000 km.
    public static let workoutKilometres = PlausibleRange(0, 1_000, unit: "km", why: "no single workout goes farther")

    /// The earliest start a workout may have: no file or app a runner has recorded one before 1980.
    public static let workoutEarliestStart = Timestamp(secondsSince1970: 315_532_800)  // 1980-01-01

    /// Why a workout's start is no time a run was run — before 1980, or more than a day after
    /// it was recorded (`recordedAt`: the ingest's clock) — or nil when it is plausible. Such a
    /// workout is kept as written and left out of every figure.
    public static func workoutStartProblem(_ start: Timestamp, recordedAt: Timestamp) -> String? {
        let latest = recordedAt.adding(milliseconds: 86_400_000)
        guard start < workoutEarliestStart || start > latest else { return nil }
        return "a workout starting \(ISO8601.format(start, offsetSeconds: 0).prefix(10)), outside 1980-01-01 to a day after it was recorded"
    }

    // MARK: Actions (refused when outside)

    /// The kilometres a shoe starts with: a used pair brought to the rack, worn out well before
    /// 5,000 km.
    public static let shoeStartKilometres = PlausibleRange(0, 5_000, unit: "km", why: "a running shoe is worn out long before")
    /// A shoe's goal: running shoes last 300 to 1,000 km; a goal below 10 km or above 5,000 is
    /// a typing slip.
    public static let shoeGoalKilometres = PlausibleRange(10, 5_000, unit: "km", why: "a running shoe lasts 300 to 1,000 km")
    /// A runner's maximum heart rate: from about 220 minus the age, so 120 for the oldest
    /// runners and rarely above 220; outside 100 to 240, a typing slip.
    public static let maximumHeartRateSetting = PlausibleRange(100, 240, unit: "beats a minute", why: "no runner's maximum lies outside it")
    /// A runner's resting heart rate: an athlete's can be near 30; above 120 is not at rest.
    public static let restingHeartRateSetting = PlausibleRange(25, 120, unit: "beats a minute", why: "no runner's heart rests outside it")
    /// Points spent at once.
    public static let pointsSpent = PlausibleRange(1, 100_000, unit: "points", why: "no balance is larger")
    /// The characters of a name (a shoe, its brand, a device's token).
    public static let nameCharacters = 100
    /// The characters of a reason (a spend, a withdrawal, a correction).
    public static let reasonCharacters = 500
    /// The characters of a journal entry: a few pages.
    public static let journalCharacters = 10_000
    /// The samples one withdrawal or restoration names: a day of a bogus app's heart-rate
    /// readings is a few hundred; more go in several requests.
    public static let samplesAtOnce = 1_000
}
