import StrideEvents

/// Apple Health's printed dates, `yyyy-MM-dd HH:mm:ss ±hhmm`, read as instants; and the
/// compact `yyyyMMddHHmmss±hhmm` of iOS 8 and 9 exports (2014–2015).
///
/// The offset is the phone's at export time, not at the sample's time: only the instant
/// the whole text denotes is kept, never the wall clock.
enum HealthDate {
    /// The instant, or nil when the bytes are not such a date.
    static func parse(_ bytes: UnsafeRawBufferPointer) -> Timestamp? {
        guard bytes.count == 25, bytes[4] == 45, bytes[7] == 45, bytes[10] == 32, bytes[13] == 58, bytes[16] == 58,
            bytes[19] == 32, bytes[20] == 43 || bytes[20] == 45
        else {
            // Tried only once the usual form fails: an export is in one form or the other.
            return bytes.count == 19 ? parseCompact(bytes) : nil
        }
        // 0-3 year, 5-6 month, 8-9 day, 11-12 hour, 14-15 minute, 17-18 second, 20 the
        // offset's sign, 21-22 and 23-24 its hours and minutes.
        return fields(bytes, year: 0, month: 5, day: 8, hour: 11, minute: 14, second: 17, sign: 20)
    }

    /// `20141018163235+0100`: the same fields without separators.
    private static func parseCompact(_ bytes: UnsafeRawBufferPointer) -> Timestamp? {
        guard bytes[14] == 43 || bytes[14] == 45 else { return nil }
        return fields(bytes, year: 0, month: 4, day: 6, hour: 8, minute: 10, second: 12, sign: 14)
    }

    /// The instant of the two-digit fields at these positions (the year's four digits, the
    /// offset's four after its sign), every digit checked once; nil when one is not a digit
    /// or the date is not real.
    @inline(__always)
    private static func fields(
        _ bytes: UnsafeRawBufferPointer, year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, sign: Int
    ) -> Timestamp? {
        var isValid = true
        func pair(_ index: Int) -> Int {
            let high = Int(bytes[index]) &- 48
            let low = Int(bytes[index + 1]) &- 48
            if high < 0 || high > 9 || low < 0 || low > 9 { isValid = false }
            return high &* 10 &+ low
        }
        let instant = instant(
            year: pair(year) * 100 + pair(year + 2), month: pair(month), day: pair(day), hour: pair(hour), minute: pair(minute),
            second: pair(second), offsetHours: pair(sign + 1), offsetMinutes: pair(sign + 3), isNegative: bytes[sign] == 45)
        return isValid ? instant : nil
    }

    @inline(__always)
    private static func instant(
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, offsetHours: Int, offsetMinutes: Int,
        isNegative: Bool
    ) -> Timestamp? {
        let date = CivilDate(year: year, month: month, day: day)
        guard date.isValid, hour < 24, minute < 60, second < 61, offsetHours < 24, offsetMinutes < 60 else { return nil }
        let offset = (offsetHours * 3600 + offsetMinutes * 60) * (isNegative ? -1 : 1)
        let seconds = date.daysSince1970 * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offset)
        return Timestamp(secondsSince1970: seconds)
    }

    /// The instant of a date held in a string.
    static func parse(_ text: String) -> Timestamp? {
        var text = text
        return text.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    }
}
