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
        // Written as bytes into one buffer: every event the log and the server print carries
        // two to five instants, and joining padded strings was a fifth of printing the log.
        var text: [UInt8] = []
        text.reserveCapacity(32)
        CivilDate(daysSince1970: days).write(to: &text)
        text.append(UInt8(ascii: "T"))
        appendPadded(secondOfDay / 3600, width: 2, to: &text)
        text.append(UInt8(ascii: ":"))
        appendPadded(secondOfDay / 60 % 60, width: 2, to: &text)
        text.append(UInt8(ascii: ":"))
        appendPadded(secondOfDay % 60, width: 2, to: &text)
        if millis != 0 {
            text.append(UInt8(ascii: "."))
            appendPadded(millis, width: 3, to: &text)
        }
        if offsetSeconds == 0 {
            text.append(UInt8(ascii: "Z"))
        } else {
            let magnitude = abs(offsetSeconds)
            text.append(UInt8(ascii: offsetSeconds < 0 ? "-" : "+"))
            appendPadded(magnitude / 3600, width: 2, to: &text)
            text.append(UInt8(ascii: ":"))
            appendPadded(magnitude / 60 % 60, width: 2, to: &text)
        }
        return String(decoding: text, as: UTF8.self)
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

    /// A number with leading zeros to a width (a minus sign before the zeros).
    static func pad(_ value: Int, _ width: Int) -> String {
        var text: [UInt8] = []
        appendPadded(value, width: width, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// Appends a number in decimal with leading zeros to a width (a minus sign before the
    /// zeros), as ASCII bytes.
    static func appendPadded(_ value: Int, width: Int, to text: inout [UInt8]) {
        if value < 0 { text.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits = 1
        var rest = magnitude / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        let end = text.count + max(width, digits)
        text.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: max(width, digits)))
        var index = end - 1
        repeat {
            text[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
            index -= 1
        } while magnitude > 0
    }
}
