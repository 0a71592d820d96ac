import Foundation
import Glibc
import StrideEvents

/// The formats `stride ingest` reads, told apart by their content, never their names
/// (the export's XML is `export.xml`, `Export.xml` or `导出.xml` depending on the phone).
public enum InputFormat: Equatable, Sendable, CustomStringConvertible {
    /// The Health app's `export.zip`.
    case healthExportArchive
    /// An `export.xml` on its own.
    case healthExportXML
    /// NDJSON samples and workouts.
    case ndjson
    /// A GPX track.
    case gpx
    /// A Health Auto Export REST document: a JSON object whose `data` holds `metrics`
    /// and/or `workouts`.
    case healthAutoExport
    /// A FIT activity (Garmin, COROS, Polar, Suunto, Wahoo…), plain or gzipped.
    case fit
    /// A zip of FIT files (Garmin Connect's "Export Original", the account export's parts).
    case fitArchive
    /// A Training Center XML activity (TCX).
    case tcx
    /// Strava's bulk export: the zip as downloaded, its folder, or its `activities.csv`.
    case stravaArchive
    /// Garmin Connect's account export ("Export Your Data"), the zip as downloaded.
    case garminArchive

    public var description: String {
        switch self {
        case .healthExportArchive: "Apple Health export (zip)"
        case .healthExportXML: "Apple Health export (XML)"
        case .ndjson: "NDJSON"
        case .gpx: "GPX"
        case .healthAutoExport: "Health Auto Export (JSON)"
        case .fit: "FIT"
        case .fitArchive: "FIT files (zip)"
        case .tcx: "TCX"
        case .stravaArchive: "Strava archive"
        case .garminArchive: "Garmin Connect archive"
        }
    }

    /// Reads the start of a file and says what it is.
    /// - Throws: ``IngestError/unreadable(file:reason:)`` or ``IngestError/unknownFormat(file:found:)``.
    public static func detect(file: String) throws -> InputFormat {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), isDirectory.boolValue {
            guard StravaArchive.isArchive(try ArchiveFiles(file).paths) else {
                throw IngestError.unknownFormat(
                    file: file, found: "a folder, but not a Strava archive's (no activities.csv in it)")
            }
            return .stravaArchive
        }
        if URL(fileURLWithPath: file).lastPathComponent == "activities.csv",
            (try? StravaArchive.isArchive(ArchiveFiles(StravaArchive.location(of: file)).paths)) == true
        {
            return .stravaArchive
        }
        let head = try FileChunks.head(of: file, bytes: 1 << 20)
        let format = try head.withUnsafeBytes { try detect(head: $0, file: file) }
        // A zip is told by what its entries hold: an account archive by its index files, FIT
        // files and no XML make a FIT archive.
        if format == .healthExportArchive {
            if let paths = ArchiveFiles.paths(ofZip: file) {
                if StravaArchive.isArchive(paths) { return .stravaArchive }
                if GarminArchive.isArchive(paths) { return .garminArchive }
            }
            if FITArchive.holdsFITFiles(file) { return .fitArchive }
        }
        return format
    }

    static func detect(head: UnsafeRawBufferPointer, file: String) throws -> InputFormat {
        if head.count >= 4, head[0] == 0x50, head[1] == 0x4B, head[2] == 0x03 || head[2] == 0x05 {
            return .healthExportArchive
        }
        if FITInput.isFIT(head) || FITInput.isGzippedFIT(head) { return .fit }
        var index = 0
        if head.count >= 3, head[0] == 0xEF, head[1] == 0xBB, head[2] == 0xBF { index = 3 }
        while index < head.count, XMLScanner.isWhitespace(head[index]) { index += 1 }
        guard index < head.count else {
            throw IngestError.unknownFormat(file: file, found: head.isEmpty ? "empty" : "blank")
        }
        switch head[index] {
        case UInt8(ascii: "{"):
            // NDJSON's lines are objects too: a Health Auto Export document is told by its
            // `data` holding `metrics` or `workouts`.
            let rest = UnsafeRawBufferPointer(rebasing: head[index...])
            return JSONLocator.looksLikeHealthAutoExport(head: rest) ? .healthAutoExport : .ndjson
        case UInt8(ascii: "<"):
            let rest = UnsafeRawBufferPointer(rebasing: head[index...])
            if XMLScanner.find("<HealthData", in: rest, from: 0) != nil || XMLScanner.find("DOCTYPE HealthData", in: rest, from: 0) != nil {
                return .healthExportXML
            }
            if XMLScanner.find("<gpx", in: rest, from: 0) != nil { return .gpx }
            if XMLScanner.find("<TrainingCenterDatabase", in: rest, from: 0) != nil { return .tcx }
            throw IngestError.unknownFormat(file: file, found: "an XML document that is neither an Apple Health export, GPX nor TCX")
        default:
            throw IngestError.unknownFormat(file: file, found: "neither a zip, FIT, XML nor NDJSON")
        }
    }
}

/// Reads a file in large chunks.
enum FileChunks {
    static let chunkSize = 1 << 20

    /// The first bytes of a file.
    static func head(of file: String, bytes: Int) throws -> [UInt8] {
        let descriptor = try open(file)
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: bytes)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, bytes) }
        guard count >= 0 else { throw IngestError.unreadable(file: file, reason: String(cString: strerror(errno))) }
        return Array(buffer.prefix(count))
    }

    /// Calls `body` with each chunk of the file, in order.
    static func forEach(in file: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let descriptor = try open(file)
        defer { close(descriptor) }
        try forEach(inOpen: descriptor, named: file, body)
    }

    /// Calls `body` with each chunk of an open file, in order, from where it stands.
    static func forEach(inOpen descriptor: Int32, named file: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        var buffer = [UInt8](repeating: 0, count: chunkSize)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, chunkSize) }
            if count < 0 {
                if errno == EINTR { continue }
                throw IngestError.unreadable(file: file, reason: String(cString: strerror(errno)))
            }
            if count == 0 { return }
            try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        }
    }

    /// The whole of a file.
    static func contents(of file: String, progress: (Int) -> Void = { _ in }) throws -> Data {
        var data = Data()
        data.reserveCapacity(size(of: file))
        try forEach(in: file) { chunk in
            data.append(contentsOf: chunk)
            progress(data.count)
        }
        return data
    }

    /// When a file was last modified.
    static func modificationTime(of file: String) -> Timestamp? {
        var status = stat()
        guard stat(file, &status) == 0 else { return nil }
        return Timestamp(millisecondsSince1970: Int64(status.st_mtim.tv_sec) * 1000 + Int64(status.st_mtim.tv_nsec) / 1_000_000)
    }

    /// The size of a file in bytes.
    static func size(of file: String) -> Int {
        var status = stat()
        return stat(file, &status) == 0 ? Int(status.st_size) : 0
    }

    /// Opens a regular file to read. Opened without blocking and checked on the open file
    /// (never a check, then an open): a FIFO would wait for a writer forever, a device is no
    /// file a runner brings.
    private static func open(_ file: String) throws -> Int32 {
        let descriptor = Glibc.open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else { throw IngestError.unreadable(file: file, reason: String(cString: strerror(errno))) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw IngestError.unreadable(file: file, reason: reason)
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw IngestError.unreadable(
                file: file, reason: "it is \(FileKind(mode: status.st_mode)), not a file; save what it holds to a file first")
        }
        return descriptor
    }
}

/// What a path names, as a message says it: `a folder`, `a FIFO (named pipe)`.
struct FileKind: CustomStringConvertible {
    let mode: mode_t

    var description: String {
        switch mode & S_IFMT {
        case S_IFREG: "a file"
        case S_IFDIR: "a folder"
        case S_IFLNK: "a symbolic link"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFSOCK: "a socket"
        case S_IFCHR, S_IFBLK: "a device"
        default: "no file Stride knows"
        }
    }
}
