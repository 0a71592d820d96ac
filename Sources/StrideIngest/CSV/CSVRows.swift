/// The rows of a CSV file as RFC 4180 writes them (Strava's `activities.csv`, `shoes.csv`): fields
/// separated by commas, a field in double quotes may hold commas, line breaks and doubled
/// quotes, rows end at LF or CRLF; a UTF-8 byte-order mark at the start is skipped.
///
/// No field or row may cost unbounded memory: a field longer than ``longestField`` bytes or a
/// row of more than ``mostFields`` fields is refused, naming its line, as is a quote left open
/// at the end of the file (a truncated file) or text after a closing quote.
public enum CSVRows {
    /// The longest field read, in bytes: a description of a few pages fits many times over.
    public static let longestField = 1 << 20
    /// The most fields in a row (Strava's widest `activities.csv` has 99).
    public static let mostFields = 1_000

    /// One row: its fields, and the line it starts on (1 for the first).
    public struct Row: Equatable, Sendable {
        public var fields: [String]
        public var line: Int

        public init(fields: [String], line: Int) {
            self.fields = fields
            self.line = line
        }
    }

    /// Why a CSV file cannot be read, at the line of the row it happened in.
    public enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        case unbalancedQuote(line: Int)
        case textAfterQuote(line: Int)
        case fieldTooLong(line: Int)
        case tooManyFields(line: Int)

        /// The line the problem is on.
        public var line: Int {
            switch self {
            case .unbalancedQuote(let line), .textAfterQuote(let line), .fieldTooLong(let line), .tooManyFields(let line): line
            }
        }

        public var description: String {
            switch self {
            case .unbalancedQuote: "a quoted field is never closed (the file may be cut short)"
            case .textAfterQuote: "text follows a field's closing quote (a quote inside a quoted field must be doubled)"
            case .fieldTooLong: "a field is longer than \(CSVRows.longestField) bytes"
            case .tooManyFields: "a row has more than \(CSVRows.mostFields) fields"
            }
        }
    }

    /// Calls `body` with each row of `bytes` in order; a line with nothing on it is no row.
    /// - Throws: ``Problem``, or what `body` throws.
    public static func read(_ bytes: UnsafeRawBufferPointer, _ body: (Row) throws -> Void) throws {
        var index = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        let (quote, comma, newline, carriageReturn) = (UInt8(ascii: "\""), UInt8(ascii: ","), UInt8(ascii: "\n"), UInt8(ascii: "\r"))
        var line = 1
        var rowLine = 1
        var fields: [String] = []
        var field: [UInt8] = []

        func endField() throws {
            guard fields.count < mostFields else { throw Problem.tooManyFields(line: rowLine) }
            fields.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
        }
        func endRow() throws {
            try endField()
            // A line with nothing on it (the file's last newline, a blank line) is no row.
            if !(fields.count == 1 && fields[0].isEmpty) { try body(Row(fields: fields, line: rowLine)) }
            fields.removeAll(keepingCapacity: true)
        }
        func append(_ byte: UInt8) throws {
            guard field.count < longestField else { throw Problem.fieldTooLong(line: rowLine) }
            field.append(byte)
        }

        while index < bytes.count {
            let byte = bytes[index]
            if byte == quote, field.isEmpty {
                // A quoted field: to its closing quote, doubled quotes read as one.
                index += 1
                var closed = false
                while index < bytes.count {
                    let inner = bytes[index]
                    if inner == quote {
                        if index + 1 < bytes.count, bytes[index + 1] == quote {
                            try append(quote)
                            index += 2
                            continue
                        }
                        closed = true
                        index += 1
                        break
                    }
                    if inner == newline { line += 1 }
                    try append(inner)
                    index += 1
                }
                guard closed else { throw Problem.unbalancedQuote(line: rowLine) }
                // After the closing quote: a comma, the row's end, or the file's.
                if index < bytes.count {
                    let next = bytes[index]
                    let endsLine = next == newline || (next == carriageReturn && index + 1 < bytes.count && bytes[index + 1] == newline)
                    guard next == comma || endsLine || (next == carriageReturn && index + 1 == bytes.count) else {
                        throw Problem.textAfterQuote(line: rowLine)
                    }
                }
                continue
            }
            switch byte {
            case comma:
                try endField()
            case newline:
                try endRow()
                line += 1
                rowLine = line
            case carriageReturn where index + 1 < bytes.count && bytes[index + 1] == newline:
                break
            case carriageReturn where index + 1 == bytes.count:
                break
            default:
                try append(byte)
            }
            index += 1
        }
        if !field.isEmpty || !fields.isEmpty { try endRow() }
    }
}
