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
/// shows them (`2024-05-01T08:00:00+02:00`): at the offset a file's clock showed then, else in
/// the zone of the day the instant falls on (``LocalClocks``), so a run in Bangkok prints at
/// +07:00 in a ledger kept in London.
public struct LocalTime: Sendable {
    /// The ledger's home time zone.
    public let timeZone: TimeZone
    /// The runner's clocks (the days as cut where they were lived, and what files showed); nil:
    /// every instant in the home zone.
    public let clocks: LocalClocks?

    /// A formatter for one time zone.
    public init(timeZone: TimeZone) {
        self.timeZone = timeZone
        clocks = nil
    }

    /// A formatter for a ledger: each instant in the zone of its day, as the timeline stands
    /// (the home zone if the timeline cannot be read).
    public init(_ ledger: Ledger) {
        timeZone = ledger.timeZone
        clocks = try? ledger.localClocks()
    }

    /// The instant as ISO 8601 with its zone's offset at that instant.
    public func format(_ instant: Timestamp) -> String {
        if let clocks { return ISO8601.format(instant, offsetSeconds: clocks.offset(at: instant)) }
        let date = Date(timeIntervalSince1970: Double(instant.millisecondsSince1970) / 1000)
        return ISO8601.format(instant, offsetSeconds: timeZone.secondsFromGMT(for: date))
    }
}
