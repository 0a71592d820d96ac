import Foundation
import StrideFIT
import ZIPFoundation

/// A zip of FIT files, as Garmin Connect's "Export Original" and the account export's
/// `UploadedFiles` parts deliver them: each entry whose content is a FIT file (or a gzipped
/// one) is read; other entries are counted as not read. Entries are checked as the Health
/// export's are (no path climbing out, no absurd inflation ratio) before anything is
/// inflated, and an archive inside the archive is never opened.
struct FITArchive {
    let file: String
    private let archive: Archive
    /// The entries holding FIT files, in the zip's order.
    let entries: [Entry]
    /// Entries that are no FIT file.
    let otherEntries: Int

    /// Opens the zip and finds its FIT files.
    /// - Throws: ``IngestError``.
    init(file: String) throws {
        self.file = file
        do {
            archive = try Archive(url: URL(fileURLWithPath: file), accessMode: .read)
        } catch {
            throw IngestError.unreadable(file: file, reason: "it is not a readable zip (\(error))")
        }
        let fileSize = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? UInt64) ?? UInt64.max
        var entries: [Entry] = []
        var others = 0
        for entry in archive {
            try ExportArchive.check(entry, file: file, fileSize: fileSize)
            guard entry.type == .file else { continue }
            if Self.kind(of: entry, in: archive) == .fit { entries.append(entry) } else { others += 1 }
        }
        self.entries = entries
        otherEntries = others
    }

    /// Whether a zip holds FIT files and no XML (so no Apple Health export): told by the
    /// first bytes of each entry.
    static func holdsFITFiles(_ file: String) -> Bool {
        let archive: Archive
        do {
            archive = try Archive(url: URL(fileURLWithPath: file), accessMode: .read)
        } catch {
            return false
        }
        var fitFiles = 0
        for entry in archive where entry.type == .file {
            switch kind(of: entry, in: archive) {
            case .xml: return false
            case .fit: fitFiles += 1
            case .other: continue
            }
        }
        return fitFiles > 0
    }

    /// The bytes of a FIT entry, inflated (and gunzipped), at most ``FITDecoder/largestFile``.
    /// - Throws: ``IngestError/unsafeArchive(file:entry:problem:)`` for a damaged entry.
    func bytes(of entry: Entry) throws -> [UInt8] {
        guard entry.uncompressedSize <= UInt64(FITDecoder.largestFile) else {
            throw IngestError.unsafeArchive(
                file: file, entry: entry.path, problem: "it declares \(entry.uncompressedSize) bytes, more than any FIT file holds")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(entry.uncompressedSize))
        do {
            _ = try archive.extract(entry, bufferSize: 1 << 16, skipCRC32: false) { data in
                guard bytes.count + data.count <= Int(entry.uncompressedSize) else { throw Overrun() }
                bytes.append(contentsOf: data)
            }
            return try bytes.withUnsafeBytes { Gzip.isGzip($0) } ? Gzip.inflate(bytes, limit: FITDecoder.largestFile) : bytes
        } catch let failure as Gzip.Failure {
            throw IngestError.unsafeArchive(file: file, entry: entry.path, problem: failure.description)
        } catch {
            throw IngestError.unsafeArchive(file: file, entry: entry.path, problem: "the zip is damaged or cut short (\(error))")
        }
    }

    private struct Overrun: Error {}
    private struct PeekDone: Error {}

    private enum Kind { case fit, xml, other }

    /// What an entry's first bytes show: a FIT file (gzipped or not), XML, or something else.
    private static func kind(of entry: Entry, in archive: Archive) -> Kind {
        var head: [UInt8] = []
        do {
            _ = try archive.extract(entry, bufferSize: 4096, skipCRC32: true) { data in
                head.append(contentsOf: data)
                if head.count >= 4096 { throw PeekDone() }
            }
        } catch is PeekDone {
        } catch {
            return .other
        }
        if head.withUnsafeBytes({ Gzip.isGzip($0) }) {
            guard let inflated = try? Gzip.inflate(head, limit: 14, prefixOnly: true) else { return .other }
            head = inflated
        }
        if head.withUnsafeBytes({ FITInput.isFIT($0) }) { return .fit }
        let text = head.drop { $0 == 0xEF || $0 == 0xBB || $0 == 0xBF || XMLScanner.isWhitespace($0) }
        return text.first == UInt8(ascii: "<") ? .xml : .other
    }
}
