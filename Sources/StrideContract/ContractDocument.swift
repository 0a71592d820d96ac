import Foundation
import StrideEvents

/// One JSON document of Stride's contract: what a read command prints with `--json` and what
/// the HTTP API answers. Each document keeps its typed values (for text tables) and prints
/// them in one fixed form, field for field and byte for byte, wherever it is shown.
public protocol ContractDocument: Sendable {
    /// The document as JSON, its keys in the contract's order.
    var json: JSONValue { get }
}

/// Formats instants in the ledger's time zone, with the offset of that moment, as every
/// document shows them (`2024-05-01T08:00:00+02:00`).
public struct LocalTime: Sendable {
    /// The ledger's time zone.
    public let timeZone: TimeZone

    /// A formatter for a time zone.
    public init(timeZone: TimeZone) {
        self.timeZone = timeZone
    }

    /// The instant as ISO 8601 with the zone's offset at that instant.
    public func format(_ instant: Timestamp) -> String {
        let date = Date(timeIntervalSince1970: Double(instant.millisecondsSince1970) / 1000)
        return ISO8601.format(instant, offsetSeconds: timeZone.secondsFromGMT(for: date))
    }
}
