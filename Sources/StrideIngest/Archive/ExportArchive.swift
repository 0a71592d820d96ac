import CZlibChecksum
import Foundation
import ZIPFoundation

/// The Health app's `export.zip`, read in place: the export's XML is found by its content
/// and inflated chunk by chunk into memory; nothing is extracted to disk.
///
/// Before inflating anything it refuses a zip with an entry path that climbs out (`..`),
/// an entry claiming more compressed bytes than the file holds, and an entry whose declared
/// inflated size is absurd for its compressed size (a zip bomb); while inflating it stops at
/// the declared size. Archives inside the archive are never opened: a zip that holds only
/// a nested archive is refused, naming it.
struct ExportArchive {
    /// Inflated bytes per compressed byte beyond which an entry is refused. Apple Health XML
    /// compresses 10–30 times; 400 leaves room and stops bombs (which reach thousands).
    static let largestRatio: UInt64 = 400

    let file: String
    private let archive: Archive
    /// The entry holding the export.
    let entry: Entry
    /// The workouts' routes (`workout-routes/*.gpx`), in the zip's order.
    let routes: [Entry]

    /// Opens the zip, checks every entry, and finds the export.
    /// - Throws: ``IngestError``.
    init(file: String) throws {
        self.file = file
        let archive: Archive
        do {
            archive = try Archive(url: URL(fileURLWithPath: file), accessMode: .read)
        } catch {
            throw IngestError.unreadable(file: file, reason: "it is not a readable zip (\(error))")
        }
        self.archive = archive
        let fileSize = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? UInt64) ?? UInt64.max
        var candidates: [Entry] = []
        var routes: [Entry] = []
        for entry in archive {
            try Self.check(entry, file: file, fileSize: fileSize)
            guard entry.type == .file else { continue }
            if entry.path.contains("workout-routes/"), entry.path.lowercased().hasSuffix(".gpx") {
                routes.append(entry)
            } else {
                candidates.append(entry)
            }
        }
        self.routes = routes
        // The XML is found by content; looking at .xml names first only saves time.
        candidates.sort { ($0.path.lowercased().hasSuffix(".xml") ? 0 : 1) < ($1.path.lowercased().hasSuffix(".xml") ? 0 : 1) }
        var nested: Entry?
        for candidate in candidates {
            switch Self.content(of: candidate, in: archive) {
            case .healthExport:
                entry = candidate
                return
            case .archive:
                nested = nested ?? candidate
            case .other:
                continue
            }
        }
        if let nested {
            throw IngestError.unsafeArchive(
                file: file, entry: nested.path,
                problem: "it is an archive inside the archive, and nested archives are not opened; unzip the outer one and ingest the export inside")
        }
        throw IngestError.noExportInArchive(file: file)
    }

    /// The inflated size of the export, as the zip declares it.
    var declaredSize: UInt64 { entry.uncompressedSize }

    /// Inflates the export, handing each chunk to `body`.
    /// - Throws: ``IngestError`` for a damaged zip, or what `body` throws.
    func forEachChunk(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        var inflated: UInt64 = 0
        let limit = entry.uncompressedSize
        // The CRC-32 is checked here with zlib's, not ZIPFoundation's (a third of the reading).
        var checksum = crc32(0, nil, 0)
        do {
            _ = try archive.extract(entry, bufferSize: 1 << 20, skipCRC32: true) { data in
                inflated += UInt64(data.count)
                guard inflated <= limit else { throw InflationOverrun() }
                do {
                    try data.withUnsafeBytes { bytes in
                        checksum = crc32(checksum, bytes.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt(bytes.count))
                        try body(bytes)
                    }
                } catch {
                    throw ReaderFailure(error: error)
                }
            }
            guard UInt32(truncatingIfNeeded: checksum) == entry.checksum else {
                throw IngestError.unsafeArchive(
                    file: file, entry: entry.path, problem: "the zip is damaged: the export's CRC-32 does not match the one the zip declares")
            }
        } catch let refusal as IngestError {
            throw refusal
        } catch let failure as ReaderFailure {
            throw failure.error
        } catch is InflationOverrun {
            throw IngestError.unsafeArchive(file: file, entry: entry.path, problem: "it inflates past the \(limit) bytes it declares")
        } catch {
            throw IngestError.unsafeArchive(file: file, entry: entry.path, problem: "the zip is damaged or cut short (\(error))")
        }
    }

    /// The longest route read: an hour's route at a point a second is about 1 MB.
    static let largestRoute = 64 << 20

    /// A route's bytes, inflated, at most ``largestRoute``.
    /// - Throws: ``IngestError/unsafeArchive(file:entry:problem:)`` for one too large, damaged
    ///   or cut short.
    func bytes(of route: Entry) throws -> [UInt8] {
        guard route.uncompressedSize <= UInt64(Self.largestRoute) else {
            throw IngestError.unsafeArchive(
                file: file, entry: route.path, problem: "it declares \(route.uncompressedSize) bytes, more than any workout's route holds")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(route.uncompressedSize))
        do {
            _ = try archive.extract(route, bufferSize: 1 << 16, skipCRC32: false) { data in
                guard bytes.count + data.count <= Int(route.uncompressedSize) else { throw InflationOverrun() }
                bytes.append(contentsOf: data)
            }
        } catch {
            throw IngestError.unsafeArchive(file: file, entry: route.path, problem: "the zip is damaged or cut short (\(error))")
        }
        return bytes
    }

    private struct InflationOverrun: Error {}
    /// An error from the reader of the inflated bytes, passed through unchanged.
    private struct ReaderFailure: Error {
        var error: any Error
    }
    private struct PeekDone: Error {}

    /// Refuses an entry whose path climbs out, or whose sizes are absurd (a zip bomb).
    static func check(_ entry: Entry, file: String, fileSize: UInt64) throws {
        let components = entry.path.split(whereSeparator: { $0 == "/" || $0 == "\\" })
        if components.contains("..") || entry.path.hasPrefix("/") {
            throw IngestError.unsafeArchive(file: file, entry: entry.path, problem: "its path climbs out of the archive")
        }
        guard entry.type == .file else { return }
        if entry.compressedSize > fileSize {
            throw IngestError.unsafeArchive(
                file: file, entry: entry.path,
                problem: "it declares \(entry.compressedSize) compressed bytes, more than the file's \(fileSize)")
        }
        let compressed = max(entry.compressedSize, 1)
        if entry.uncompressedSize / compressed > largestRatio && entry.uncompressedSize > 1 << 20 {
            throw IngestError.unsafeArchive(
                file: file, entry: entry.path,
                problem: "it declares \(entry.uncompressedSize) bytes inflated from \(entry.compressedSize), an absurd ratio (a zip bomb)")
        }
    }

    /// What an entry's first bytes show it to be.
    private enum Content {
        case healthExport, archive, other
    }

    /// Looks at an entry's first bytes: an Apple Health export's root, an archive's magic
    /// number (zip, gzip, bzip2, xz, 7z), or something else. An entry that cannot be
    /// inflated is something else.
    private static func content(of entry: Entry, in archive: Archive) -> Content {
        var head = Data()
        do {
            _ = try archive.extract(entry, bufferSize: 64 << 10, skipCRC32: true) { data in
                head.append(data)
                if head.count >= 512 << 10 { throw PeekDone() }
            }
        } catch is PeekDone {
        } catch {
            return .other
        }
        let archiveMagics: [[UInt8]] = [
            [0x50, 0x4B, 0x03, 0x04], [0x50, 0x4B, 0x05, 0x06], [0x1F, 0x8B], [0x42, 0x5A, 0x68],
            [0xFD, 0x37, 0x7A, 0x58, 0x5A], [0x37, 0x7A, 0xBC, 0xAF],
        ]
        if archiveMagics.contains(where: { head.starts(with: $0) }) { return .archive }
        let isExport = head.withUnsafeBytes { bytes in
            XMLScanner.find("<HealthData", in: bytes, from: 0) != nil || XMLScanner.find("DOCTYPE HealthData", in: bytes, from: 0) != nil
        }
        return isExport ? .healthExport : .other
    }
}
