/// Offsets and day lengths as a runner reads them, wherever a day's zone is shown (the daily
/// table and pages, `daily explain`, `travel explain`).
public enum ClockText {
    /// An offset from UTC, whole hours without minutes: `UTC+7`, `UTC−3:30`, `UTC+0`.
    public static func offset(_ seconds: Int) -> String {
        let minutes = abs(seconds) / 60
        let rest = minutes % 60
        return "UTC" + (seconds < 0 ? "−" : "+") + String(minutes / 60) + (rest == 0 ? "" : ":" + (rest < 10 ? "0" : "") + String(rest))
    }

    /// A length in hours: whole (`17`), else to a tenth (`16.5`).
    public static func hours(_ hours: Double) -> String {
        hours == hours.rounded() ? String(Int(hours)) : String((hours * 10).rounded() / 10)
    }
}
