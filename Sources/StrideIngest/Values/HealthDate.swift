import StrideEvents

/// Apple Health's printed dates, `yyyy-MM-dd HH:mm:ss ±hhmm`, read as instants.
///
/// The offset is the phone's at export time, not at the sample's time: only the instant
/// the whole text denotes is kept, never the wall clock.
enum HealthDate {
    /// The instant, or nil when the bytes are not such a date.
    static func parse(_ bytes: UnsafeRawBufferPointer) -> Timestamp? {
        guard bytes.count == 25 else { return nil }
        func digits(_ start: Int, _ count: Int) -> Int? {
            var value = 0
            for index in start..<start + count {
                let digit = Int(bytes[index]) - 48
                guard digit >= 0, digit <= 9 else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard bytes[4] == 45, bytes[7] == 45, bytes[10] == 32, bytes[13] == 58, bytes[16] == 58, bytes[19] == 32,
            let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2), let hour = digits(11, 2),
            let minute = digits(14, 2), let second = digits(17, 2), let offsetHours = digits(21, 2),
            let offsetMinutes = digits(23, 2), bytes[20] == 43 || bytes[20] == 45
        else { return nil }
        let date = CivilDate(year: year, month: month, day: day)
        guard date.isValid, hour < 24, minute < 60, second < 61, offsetHours < 24, offsetMinutes < 60 else { return nil }
        let offset = (offsetHours * 3600 + offsetMinutes * 60) * (bytes[20] == 45 ? -1 : 1)
        let seconds = date.daysSince1970 * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offset)
        return Timestamp(secondsSince1970: seconds)
    }

    /// The instant of a date held in a string.
    static func parse(_ text: String) -> Timestamp? {
        var text = text
        return text.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    }
}
