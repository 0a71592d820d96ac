import StrideEvents

/// Apple Health's printed dates, `yyyy-MM-dd HH:mm:ss ±hhmm`, read as instants.
///
/// The offset is the phone's at export time, not at the sample's time: only the instant
/// the whole text denotes is kept, never the wall clock.
enum HealthDate {
    /// The instant, or nil when the bytes are not such a date.
    static func parse(_ bytes: UnsafeRawBufferPointer) -> Timestamp? {
        guard bytes.count == 25, bytes[4] == 45, bytes[7] == 45, bytes[10] == 32, bytes[13] == 58, bytes[16] == 58,
            bytes[19] == 32, bytes[20] == 43 || bytes[20] == 45
        else { return nil }
        // Every digit position, checked once: 0-3 year, 5-6 month, 8-9 day, 11-12 hour,
        // 14-15 minute, 17-18 second, 21-22 and 23-24 the offset.
        var values = (0, 0, 0, 0, 0, 0, 0, 0)
        var isValid = true
        func pair(_ index: Int) -> Int {
            let high = Int(bytes[index]) &- 48
            let low = Int(bytes[index + 1]) &- 48
            if high < 0 || high > 9 || low < 0 || low > 9 { isValid = false }
            return high &* 10 &+ low
        }
        values = (pair(0) * 100 + pair(2), pair(5), pair(8), pair(11), pair(14), pair(17), pair(21), pair(23))
        let (year, month, day, hour, minute, second, offsetHours, offsetMinutes) = values
        guard isValid else { return nil }
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
