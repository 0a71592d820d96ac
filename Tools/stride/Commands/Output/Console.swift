import Foundation
import StrideEvents

/// Where commands write: results to standard output, progress and notes to standard error.
enum Console {
    /// Prints a line of results.
    static func print(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// Prints a JSON document as the only output.
    static func print(json: JSONValue) {
        print(json.text)
    }

    /// Prints a note or progress line on standard error.
    static func note(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Whether standard error is a terminal (progress is shown only then).
    static var isInteractive: Bool { isatty(2) == 1 }
}

/// Formats instants in the ledger's time zone, with the offset of that moment.
struct LocalTime {
    let timeZone: TimeZone

    func format(_ instant: Timestamp) -> String {
        let date = Date(timeIntervalSince1970: Double(instant.millisecondsSince1970) / 1000)
        return ISO8601.format(instant, offsetSeconds: timeZone.secondsFromGMT(for: date))
    }
}
