import Foundation
import StrideEvents

@testable import DailyHealth

/// An instant from ISO 8601 text; tests only.
func at(_ text: String) -> Timestamp {
    guard let instant = ISO8601.parse(text) else { fatalError("bad instant in a test: \(text)") }
    return instant
}

let paris = LocalCalendar(timeZone: TimeZone(identifier: "Europe/Paris")!)
/// The same days as a ledger reads them (a runner who never left Paris).
let parisDays = ZonedCalendar(timeZone: TimeZone(identifier: "Europe/Paris")!)

/// A fact from text instants.
func fact(_ start: String, _ end: String, _ value: Double = 0, _ deviceClass: DeviceClass = .watch, _ sleep: SleepValue? = nil) -> Fact {
    Fact(start: at(start), end: at(end), value: value, deviceClass: deviceClass, sleep: sleep)
}

/// A day from text.
func day(_ text: String) -> CivilDate {
    guard let date = CivilDate(text) else { fatalError("bad date in a test: \(text)") }
    return date
}
