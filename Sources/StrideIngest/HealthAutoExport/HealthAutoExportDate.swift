import StrideEvents

/// A date as Health Auto Export prints it: `2024-02-06 07:00:00 -0800`; on a phone set to
/// 12-hour time `2024-09-21 7:57:00 am +1000`, with a narrow no-break space (U+202F) before
/// `am`/`PM` since iOS 17; and, defensively, ISO 8601 (`2024-02-06T07:00:00-08:00`).
///
/// Both the instant and the wall clock are kept: a point's identity and the end of a day
/// bucket are local-calendar matters, the figures are made of instants.
struct HealthAutoExportDate: Hashable, Sendable {
    /// The instant the text denotes.
    var instant: Timestamp
    /// The local date as printed.
    var date: CivilDate
    /// The local time of day as printed, in seconds after midnight.
    var secondOfDay: Int
    /// The printed offset from UTC, in seconds.
    var offsetSeconds: Int
    /// Whether it was printed in UTC with ISO 8601's `Z` rather than at an offset: then it says
    /// nothing of the phone's clock.
    var isPrintedInUTC = false

    /// What the phone's clock showed at the instant, by the printed offset (the phone's zone
    /// when the document was made, at that instant); nil for a date printed in UTC.
    var clockOffset: ZoneObservation.Reading? {
        isPrintedInUTC ? nil : ClockOffset.reading(secondsAhead: Int64(offsetSeconds))
    }

    /// How an error names the form expected.
    static let example = "2024-02-06 07:00:00 -0800"

    /// The date, or nil when the text is none of the forms above.
    static func parse(_ text: String) -> HealthAutoExportDate? {
        var text = text
        return text.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    }

    static func parse(_ raw: UnsafeRawBufferPointer) -> HealthAutoExportDate? {
        // The usual form, as fast as the export's dates: every payload seen holds it.
        if raw.count == 25, raw[10] == 32, raw[13] == 58, raw[16] == 58, raw[19] == 32 {
            var scanner = Scanner(bytes: Array(raw))
            return scanner.date()
        }
        // Other forms: no-break spaces read as spaces.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.count)
        var index = 0
        while index < raw.count {
            if index + 2 < raw.count, raw[index] == 0xE2, raw[index + 1] == 0x80, raw[index + 2] == 0xAF {
                bytes.append(32)
                index += 3
            } else if index + 1 < raw.count, raw[index] == 0xC2, raw[index + 1] == 0xA0 {
                bytes.append(32)
                index += 2
            } else {
                bytes.append(raw[index])
                index += 1
            }
        }
        var scanner = Scanner(bytes: bytes)
        return scanner.date()
    }

    /// Reads `yyyy-MM-dd`, a space or `T`, `H:mm:ss` (fraction allowed), an optional
    /// `am`/`pm`, and an offset (`±hhmm`, `±hh:mm` or `Z`), spaces between the last three.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func date() -> HealthAutoExportDate? {
            guard let year = digits(4), take(45), let month = digits(2), take(45), let day = digits(2) else { return nil }
            guard take(32) || take(84) else { return nil }
            guard let hour = digits(1...2), take(58), let minute = digits(2), take(58), let second = digits(2) else { return nil }
            var milliseconds = 0
            if take(46) {
                var scale = 100
                var count = 0
                while let digit = digit() {
                    milliseconds += digit * scale
                    scale /= 10
                    count += 1
                }
                guard count > 0 else { return nil }
            }
            skipSpaces()
            var clockHour = hour
            if let isAfternoon = meridiem() {
                guard (1...12).contains(hour) else { return nil }
                clockHour = hour % 12 + (isAfternoon ? 12 : 0)
                skipSpaces()
            }
            let isPrintedInUTC = index < bytes.count && bytes[index] == 90
            guard let offset = offset(), index == bytes.count else { return nil }
            let civil = CivilDate(year: year, month: month, day: day)
            guard civil.isValid, clockHour < 24, minute < 60, second < 61 else { return nil }
            let secondOfDay = clockHour * 3600 + minute * 60 + second
            let seconds = civil.daysSince1970 * 86_400 + Int64(secondOfDay) - Int64(offset)
            return HealthAutoExportDate(
                instant: Timestamp(millisecondsSince1970: seconds * 1000 + Int64(milliseconds)), date: civil,
                secondOfDay: secondOfDay, offsetSeconds: offset, isPrintedInUTC: isPrintedInUTC)
        }

        private mutating func offset() -> Int? {
            if take(90) { return 0 }
            guard index < bytes.count, bytes[index] == 43 || bytes[index] == 45 else { return nil }
            let sign = bytes[index] == 45 ? -1 : 1
            index += 1
            guard let hours = digits(2) else { return nil }
            _ = take(58)
            guard let minutes = digits(2), hours < 24, minutes < 60 else { return nil }
            return sign * (hours * 3600 + minutes * 60)
        }

        /// `am` or `pm` in any case: true for the afternoon; nil when there is neither.
        private mutating func meridiem() -> Bool? {
            guard index + 1 < bytes.count, bytes[index + 1] | 0x20 == UInt8(ascii: "m") else { return nil }
            switch bytes[index] | 0x20 {
            case UInt8(ascii: "a"):
                index += 2
                return false
            case UInt8(ascii: "p"):
                index += 2
                return true
            default: return nil
            }
        }

        private mutating func skipSpaces() {
            while index < bytes.count, bytes[index] == 32 { index += 1 }
        }

        private mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        private mutating func digit() -> Int? {
            guard index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 else { return nil }
            index += 1
            return Int(bytes[index - 1] - 48)
        }

        private mutating func digits(_ count: Int) -> Int? {
            digits(count...count)
        }

        /// A number of so many digits, as many as there are up to the most.
        private mutating func digits(_ counts: ClosedRange<Int>) -> Int? {
            var value = 0
            var read = 0
            while read < counts.upperBound, let digit = digit() {
                value = value * 10 + digit
                read += 1
            }
            return read >= counts.lowerBound ? value : nil
        }
    }
}
