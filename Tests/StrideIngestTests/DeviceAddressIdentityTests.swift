import Foundation
import StrideEvents
import StrideTestSupport
import Testing

@testable import StrideIngest

/// The `HKDevice: 0x…` address at the head of a `device` description is new in every export:
/// the identity leaves it out, and nothing else.
@Suite("Identities without the device's memory address")
struct DeviceAddressIdentityTests {
    static func device(address: String, software: String = "10.1") -> String {
        "&lt;&lt;HKDevice: 0x\(address)&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:\(software)&gt;"
    }

    static func record(
        device: String, value: String = "120", offset: String = "+0200", start: String = "2024-05-01 08:00:00",
        end: String = "2024-05-01 08:10:00", unit: String = "count", children: String = ""
    ) -> String {
        let open =
            " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Watch\" sourceVersion=\"10.1\" device=\"\(device)\" unit=\"\(unit)\" creationDate=\"\(end) \(offset)\" startDate=\"\(start) \(offset)\" endDate=\"\(end) \(offset)\" value=\"\(value)\""
        return children.isEmpty ? open + "/>" : open + ">\n" + children + "\n </Record>"
    }

    static func key(_ record: String, in folder: String) throws -> IdempotencyKey? {
        let file = try write(export(record), named: UUID().uuidString + ".xml", in: folder)
        return try read(file).events.first?.idempotencyKey
    }

    @Test(
        "descriptions and what is left of them",
        arguments: [
            ("<<HKDevice: 0x2837545f0>, name:iPhone, model:iPhone>", "<<HKDevice: 0x>, name:iPhone, model:iPhone>"),
            (
                "<<HKDevice: 0xABCDEF01>, name:AirPods, localIdentifier:AC:90:85:90:5D:B3-tacl>",
                "<<HKDevice: 0x>, name:AirPods, localIdentifier:AC:90:85:90:5D:B3-tacl>"
            ),
            // ipyhealth's anonymized descriptions print no address: nothing to leave out.
            ("<<HKDevice: 0x, name:Apple Watch, model:Watch>", nil),
            ("Dummy device", nil),
            ("", nil),
            ("<<HKDevice: 0x", nil),
        ] as [(String, String?)])
    func removal(device: String, expected: String?) {
        #expect(DeviceAddress.removed(from: device) == expected)
        #expect(DeviceAddress.isPrinted(in: device) == (expected != nil))
    }

    @Test("the same record with another address, printed with another offset, has the same identity")
    func sameRecord() throws {
        try withTemporaryDirectory { folder in
            let first = try Self.key(Self.record(device: Self.device(address: "2837545f0")), in: folder)
            let later = try Self.key(
                Self.record(device: Self.device(address: "1c94b2a30"), offset: "+0900", start: "2024-05-01 15:00:00", end: "2024-05-01 15:10:00"),
                in: folder)
            #expect(first != nil)
            #expect(first == later)
        }
    }

    @Test(
        "a record that differs in anything else is another sample",
        arguments: [
            ("value", record(device: device(address: "1"), value: "121")),
            ("software", record(device: device(address: "1", software: "10.2"))),
            ("start", record(device: device(address: "1"), start: "2024-05-01 08:00:01")),
            ("end", record(device: device(address: "1"), end: "2024-05-01 08:10:01")),
            ("unit", record(device: device(address: "1"), unit: "km")),
        ])
    func differentRecord(what: String, other: String) throws {
        try withTemporaryDirectory { folder in
            let base = try Self.key(Self.record(device: Self.device(address: "2")), in: folder)
            #expect(try Self.key(other, in: folder) != base, "a record with another \(what)")
        }
    }

    @Test("a value written as 120 or 120.0 is one value; metadata and external identifiers still decide first")
    func valueAndMetadata() throws {
        try withTemporaryDirectory { folder in
            let plain = try Self.key(Self.record(device: Self.device(address: "3"), value: "120"), in: folder)
            #expect(try Self.key(Self.record(device: Self.device(address: "4"), value: "120.0"), in: folder) == plain)
            let uuid = "<MetadataEntry key=\"HKExternalUUID\" value=\"A-1\"/>"
            let external = try Self.key(Self.record(device: Self.device(address: "5"), children: uuid), in: folder)
            #expect(try Self.key(Self.record(device: Self.device(address: "6"), value: "9", children: uuid), in: folder) == external)
        }
    }

    @Test("the identity computed from the stored sample is the one the ingest gave it")
    func fromStoredSample() throws {
        try withTemporaryDirectory { folder in
            let file = try write(export(Self.record(device: Self.device(address: "2837545f0"))), named: "a.xml", in: folder)
            let read = try read(file)
            var identity = ExportContentIdentity()
            #expect(identity.key(of: try #require(read.samples.first)) == read.events.first?.idempotencyKey)
        }
    }
}
