import Foundation

@testable import StrideEvents

/// An instant from ISO 8601 text; tests only.
func at(_ text: String) -> Timestamp {
    guard let instant = ISO8601.parse(text) else { fatalError("bad instant in a test: \(text)") }
    return instant
}

/// A date from text; tests only.
func date(_ text: String) -> CivilDate {
    guard let date = CivilDate(text) else { fatalError("bad date in a test: \(text)") }
    return date
}

/// A zone from its identifier; tests only.
func zone(_ identifier: String) -> TimeZone {
    guard let zone = TimeZone(identifier: identifier) else { fatalError("unknown zone in a test: \(identifier)") }
    return zone
}

/// A period from `ZONE FROM [TO]`, e.g. `Asia/Tokyo 2024-04-11 2024-04-20`; tests only.
func period(_ text: String) -> ZonePeriod {
    let words = text.split(separator: " ").map(String.init)
    return ZonePeriod(zone(words[0]), from: date(words[1]), to: words.count > 2 ? date(words[2]) : nil)
}

/// A timeline from a home zone and periods written as `period(_:)` reads them.
func timeline(_ home: String, _ periods: [String]) -> ZoneTimeline {
    ZoneTimeline(home: zone(home), periods: periods.map(period))
}

/// The share of a value spread evenly over `[start, end)` that falls in each day it touches.
func spread(_ value: Double, from start: Timestamp, to end: Timestamp, over calendar: ZonedCalendar) -> [CivilDate: Double] {
    let total = Double(end.millisecondsSince1970 - start.millisecondsSince1970)
    var shares: [CivilDate: Double] = [:]
    var day = calendar.day(of: start)
    let last = calendar.day(of: end.adding(milliseconds: -1))
    while day <= last {
        let span = calendar.span(of: day)
        let overlap = min(end, span.upperBound).millisecondsSince1970 - max(start, span.lowerBound).millisecondsSince1970
        shares[day] = value * Double(max(0, overlap)) / total
        day = day.adding(days: 1)
    }
    return shares
}
