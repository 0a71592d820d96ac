import Foundation
import ZIPFoundation

/// A file an ingest benchmark times: a real export from the fixtures or a generated one, as
/// a zip or as XML.
struct BenchInput {
    /// How the report names it: the fixture's path (`bwassim/export.zip`), or the generated file's name.
    var label: String
    var path: String
    /// The bytes of XML it holds (inflated, for a zip).
    var xmlBytes: Int
    var isZip: Bool
}

/// Finding the real Apple Health exports among the fixtures, and their XML.
enum RealExports {
    /// `../shared/fixtures` beside the checkout this tool was built from, when it is there.
    static func defaultFolder(file: String = #filePath) -> String? {
        var folder = URL(fileURLWithPath: file).deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.deletingLastPathComponent().appendingPathComponent("shared/fixtures")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("SOURCES.md").path) { return candidate.path }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }

    /// Every Apple Health export under `folder` holding at least `minimumBytes` of XML, by
    /// label: a zip as it is and, extracted into `work` once, the XML inside it; an XML file
    /// as it is.
    /// - Throws: an error when a zip's export cannot be extracted.
    static func inputs(in folder: String, minimumBytes: Int, work: String) throws -> [BenchInput] {
        let manager = FileManager.default
        guard let paths = manager.enumerator(atPath: folder)?.compactMap({ $0 as? String }) else { return [] }
        var inputs: [BenchInput] = []
        for relative in paths.sorted() {
            let path = folder + "/" + relative
            let lowered = relative.lowercased()
            if lowered.hasSuffix(".xml"), isHealthExport(path), manager.sizeOfFile(path) >= minimumBytes {
                inputs.append(BenchInput(label: relative, path: path, xmlBytes: manager.sizeOfFile(path), isZip: false))
            } else if lowered.hasSuffix(".zip"), let archive = try? Archive(url: URL(fileURLWithPath: path), accessMode: .read, pathEncoding: nil),
                let entry = exportEntry(in: archive), Int(entry.uncompressedSize) >= minimumBytes
            {
                let size = Int(entry.uncompressedSize)
                inputs.append(BenchInput(label: relative, path: path, xmlBytes: size, isZip: true))
                let extracted = work + "/fixtures/" + relative.replacingOccurrences(of: "/", with: "__") + ".xml"
                if manager.sizeOfFile(extracted) != size {
                    try manager.createDirectory(atPath: work + "/fixtures", withIntermediateDirectories: true)
                    try? manager.removeItem(atPath: extracted)
                    _ = try archive.extract(entry, to: URL(fileURLWithPath: extracted))
                }
                inputs.append(BenchInput(label: relative + " (its XML)", path: extracted, xmlBytes: size, isZip: false))
            }
        }
        return inputs
    }

    /// The export in a zip: its largest XML entry, leaving out the clinical documents
    /// (`export_cda.xml`) that sit beside it.
    private static func exportEntry(in archive: Archive) -> Entry? {
        archive.filter { entry in
            let name = entry.path.lowercased()
            return entry.type == .file && name.hasSuffix(".xml") && !name.hasSuffix("_cda.xml")
        }.max { $0.uncompressedSize < $1.uncompressedSize }
    }

    /// Whether an XML file is an Apple Health export (its root element within the first 64 kB,
    /// after the DTD).
    private static func isHealthExport(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 64 << 10)) ?? Data()
        return head.range(of: Data("<HealthData".utf8)) != nil
    }
}
