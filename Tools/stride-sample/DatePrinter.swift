import Foundation

/// Prints instants as Apple Health does: `yyyy-MM-dd HH:mm:ss ±hhmm`, one offset for the file.
struct DatePrinter {
    let offsetSeconds: Int

    func print(_ date: Date) -> String {
        let local = Int64(date.timeIntervalSince1970.rounded(.down)) + Int64(offsetSeconds)
        let days = local >= 0 ? local / 86_400 : -((-local + 86_399) / 86_400)
        let secondOfDay = Int(local - days * 86_400)
        let (year, month, day) = Self.civil(days)
        let sign = offsetSeconds < 0 ? "-" : "+"
        let offset = abs(offsetSeconds)
        return String(
            format: "%04d-%02d-%02d %02d:%02d:%02d %@%02d%02d", year, month, day, secondOfDay / 3600, secondOfDay / 60 % 60,
            secondOfDay % 60, sign, offset / 3600, offset / 60 % 60)
    }

    /// A time of day as heart-rate-variability beats print it: `7:34:12.45 AM`.
    func printClockTime(_ date: Date) -> String {
        let local = date.timeIntervalSince1970 + Double(offsetSeconds)
        let secondOfDay = local - (local / 86_400).rounded(.down) * 86_400
        let whole = Int(secondOfDay)
        let hour = whole / 3600
        let hour12 = hour % 12 == 0 ? 12 : hour % 12
        let hundredths = Int((secondOfDay - Double(whole)) * 100)
        return String(format: "%d:%02d:%02d.%02d %@", hour12, whole / 60 % 60, whole % 60, hundredths, hour < 12 ? "AM" : "PM")
    }

    private static func civil(_ days: Int64) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (Int(yoe + era * 400 + (m <= 2 ? 1 : 0)), Int(m), Int(d))
    }
}

/// A small, fast, seedable random generator (SplitMix64).
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
