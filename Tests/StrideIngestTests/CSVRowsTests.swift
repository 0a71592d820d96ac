import Foundation
import Testing

@testable import StrideIngest

/// CSV as Strava writes it, and what a damaged file gets.
@Suite("CSV rows")
struct CSVRowsTests {
    static func rows(_ text: String) throws -> [CSVRows.Row] {
        var rows: [CSVRows.Row] = []
        try Array(text.utf8).withUnsafeBytes { bytes in try CSVRows.read(bytes) { rows.append($0) } }
        return rows
    }

    @Test(
        "fields as RFC 4180 writes them",
        arguments: [
            ("a,b,c\n", [["a", "b", "c"]]),
            ("a,b,c", [["a", "b", "c"]]),
            ("a,,c\r\n1,2,3\r\n", [["a", "", "c"], ["1", "2", "3"]]),
            ("\"May 29, 2022, 3:53:35 PM\",Run\n", [["May 29, 2022, 3:53:35 PM", "Run"]]),
            ("\"said \"\"hi\"\"\",x\n", [["said \"hi\"", "x"]]),
            ("\"\",Brooks,Levitate 2\n", [["", "Brooks", "Levitate 2"]]),
            ("\u{FEFF}Shoe Name,Shoe Brand\n", [["Shoe Name", "Shoe Brand"]]),
            ("a\n\nb\n", [["a"], ["b"]]),
            ("ab\"c,d\n", [["ab\"c", "d"]]),
            ("Aktivitäts-ID,Distanz\n1,\"3,32\"\n", [["Aktivitäts-ID", "Distanz"], ["1", "3,32"]]),
        ])
    func fields(text: String, expected: [[String]]) throws {
        #expect(try Self.rows(text).map(\.fields) == expected)
    }

    @Test("a quoted field may hold line breaks; each row names the line it starts on")
    func lines() throws {
        let rows = try Self.rows("id,description\n1,\"first line\nsecond line\"\n2,plain\n")
        #expect(rows.map(\.line) == [1, 2, 4])
        #expect(rows[1].fields == ["1", "first line\nsecond line"])
    }

    @Test(
        "a damaged file is refused at the line of the row it is in",
        arguments: [
            ("a,b\n1,\"never closed\n2,3\n", CSVRows.Problem.unbalancedQuote(line: 2)),
            ("a,b\n\"x\"y,2\n", CSVRows.Problem.textAfterQuote(line: 2)),
            ("a\n" + String(repeating: ",", count: CSVRows.mostFields) + "\n", CSVRows.Problem.tooManyFields(line: 2)),
        ])
    func damaged(text: String, problem: CSVRows.Problem) {
        #expect(throws: problem) { try Self.rows(text) }
    }

    @Test("10 MB in one field is refused before it is held, quoted or not")
    func longField() {
        let long = String(repeating: "x", count: 10 << 20)
        #expect(throws: CSVRows.Problem.fieldTooLong(line: 1)) { try Self.rows(long + ",b\n") }
        #expect(throws: CSVRows.Problem.fieldTooLong(line: 2)) { try Self.rows("a\n\"" + long + "\"\n") }
    }
}
