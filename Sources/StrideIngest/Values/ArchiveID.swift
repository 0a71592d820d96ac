/// The ids other services' archives write as numbers — Strava's gear as a float in a CSV
/// (`12345678.0`), Garmin's activities and gear as JSON numbers — as the integer text they are.
enum ArchiveID {
    /// The whole number `value` is, as text; nil for a fraction, or a number past 10¹⁵ that a
    /// double no longer holds exactly.
    static func text(_ value: Double) -> String? {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : nil
    }
}
