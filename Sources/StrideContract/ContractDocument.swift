import Foundation
import StrideEvents
import StrideLedger

/// One JSON document of Stride's contract: what a read command prints with `--json` and what
/// the HTTP API answers. Each document keeps its typed values (for text tables) and prints
/// them in one fixed form, field for field and byte for byte, wherever it is shown.
public protocol ContractDocument: Sendable {
    /// The document as JSON, its keys in the contract's order.
    var json: JSONValue { get }
}

/// Formats instants where the runner was, with the offset of that moment, as every document
/// shows them (`2024-05-01T08:00:00+02:00`): in the zone of the day the instant falls on (the
/// zone timeline's), so a run in Bangkok prints at +07:00 in a ledger kept in London.
public struct LocalTime: Sendable {
    /// The ledger's home time zone.
    public let timeZone: TimeZone
    /// The days as cut where they were lived; nil: every instant in the home zone.
    public let days: ZonedCalendar?

    /// A formatter for one time zone.
    public init(timeZone: TimeZone) {
        self.timeZone = timeZone
        days = nil
    }

    /// A formatter for a ledger: each instant in the zone of its day, as the timeline stands
    /// (the home zone if the timeline cannot be read).
    public init(_ ledger: Ledger) {
        timeZone = ledger.timeZone
        days = try? ledger.days()
    }

    /// The instant as ISO 8601 with its zone's offset at that instant.
    public func format(_ instant: Timestamp) -> String {
        if let days { return ISO8601.format(instant, offsetSeconds: days.offset(at: instant)) }
        let date = Date(timeIntervalSince1970: Double(instant.millisecondsSince1970) / 1000)
        return ISO8601.format(instant, offsetSeconds: timeZone.secondsFromGMT(for: date))
    }
}
