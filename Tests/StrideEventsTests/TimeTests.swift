import Testing

@testable import StrideEvents

@Suite("Instants and calendar dates")
struct TimeTests {
    @Test(
        "ISO 8601 instants parse to the right instant whatever the offset",
        arguments: [
            ("2024-05-01T08:00:00+02:00", Int64(1_714_543_200_000)),
            ("2024-05-01T06:00:00Z", 1_714_543_200_000),
            ("2024-05-01T06:00:00.250Z", 1_714_543_200_250),
            ("2024-05-01T01:30:00-0430", 1_714_543_200_000),
            ("1969-12-31T23:59:59Z", -1000),
        ])
    func parse(text: String, milliseconds: Int64) {
        #expect(ISO8601.parse(text) == Timestamp(millisecondsSince1970: milliseconds))
    }

    @Test(
        "text that does not name one instant is refused",
        arguments: [
            "2024-05-01", "2024-05-01T08:00:00", "2024-02-30T08:00:00Z", "2024-05-01T25:00:00Z", "yesterday", "2024-05-01T08:00:00+2",
        ])
    func refuse(text: String) {
        #expect(ISO8601.parse(text) == nil)
    }

    @Test("formatting with an offset prints the local wall clock")
    func format() {
        let instant = Timestamp(millisecondsSince1970: 1_714_543_200_000)
        #expect(ISO8601.format(instant, offsetSeconds: 7200) == "2024-05-01T08:00:00+02:00")
        #expect(ISO8601.format(instant, offsetSeconds: -16200) == "2024-05-01T01:30:00-04:30")
        #expect(instant.description == "2024-05-01T06:00:00Z")
    }

    @Test(
        "an instant prints with its offset, milliseconds only when there are some, across midnight, leap days and the edges of four-digit years",
        arguments: [
            (Int64(0), 0, "1970-01-01T00:00:00Z"),
            (1, 0, "1970-01-01T00:00:00.001Z"),
            (-1, 0, "1969-12-31T23:59:59.999Z"),
            (0, -1800, "1969-12-31T23:30:00-00:30"),
            (1_709_200_799_500, 50_400, "2024-02-29T23:59:59.500+14:00"),
            (1_709_200_799_500, -43_200, "2024-02-28T21:59:59.500-12:00"),
            (1_709_200_799_990, 20_700, "2024-02-29T15:44:59.990+05:45"),
            (-62_135_596_800_000, 0, "0001-01-01T00:00:00Z"),
            (253_402_300_800_000, 0, "10000-01-01T00:00:00Z"),
        ])
    func formatTable(milliseconds: Int64, offset: Int, expected: String) {
        #expect(ISO8601.format(Timestamp(millisecondsSince1970: milliseconds), offsetSeconds: offset) == expected)
        // Parsing takes four-digit years only.
        if milliseconds < 253_402_300_800_000 {
            #expect(ISO8601.parse(expected) == Timestamp(millisecondsSince1970: milliseconds))
        }
    }

    @Test("numbers pad to their width with zeros after a minus sign, and wider numbers keep every digit")
    func pad() {
        #expect(ISO8601.pad(7, 2) == "07")
        #expect(ISO8601.pad(0, 4) == "0000")
        #expect(ISO8601.pad(-5, 2) == "-05")
        #expect(ISO8601.pad(12_345, 4) == "12345")
        #expect(ISO8601.pad(Int.min, 2) == "-9223372036854775808")
        #expect(CivilDate(year: 0, month: 1, day: 9).description == "0000-01-09")
    }

    @Test(
        "calendar dates round-trip through day numbers across leap years and before 1970",
        arguments: [
            CivilDate(year: 1970, month: 1, day: 1), CivilDate(year: 2024, month: 2, day: 29), CivilDate(year: 2000, month: 3, day: 1),
            CivilDate(year: 1900, month: 2, day: 28), CivilDate(year: 1969, month: 12, day: 31),
        ])
    func civilDates(date: CivilDate) {
        #expect(CivilDate(daysSince1970: date.daysSince1970) == date)
        #expect(CivilDate(date.description) == date)
    }

    @Test("1970-01-01 is day 0 and 2024-03-01 follows 2024-02-29")
    func dayNumbers() {
        #expect(CivilDate(year: 1970, month: 1, day: 1).daysSince1970 == 0)
        #expect(CivilDate(year: 2024, month: 2, day: 29).adding(days: 1) == CivilDate(year: 2024, month: 3, day: 1))
        #expect(CivilDate("2023-02-29") == nil)
    }
}
