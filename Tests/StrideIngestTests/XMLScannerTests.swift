import Testing

@testable import StrideIngest

/// Everything a scanner reports, written down as text.
private struct RecordingHandler: XMLHandler {
    var tokens: [String] = []

    mutating func startElement(_ element: XMLElement) throws {
        let attributes = element.attributes.map { attribute in
            String(decoding: element.name(of: attribute), as: UTF8.self) + "=" + String(decoding: element.rawValue(of: attribute), as: UTF8.self)
                + (attribute.hasReferences ? "(&)" : "")
        }
        tokens.append("start \(String(decoding: element.name, as: UTF8.self)) \(attributes) line \(element.line) empty \(element.isEmpty)")
    }

    mutating func endElement(_ name: UnsafeRawBufferPointer, line: Int) throws {
        tokens.append("end \(String(decoding: name, as: UTF8.self)) line \(line)")
    }

    mutating func text(_ bytes: UnsafeRawBufferPointer, line: Int) throws {
        // Blank text between tags may come in pieces, or not at all, where a chunk ends in it:
        // it is layout, and no reader looks at it.
        guard bytes.contains(where: { !XMLScanner.isWhitespace($0) }) else { return }
        tokens.append("text \(String(decoding: bytes, as: UTF8.self).debugDescription) line \(line)")
    }
}

@Suite("The XML scanner")
struct XMLScannerTests {
    /// A document with what can straddle a chunk's end: a DTD whose declarations hold `>`,
    /// a comment holding `>`, values holding `>` and references, text across lines, empty
    /// and nested elements.
    static let document = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE HealthData [
        <!ELEMENT HealthData (Record*)>
        <!ATTLIST Record type CDATA #REQUIRED>
        ]>
        <HealthData locale="en_US">
         <!-- a comment > with a bracket -->
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Max&#8217;s Watch" value="12" note="a > b"/>
         <Record type='HKCategoryTypeIdentifierSleepAnalysis' value="HKCategoryValueSleepAnalysisAsleepCore">
          <MetadataEntry key="HKTimeZone" value="Europe/Berlin"/>
         </Record>
         <Workout workoutActivityType="HKWorkoutActivityTypeRunning"
                  duration="30">text
        across lines</Workout>
        </HealthData>

        """

    static func scan(_ bytes: [UInt8], chunkSize: Int) throws -> [String] {
        var scanner = XMLScanner()
        var handler = RecordingHandler()
        var start = 0
        while start < bytes.count {
            let end = min(start + chunkSize, bytes.count)
            try bytes[start..<end].withUnsafeBytes { try scanner.consume($0, into: &handler) }
            start = end
        }
        try scanner.finish()
        return handler.tokens
    }

    @Test("a document read in chunks of any size gives the tokens, lines and attributes it gives read whole")
    func chunkSizes() throws {
        let bytes = Array(Self.document.utf8)
        let whole = try Self.scan(bytes, chunkSize: bytes.count)
        #expect(whole.count == 11)
        #expect(whole.contains { $0.hasPrefix("start Record [\"type=HKQuantityTypeIdentifierStepCount\", \"sourceName=Max&#8217;s Watch(&)\"") })
        #expect(whole.contains("end Workout line 14"))
        for size in 1..<bytes.count {
            #expect(try Self.scan(bytes, chunkSize: size) == whole, "chunks of \(size) bytes")
        }
    }

    @Test("a document cut short is an error at any chunk size")
    func cutShort() throws {
        let bytes = Array(Self.document.utf8.dropLast(40))
        for size in [1, 7, 64, bytes.count] {
            #expect(throws: XMLStructureError.self, "chunks of \(size) bytes") { try Self.scan(bytes, chunkSize: size) }
        }
    }

    @Test("an empty-element tag is its start and end tags: <Track/> gives what <Track></Track> gives, at any chunk size")
    func emptyElements() throws {
        let selfClosing = Array("<Lap>\n <Track/>\n <Track />\n <ns3:Track\n   a=\"1\"/>\n <DistanceMeters>5</DistanceMeters>\n</Lap>\n".utf8)
        let spelledOut = Array(
            "<Lap>\n <Track></Track>\n <Track ></Track>\n <ns3:Track\n   a=\"1\"></ns3:Track>\n <DistanceMeters>5</DistanceMeters>\n</Lap>\n".utf8)
        let whole = try Self.scan(selfClosing, chunkSize: selfClosing.count)
        #expect(
            whole.filter { $0.hasPrefix("end ") } == [
                "end Track line 2", "end Track line 3", "end ns3:Track line 5", "end DistanceMeters line 6", "end Lap line 7",
            ])
        #expect(
            whole.map { $0.replacingOccurrences(of: "empty true", with: "empty false") } == (try Self.scan(spelledOut, chunkSize: spelledOut.count)))
        for size in 1..<selfClosing.count {
            #expect(try Self.scan(selfClosing, chunkSize: size) == whole, "chunks of \(size) bytes")
        }
    }

    @Test("an attribute name holding spaces (iOS 8 and 9 wrote some so) is one name, at any chunk size")
    func spacedNames() throws {
        let bytes = Array("<HealthData>\n <Record a=\"1\" Health Mate App Version = \"2.6.2\"\tSleep\tStage=\"Deep\" b=\"2\"/>\n</HealthData>\n".utf8)
        let whole = try Self.scan(bytes, chunkSize: bytes.count)
        #expect(whole.contains("start Record [\"a=1\", \"Health Mate App Version=2.6.2\", \"Sleep\\tStage=Deep\", \"b=2\"] line 2 empty true"))
        for size in 1..<bytes.count {
            #expect(try Self.scan(bytes, chunkSize: size) == whole, "chunks of \(size) bytes")
        }
    }
}
