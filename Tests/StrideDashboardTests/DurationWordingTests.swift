import StrideContract
import Testing

@testable import StrideDashboard

/// A night reads the same on the command line (`7:05`) and on the dashboard (`7 h 05 min`):
/// both round to the nearest minute, half a minute away from zero.
@Suite("Durations, one rounding everywhere")
struct DurationWordingTests {
    @Test(
        "seconds as h:mm and in words",
        arguments: [
            (0, "0:00", "0 min"), (29, "0:00", "0 min"), (30, "0:01", "1 min"), (59, "0:01", "1 min"), (3_599, "1:00", "1 h 00 min"),
            (25_470, "7:05", "7 h 05 min"), (25_469, "7:04", "7 h 04 min"), (25_440, "7:04", "7 h 04 min"),
            (86_399, "24:00", "24 h 00 min"), (360_000, "100:00", "100 h 00 min"), (-90, "-0:02", "-2 min"),
        ])
    func rounding(seconds: Int, clock: String, words: String) {
        #expect(ExplainWording.hoursAndMinutes(seconds) == clock)
        #expect(ExplainWording.hoursAndMinutesInWords(seconds) == words)
        #expect(Format.duration(seconds: seconds) == words)
    }
}
