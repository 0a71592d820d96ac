import Testing

@testable import StrideEvents

@Suite("Binary payload encoding")
struct BinaryCodingTests {
    @Test(
        "varints round-trip and stay short for small values",
        arguments: [
            (UInt64(0), 1), (127, 1), (128, 2), (16_383, 2), (16_384, 3), (UInt64.max, 10),
        ])
    func varints(value: UInt64, expectedBytes: Int) throws {
        var writer = BinaryWriter()
        writer.write(varint: value)
        #expect(writer.count == expectedBytes)
        let decoded = try writer.withUnsafeBytes { bytes in
            var reader = BinaryReader(bytes)
            return try reader.readVarint()
        }
        #expect(decoded == value)
    }

    @Test("a writer grows past its first capacity without losing or reordering a byte")
    func growth() throws {
        var writer = BinaryWriter(capacity: 16)
        var expected: [UInt8] = []
        for index in 0..<3_000 {
            switch index % 4 {
            case 0:
                writer.write(UInt8(truncatingIfNeeded: index))
                expected.append(UInt8(truncatingIfNeeded: index))
            case 1:
                writer.write(fixed: UInt32(index))
                expected += withUnsafeBytes(of: UInt32(index).littleEndian) { Array($0) }
            case 2:
                writer.write("é\(index)")
                let utf8 = Array("é\(index)".utf8)
                expected += [UInt8(utf8.count)] + utf8
            default:
                writer.write(raw: [1, 2, 3] as [UInt8])
                expected += [1, 2, 3]
            }
        }
        writer.overwrite(fixed: UInt16(0xBEEF), at: 1)
        expected[1] = 0xEF
        expected[2] = 0xBE
        #expect(writer.bytes == expected)
        writer.removeAll()
        #expect(writer.count == 0 && writer.bytes.isEmpty)
    }

    @Test(
        "byte keys sort as LMDB sorts them: byte by byte, a prefix first",
        arguments: [
            ([UInt8](), [UInt8](), false), ([], [0], true), ([0], [], false), ([1, 2], [1, 2], false), ([1, 2], [1, 2, 0], true),
            ([1, 3], [1, 2, 9], false), ([0x7F], [0x80], true), ([0xFF, 0], [0xFF, 0, 0], true),
        ])
    func keyOrder(left: [UInt8], right: [UInt8], before: Bool) {
        #expect(left.sortsBefore(right) == before)
        #expect(left.sortsBefore(right) == left.lexicographicallyPrecedes(right))
    }

    @Test("zig-zag varints keep small negative numbers short", arguments: [Int64(0), -1, 1, -64, 63, .min, .max])
    func signedVarints(value: Int64) throws {
        var writer = BinaryWriter()
        writer.write(signedVarint: value)
        if (-64...63).contains(value) { #expect(writer.count == 1) }
        let decoded = try writer.withUnsafeBytes { bytes in
            var reader = BinaryReader(bytes)
            return try reader.readSignedVarint()
        }
        #expect(decoded == value)
    }

    @Test("strings, doubles and optionals round-trip, including non-ASCII text")
    func mixed() throws {
        var writer = BinaryWriter()
        writer.write("Apple Watch de Marie\u{2019}s\u{00A0}watch")
        writer.write(5.02)
        writer.write(optional: nil as String?) { $0.write($1) }
        writer.write(optional: "kcal") { $0.write($1) }
        let (text, number, absent, present) = try writer.withUnsafeBytes { bytes in
            var reader = BinaryReader(bytes, strings: StringTable())
            return (
                try reader.readString(), try reader.readDouble(), try reader.readOptional { try $0.readString() },
                try reader.readOptional { try $0.readString() }
            )
        }
        #expect(text == "Apple Watch de Marie\u{2019}s\u{00A0}watch")
        #expect(number == 5.02)
        #expect(absent == nil)
        #expect(present == "kcal")
    }

    @Test("a truncated buffer is a decoding failure, never a crash")
    func truncated() throws {
        var writer = BinaryWriter()
        writer.write("a string long enough to cut")
        let bytes = Array(writer.bytes.prefix(5))
        #expect(throws: DecodingFailure.self) {
            try bytes.withUnsafeBytes { buffer in
                var reader = BinaryReader(buffer)
                _ = try reader.readString()
            }
        }
    }

    @Test("a string table returns equal strings for repeated bytes and tells different ones apart")
    func stringTable() {
        let table = StringTable(bits: 1)
        let names = ["Apple Watch de Marie", "iPhone de Marie (2)", "Apple Watch de Marie", "Withings Body Cardio"]
        for name in names {
            let decoded = Array(name.utf8).withUnsafeBytes { table.string($0) }
            #expect(decoded == name)
        }
    }
}

@Suite("The health-type catalog")
struct HealthTypeCatalogTests {
    @Test(
        "the named codes are the codes of their identifiers, which the readers spell by the catalogue's names",
        arguments: [
            ("HKQuantityTypeIdentifierHeartRate", HealthTypeCatalog.heartRate, HealthTypeCatalog.Identifier.heartRate),
            ("HKQuantityTypeIdentifierStepCount", HealthTypeCatalog.stepCount, HealthTypeCatalog.Identifier.stepCount),
            (
                "HKQuantityTypeIdentifierDistanceWalkingRunning", HealthTypeCatalog.distanceWalkingRunning,
                HealthTypeCatalog.Identifier.distanceWalkingRunning
            ),
            ("HKQuantityTypeIdentifierActiveEnergyBurned", HealthTypeCatalog.activeEnergyBurned, HealthTypeCatalog.Identifier.activeEnergyBurned),
            ("HKQuantityTypeIdentifierRestingHeartRate", HealthTypeCatalog.restingHeartRate, HealthTypeCatalog.Identifier.restingHeartRate),
            ("HKCategoryTypeIdentifierSleepAnalysis", HealthTypeCatalog.sleepAnalysis, HealthTypeCatalog.Identifier.sleepAnalysis),
        ])
    func namedCodes(identifier: String, code: UInt64, named: String) {
        #expect(HealthTypeCatalog.code(of: identifier) == code)
        #expect(HealthTypeCatalog.identifier(code: code) == identifier)
        #expect(named == identifier)
    }

    @Test("every listed identifier, and only those, has a code; quantity types are told by their prefix")
    func lookups() {
        for (offset, identifier) in HealthTypeCatalog.identifiers.enumerated() {
            let code = UInt64(offset + 1)
            #expect(HealthTypeCatalog.code(of: identifier) == code)
            #expect(HealthTypeCatalog.isQuantity(code: code) == identifier.hasPrefix("HKQuantityTypeIdentifier"))
        }
        for unlisted in ["", "HKQuantityTypeIdentifierHeartRat", "HKQuantityTypeIdentifierHeartRateX", "hkquantitytypeidentifierheartrate"] {
            #expect(HealthTypeCatalog.code(of: unlisted) == nil)
        }
        #expect(!HealthTypeCatalog.isQuantity(code: 0))
    }

    @Test(
        "a sample carries its type's code when made and read back, listed or not",
        arguments: [
            ("HKQuantityTypeIdentifierHeartRate", HealthTypeCatalog.heartRate),
            ("HKQuantityTypeIdentifierSomethingNew", 0),
        ])
    func sampleCode(identifier: String, code: UInt64) throws {
        func sample(_ type: String) -> SampleRecorded {
            SampleRecorded(
                healthType: type, deviceClass: .watch, value: .number(1), unit: "count", start: Timestamp(secondsSince1970: 0),
                end: Timestamp(secondsSince1970: 60), created: nil, sourceName: "Watch", sourceVersion: nil, device: nil, metadata: [])
        }
        #expect(sample("HKQuantityTypeIdentifierStepCount").healthTypeCode == HealthTypeCatalog.stepCount)
        let sample = sample(identifier)
        #expect(sample.healthTypeCode == code)
        let bytes = sample.encoded.bytes
        let decoded = try bytes.withUnsafeBytes { buffer in
            var reader = BinaryReader(buffer)
            return try SampleRecorded(decoding: &reader, schemaVersion: 1)
        }
        #expect(decoded == sample)
        #expect(decoded.healthType == identifier)
        #expect(decoded.healthTypeCode == code)
    }
}
