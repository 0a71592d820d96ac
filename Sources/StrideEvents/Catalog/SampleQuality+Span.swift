extension SampleQuality {
    /// The longest span a sample of a measured type may have and still count in figures.
    ///
    /// The daily records spread a sample over every day it touches, and the step awards visit
    /// each of those days: with no limit, one sample running from the year 1 to 9999 is 3.65
    /// million days of work and of stored rows. A longer sample is kept as written and left
    /// out, like other odd content. Each limit lies well above what real sources write, so
    /// that no real sample is left out (none in the real exports of `../shared/fixtures` is):
    /// - Sleep, 48 hours: a sample is a stage or a night in bed, and no night lasts that long
    ///   (the longest real one seen lasts 15 hours).
    /// - Heart rate and resting heart rate, 25 hours: readings are instants or a few minutes;
    ///   the longest are daily summaries (24 hours from iOS 8 apps, almost 24 for Apple's
    ///   resting heart rate), and a local day lasts 25 hours when the clocks go back.
    /// - Steps, walking+running distance and active energy, 8 days: apps write at most daily
    ///   or weekly totals (the longest real one is a day of 25 hours); a week lasts 169 hours
    ///   at most, and the rest is margin.
    struct SpanLimit: Sendable {
        /// The longest span that counts, in milliseconds.
        let milliseconds: Int64
        /// The limit as the summary says it.
        let text: String
        /// Why no real sample is longer.
        let why: String

        static let sleep = SpanLimit(hours: 48, text: "48 hours", why: "no night's sleep lasts that long")
        static let heartRate = SpanLimit(hours: 25, text: "25 hours", why: "its samples cover a day at most")
        static let activity = SpanLimit(hours: 8 * 24, text: "8 days", why: "apps write at most weekly totals")

        private init(hours: Int64, text: String, why: String) {
            milliseconds = hours * 3_600_000
            self.text = text
            self.why = why
        }

        /// The limit for a type, by its catalog code; nil for types no figure reads.
        static func of(code: UInt64) -> SpanLimit? {
            switch code {
            case HealthTypeCatalog.sleepAnalysis: sleep
            case HealthTypeCatalog.heartRate, HealthTypeCatalog.restingHeartRate: heartRate
            case HealthTypeCatalog.stepCount, HealthTypeCatalog.distanceWalkingRunning, HealthTypeCatalog.activeEnergyBurned: activity
            default: nil
            }
        }

        /// Whether a sample from `start` to `end` (not before it) is short enough to count.
        func admits(start: Timestamp, end: Timestamp) -> Bool {
            let (span, overflow) = end.millisecondsSince1970.subtractingReportingOverflow(start.millisecondsSince1970)
            return !overflow && span <= milliseconds
        }

        /// Why a longer sample of `healthType` is left out.
        func reason(for healthType: String) -> String {
            "it spans more than \(text), too long for \(healthType): \(why)"
        }
    }
}
