import Foundation
import StrideContract
import StrideEvents

/// Where commands write: results to standard output, progress and notes to standard error.
enum Console {
    /// Prints a line of results.
    static func print(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// Prints a contract document as the only output.
    static func print(_ document: some ContractDocument) {
        // As bytes: a log of a hundred thousand events is 66 MB of JSON, and a String of it
        // was checked and copied twice more before it was written.
        var bytes = document.json.bytes
        bytes.append(UInt8(ascii: "\n"))
        bytes.withUnsafeBytes { FileHandle.standardOutput.write(Data($0)) }
    }

    /// Prints a note or progress line on standard error.
    static func note(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Whether standard error is a terminal (progress is shown only then).
    static var isInteractive: Bool { isatty(2) == 1 }
}
