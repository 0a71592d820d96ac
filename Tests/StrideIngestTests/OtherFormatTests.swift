import Foundation
import StrideEvents
import StrideTestSupport
import Testing
import ZIPFoundation

@testable import StrideIngest

@Suite("NDJSON, GPX, zips and format detection")
struct OtherFormatTests {
    @Test("NDJSON samples and workouts are read; bad lines are rejected with their numbers")
    func ndjson() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let lines = [
                #"{"type":"HKQuantityTypeIdentifierStepCount","start":"2024-05-01T08:00:00+02:00","end":"2024-05-01T08:10:00+02:00","value":1200,"unit":"count","device":"phone","id":"s-1"}"#,
                "this is not json",
                #"{"activity":"HKWorkoutActivityTypeRunning","start":"2024-05-01T07:00:00+02:00","end":"2024-05-01T07:30:00+02:00","distance":5.02,"distanceUnit":"km","source":"Strava"}"#,
                #"{"type":"HKQuantityTypeIdentifierStepCount","start":"2024-05-01T08:00:00","end":"2024-05-01T08:10:00+02:00","value":1}"#,
                "",
                #"{"type":"HKQuantityTypeIdentifierStepCount","start":"2024-05-01T08:00:00+02:00","end":"2024-05-01T07:10:00+02:00","value":1}"#,
                #"{"activity":"HKWorkoutActivityTypeRunning","start":"2024-05-01T07:00:00+02:00","end":"2024-05-01T07:30:00+02:00","distance":3,"distanceUnit":"leagues"}"#,
            ]
            let result = try read(try write(lines.joined(separator: "\n"), named: "samples.ndjson", in: folder))
            #expect(result.result.format == .ndjson)
            #expect(result.samples.count == 1)
            #expect(result.samples.first?.deviceClass == .phone)
            #expect(result.workouts.first?.distanceMeters == 5020)
            #expect(result.workouts.first?.distanceSource == .reported)
            let rejections = result.result.counts.rejections
            #expect(result.result.counts.rejectedLines == 4)
            #expect(
                rejections.map { $0.components(separatedBy: ": ")[0] }.map { $0.components(separatedBy: "line ").last ?? "" } == ["2", "4", "6", "7"])
            // The same file again: the same keys (a client id, or the content).
            let again = try read(try write(lines.joined(separator: "\n"), named: "again.ndjson", in: folder))
            #expect(again.events.map(\.idempotencyKey) == result.events.map(\.idempotencyKey))
        }
    }

    @Test("a GPX track: distance along the points of each segment, start and end from the first and last point")
    func gpx() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let gpx = """
                <?xml version="1.0"?>
                <gpx version="1.1" creator="Apple Watch"><trk><trkseg>
                <trkpt lat="0" lon="0"><ele>1</ele><time>2024-05-01T06:00:00Z</time></trkpt>
                <trkpt lat="0.01" lon="0"><time>2024-05-01T06:05:00Z</time></trkpt>
                </trkseg><trkseg>
                <trkpt lat="1" lon="1"><time>2024-05-01T06:30:00Z</time></trkpt>
                <trkpt lat="1.01" lon="1"><time>2024-05-01T06:35:00Z</time></trkpt>
                </trkseg></trk></gpx>
                """
            let result = try read(try write(gpx, named: "run.gpx", in: folder))
            let run = try #require(result.workouts.first)
            let segment = GreatCircle.distance(from: (0, 0), to: (0.01, 0)) + GreatCircle.distance(from: (1, 1), to: (1.01, 1))
            #expect(abs((run.distanceMeters ?? 0) - segment) < 1e-6)
            #expect(run.start == ISO8601.parse("2024-05-01T06:00:00Z"))
            #expect(run.end == ISO8601.parse("2024-05-01T06:35:00Z"))
            #expect(run.deviceClass == .watch)
        }
    }

    @Test("formats are told by content, not by name")
    func detection() throws {
        try withTemporaryDirectory { (folder: String) throws in
            #expect(try InputFormat.detect(file: try write(export(""), named: "data.json", in: folder)) == .healthExportXML)
            #expect(try InputFormat.detect(file: try write("{\"a\":1}\n", named: "export.xml", in: folder)) == .ndjson)
            #expect(try InputFormat.detect(file: try write("<gpx/>", named: "x.txt", in: folder)) == .gpx)
            #expect(throws: IngestError.self) { try InputFormat.detect(file: try write("hello", named: "h.xml", in: folder)) }
            #expect(throws: IngestError.self) { try InputFormat.detect(file: try write("", named: "empty", in: folder)) }
        }
    }

    static func zip(_ path: String, entries: [(String, Data)], method: CompressionMethod = .deflate) throws {
        let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .create)
        for (name, data) in entries {
            try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(data.count), compressionMethod: method) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
    }

    @Test("a zip whose export does not match its CRC-32 is refused as damaged, naming the entry")
    func damagedZip() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let xml = export(AppleHealthReaderTests.record())
            let path = folder + "/e.zip"
            try Self.zip(path, entries: [("apple_health_export/export.xml", Data(xml.utf8))], method: .none)
            // Stored, not deflated: change one letter of the XML inside, the zip's structure intact.
            var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            let marker = Data("value=\"".utf8)
            let range = try #require(bytes.range(of: marker))
            bytes[range.upperBound] = bytes[range.upperBound] == UInt8(ascii: "7") ? UInt8(ascii: "8") : UInt8(ascii: "7")
            try bytes.write(to: URL(fileURLWithPath: path))
            #expect {
                _ = try read(path)
            } throws: { error in
                "\(error)".contains("CRC-32") && "\(error)".contains("export.xml")
            }
        }
    }

    @Test("a zip is read in place, the export found by content under any name")
    func zipByContent() throws {
        try withTemporaryDirectory { (folder: String) throws in
            let xml = Data(export(AppleHealthReaderTests.record()).utf8)
            try Self.zip(
                folder + "/e.zip",
                entries: [
                    ("apple_health_export/export_cda.xml", Data("<?xml version=\"1.0\"?><ClinicalDocument/>".utf8)),
                    ("apple_health_export/导出.xml", xml),
                ])
            let result = try read(folder + "/e.zip")
            #expect(result.samples.count == 1)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["e.zip"])
        }
    }

    @Test("a zip entry climbing out with .. is refused, naming the entry")
    func zipSlip() throws {
        try withTemporaryDirectory { (folder: String) throws in
            try Self.zip(folder + "/evil.zip", entries: [("../../evil.xml", Data(export("").utf8))])
            #expect(
                throws: IngestError.unsafeArchive(file: folder + "/evil.zip", entry: "../../evil.xml", problem: "its path climbs out of the archive")
            ) {
                _ = try read(folder + "/evil.zip")
            }
        }
    }

    @Test("a zip whose inflated size is absurd is refused before inflating it")
    func zipBomb() throws {
        try withTemporaryDirectory { (folder: String) throws in
            try Self.zip(folder + "/bomb.zip", entries: [("export.xml", Data(count: 40 << 20))])
            do {
                _ = try read(folder + "/bomb.zip")
                Issue.record("the bomb was read")
            } catch let error as IngestError {
                guard case .unsafeArchive(_, _, let problem) = error else { Issue.record("\(error)"); return }
                #expect(problem.contains("zip bomb"))
            }
        }
    }

    @Test(
        "a zip holding the export only inside another archive is refused, naming it, stored or deflated",
        arguments: [false, true])
    func nestedArchive(deflated: Bool) throws {
        try withTemporaryDirectory { (folder: String) throws in
            try Self.zip(folder + "/inner.zip", entries: [("export.xml", Data(export(AppleHealthReaderTests.record()).utf8))], method: .none)
            let inner = try Data(contentsOf: URL(fileURLWithPath: folder + "/inner.zip"))
            try Self.zip(
                folder + "/outer.zip", entries: [("notes.txt", Data("hi".utf8)), ("apple_health_export/inner.zip", inner)],
                method: deflated ? .deflate : .none)
            #expect {
                _ = try read(folder + "/outer.zip")
            } throws: { error in
                guard case IngestError.unsafeArchive(let file, let entry, let problem) = error else { return false }
                return file == folder + "/outer.zip" && entry == "apple_health_export/inner.zip" && problem.contains("nested archives are not opened")
            }
            #expect(try Set(FileManager.default.contentsOfDirectory(atPath: folder)) == ["inner.zip", "outer.zip"])
        }
    }

    @Test("a zip entry claiming more compressed bytes than the file holds is refused before inflating")
    func compressedSizeBeyondFile() throws {
        try withTemporaryDirectory { (folder: String) throws in
            try Self.zip(folder + "/lying.zip", entries: [("export.xml", Data(export(AppleHealthReaderTests.record()).utf8))])
            var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/lying.zip")))
            // The central directory's record of the entry: its compressed size at offset 20.
            let central = try #require((0..<bytes.count - 4).last { bytes[$0..<$0 + 4] == [0x50, 0x4B, 0x01, 0x02] })
            bytes.replaceSubrange(central + 20..<central + 24, with: [0x00, 0x00, 0x00, 0x40])
            try Data(bytes).write(to: URL(fileURLWithPath: folder + "/lying.zip"))
            #expect {
                _ = try read(folder + "/lying.zip")
            } throws: { error in
                guard case IngestError.unsafeArchive(_, let entry, let problem) = error else { return false }
                return entry == "export.xml" && problem.contains("more than the file's")
            }
        }
    }

    @Test("a zip with no export says so")
    func zipWithoutExport() throws {
        try withTemporaryDirectory { (folder: String) throws in
            try Self.zip(folder + "/photos.zip", entries: [("a.txt", Data("hello".utf8))])
            #expect(throws: IngestError.noExportInArchive(file: folder + "/photos.zip")) { _ = try read(folder + "/photos.zip") }
        }
    }
}
