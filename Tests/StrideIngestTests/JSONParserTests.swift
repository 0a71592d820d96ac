import Testing

@testable import StrideEvents
@testable import StrideIngest

/// The JSON parser of the Health Auto Export reader, and the walker that finds lines.
@Suite("JSON: parsing, and finding a value's line")
struct JSONParserTests {
    func parse(_ text: String) throws -> JSONNode {
        try Array(text.utf8).withUnsafeBytes { try JSONParser.parse($0) }
    }

    func fault(_ text: String) -> JSONSyntaxError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error as? JSONSyntaxError
        }
    }

    @Test("values: escapes, surrogate pairs, exact numbers, nesting")
    func values() throws {
        #expect(
            try parse(#"{"a": [1, -2.5e2, true, false, null], "b": "x\"\\\/\n\u00e9\ud83c\udfc3"}"#)
                == .object([
                    "a": .array([.number(1), .number(-250), .bool(true), .bool(false), .null]), "b": .string("x\"\\/\né🏃"),
                ]))
        #expect(try parse("8.2796763649358063") == .number(8.2796763649358063))
        #expect(try parse("17.719295979506636") == .number(17.719295979506636))
        #expect(try parse("123456789012345678") == .number(1.2345678901234568e17))
        #expect(try parse("1e999") == .number(.infinity))
        #expect(try parse("\u{FEFF}{}") == .object([:]))
        #expect(try parse(#""Marie’s Apple Watch|iPhone""#) == .string("Marie’s Apple Watch|iPhone"))
        #expect(try parse(#""\ud800""#) == .string("\u{FFFD}"))
    }

    @Test(
        "faults name their line, their column and what is wrong",
        arguments: [
            ("{\n\"a\": 1,\n}", 3, 1, "a comma before the end of the object"),
            ("{\n\"a\": 1\n\"b\": 2}", 3, 1, "'\"' where a comma or the end of the object (}) should be"),
            ("[01]", 1, 4, "a number with a leading zero"),
            ("[1.]", 1, 4, "a number without digits after its decimal point"),
            ("{\"a\": [1, 2", 1, 12, "the document ends in the middle of a value (cut short?)"),
            ("\"abc", 1, 5, "the document ends in the middle of a string (cut short?)"),
            ("\"a\nb\"", 1, 3, "a line break or control character inside a string"),
            ("{} {}", 1, 4, "more follows the end of the document"),
            ("[tru]", 1, 2, "'t' where a value should be"),
            ("{a: 1}", 1, 2, "'a' where a key in double quotes should be"),
            ("\"\\x\"", 1, 4, "\"\\x\", an escape JSON does not have, inside a string"),
        ] as [(String, Int, Int, String)])
    func faults(text: String, line: Int, column: Int, problem: String) {
        let found = fault(text)
        #expect(found?.line == line)
        #expect(found?.problem == problem)
        #expect(found?.column == column, "\(text)")
    }

    @Test("nesting deeper than 512 levels is refused, not a crash")
    func depth() {
        #expect(fault(String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000))?.problem == "values are nested too deeply")
    }

    @Test("the walker finds the line of a value by its path, and nil for a path that is not there")
    func lines() {
        var text = "{\"data\": {\n \"metrics\": [\n  {\"name\": \"a\",\n   \"data\": [{\"date\": 1},\n {\"date\": \"x\\\"y\"}]}]}}"
        let path = FieldPath().key("data").key("metrics").index(0).key("data").index(1).key("date")
        #expect(text.withUTF8 { JSONLocator.line(of: path, in: UnsafeRawBufferPointer($0)) } == 5)
        #expect(text.withUTF8 { JSONLocator.line(of: FieldPath().key("data").key("workouts"), in: UnsafeRawBufferPointer($0)) } == nil)
        #expect(path.description == "metrics[0].data[1].date")
    }
}
