/// A calendar date in the proleptic Gregorian calendar, without a time zone.
///
/// The day arithmetic is Howard Hinnant's `days_from_civil`, exact for every year; Stride
/// uses it to turn printed dates into instants without Foundation's slower calendars.
public struct CivilDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    /// Creates a date; the fields are not checked (see ``isValid``).
    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Whether month and day name a real day of that year.
    public var isValid: Bool {
        guard (1...12).contains(month), day >= 1 else { return false }
        return day <= CivilDate.daysInMonth(year: year, month: month)
    }

    /// The number of days in a month of a year.
    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2:
            let isLeap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
            return isLeap ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 (negative before it).
    public var daysSince1970: Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date that lies a number of days after 1970-01-01.
    public init(daysSince1970 days: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let d = dayOfYear - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.init(year: Int(yearOfEra + era * 400 + (m <= 2 ? 1 : 0)), month: Int(m), day: Int(d))
    }

    /// The date a number of days later (or earlier, when negative).
    public func adding(days: Int) -> CivilDate {
        CivilDate(daysSince1970: daysSince1970 + Int64(days))
    }

    /// Parses `yyyy-MM-dd`; nil when the text is not a real date.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2])
        else { return nil }
        self.init(year: y, month: m, day: d)
        guard isValid else { return nil }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(year &* 384 &+ month &* 32 &+ day)
    }

    public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// `yyyy-MM-dd`.
    public var description: String {
        var text: [UInt8] = []
        text.reserveCapacity(10)
        write(to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// Appends `yyyy-MM-dd` as ASCII bytes.
    func write(to text: inout [UInt8]) {
        ISO8601.appendPadded(year, width: 4, to: &text)
        text.append(UInt8(ascii: "-"))
        ISO8601.appendPadded(month, width: 2, to: &text)
        text.append(UInt8(ascii: "-"))
        ISO8601.appendPadded(day, width: 2, to: &text)
    }
}
