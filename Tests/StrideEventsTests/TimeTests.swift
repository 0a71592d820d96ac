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
