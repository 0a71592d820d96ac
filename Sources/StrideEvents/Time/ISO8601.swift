/// Formatting and parsing of ISO 8601 instants, as the command line prints and accepts them.
public enum ISO8601 {
    /// Formats an instant with a fixed offset from UTC, e.g. `2024-05-01T08:00:00+02:00`;
    /// milliseconds are printed only when they are not zero.
    public static func format(_ instant: Timestamp, offsetSeconds: Int) -> String {
        let local = instant.millisecondsSince1970 + Int64(offsetSeconds) * 1000
        let millis = Int(((local % 1000) + 1000) % 1000)
        let seconds = (local - Int64(millis)) / 1000
        let days = seconds >= 0 ? seconds / 86_400 : -((-seconds + 86_399) / 86_400)
        let secondOfDay = Int(seconds - days * 86_400)
        let date = CivilDate(daysSince1970: days)
        var text = date.description + "T" + pad(secondOfDay / 3600, 2) + ":"
        text += pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        if millis != 0 { text += "." + pad(millis, 3) }
        if offsetSeconds == 0 { return text + "Z" }
        let sign = offsetSeconds < 0 ? "-" : "+"
        let magnitude = abs(offsetSeconds)
        return text + sign + pad(magnitude / 3600, 2) + ":" + pad(magnitude / 60 % 60, 2)
    }

    /// Parses `yyyy-MM-ddTHH:mm[:ss[.fff]]` followed by `Z` or `±hh:mm` / `±hhmm`; nil when the
    /// text is not such an instant. A date and time without an offset is not accepted: it
    /// would not name one instant.
    public static func parse(_ text: String) -> Timestamp? {
        let scalars = Array(text.utf8)
        guard scalars.count >= 17 else { return nil }
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= scalars.count else { return nil }
            var value = 0
            for byte in scalars[start..<start + count] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard let year = number(0, 4), scalars[4] == 45, let month = number(5, 2), scalars[7] == 45,
            let day = number(8, 2), scalars[10] == 84 || scalars[10] == 116 || scalars[10] == 32,
            let hour = number(11, 2), scalars[13] == 58, let minute = number(14, 2)
        else { return nil }
        let date = CivilDate(year: year, month: month, day: day)
        guard date.isValid, hour < 24, minute < 60 else { return nil }
        var index = 16
        var second = 0
        var millis = 0
        if index < scalars.count, scalars[index] == 58 {
            guard let s = number(index + 1, 2), s < 60 else { return nil }
            second = s
            index += 3
            if index < scalars.count, scalars[index] == 46 || scalars[index] == 44 {
                index += 1
                var digits = 0
                while index < scalars.count, scalars[index] >= 48, scalars[index] <= 57 {
                    if digits < 3 { millis = millis * 10 + Int(scalars[index] - 48) }
                    digits += 1
                    index += 1
                }
                guard digits > 0 else { return nil }
                if digits < 3 { for _ in 0..<(3 - digits) { millis *= 10 } }
            }
        }
        guard index < scalars.count else { return nil }
        var offset = 0
        switch scalars[index] {
        case 90, 122:  // Z z
            guard index + 1 == scalars.count else { return nil }
        case 43, 45:  // + -
            let sign = scalars[index] == 45 ? -1 : 1
            guard let hours = number(index + 1, 2) else { return nil }
            var rest = index + 3
            if rest < scalars.count, scalars[rest] == 58 { rest += 1 }
            guard let minutes = number(rest, 2), rest + 2 == scalars.count, hours < 24, minutes < 60
            else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        default:
            return nil
        }
        let seconds =
            date.daysSince1970 * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offset)
        return Timestamp(millisecondsSince1970: seconds * 1000 + Int64(millis))
    }

    /// A non-negative number with leading zeros to a width.
    static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(abs(value))
        let zeros = String(repeating: "0", count: max(0, width - digits.count))
        return (value < 0 ? "-" : "") + zeros + digits
    }
}
