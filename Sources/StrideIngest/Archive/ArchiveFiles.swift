import Foundation
import StrideEvents
import ZIPFoundation

/// The files of an account archive (Strava's, Garmin Connect's) as the runner has it: the zip
/// as downloaded, read in place, or the folder it unpacks to.
///
/// Paths are relative to the archive's root, with `/` between folders. A zip's entries are
/// checked as the Health export's are before anything is inflated (no path climbing out, no
/// absurd inflation ratio); a folder's files are opened as ``ArchiveFolder`` opens them (inside
/// the folder, never through a symbolic link, never a FIFO, socket or device). Every read is
/// bounded: no entry costs more memory than the limit its caller gives.
final class ArchiveFiles {
    /// The zip or folder as given.
    let location: String
    /// Every file's path, in the archive's order.
    let paths: [String]
    private let storage: Storage

    private enum Storage {
        case zip(Archive, [String: Entry])
        case folder(ArchiveFolder, Set<String>)
    }

    /// Opens a zip or a folder.
    /// - Throws: ``IngestError/unreadable(file:reason:)`` or ``IngestError/unsafeArchive(file:entry:problem:)``.
    init(_ location: String) throws {
        self.location = location
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: location, isDirectory: &isDirectory) else {
            throw IngestError.unreadable(file: location, reason: "there is no such file or folder")
        }
        if isDirectory.boolValue {
            let paths = try Self.folderPaths(location)
            storage = .folder(try ArchiveFolder(location), Set(paths))
            self.paths = paths
            return
        }
        let archive: Archive
        do {
            archive = try Archive(url: URL(fileURLWithPath: location), accessMode: .read)
        } catch {
            throw IngestError.unreadable(file: location, reason: "it is not a readable zip, or it is cut short (\(error)); download it again")
        }
        let fileSize = UInt64(FileChunks.size(of: location))
        var entries: [String: Entry] = [:]
        var paths: [String] = []
        for entry in archive {
            try ExportArchive.check(entry, file: location, fileSize: fileSize)
            guard entry.type == .file else { continue }
            let path = Self.normalized(entry.path)
            if entries[path] == nil { paths.append(path) }
            entries[path] = entry
        }
        storage = .zip(archive, entries)
        self.paths = paths
    }

    /// How the archive names a path in messages: `export.zip › activities/123.fit.gz`.
    func name(of path: String) -> String { "\(location) › \(path.shownInMessage)" }

    /// Whether the archive holds a file.
    func contains(_ path: String) -> Bool {
        switch storage {
        case .zip(_, let entries): entries[path] != nil
        case .folder(_, let listed): listed.contains(path)
        }
    }

    /// The declared size of a file, in bytes.
    func size(of path: String) -> UInt64 {
        switch storage {
        case .zip(_, let entries): entries[path]?.uncompressedSize ?? 0
        case .folder(let folder, _): folder.size(of: path)
        }
    }

    /// The declared size of every file, in bytes (inflated, for a zip).
    var totalSize: Int { paths.reduce(0) { $0 + Int(min(size(of: $1), UInt64(Int.max / 4))) } }

    /// The whole of a file, at most `limit` bytes.
    /// - Throws: ``ArchiveFileProblem`` for a file larger than `limit`, or damaged.
    func bytes(of path: String, limit: Int) throws(ArchiveFileProblem) -> [UInt8] {
        guard size(of: path) <= UInt64(limit) else {
            throw ArchiveFileProblem("it holds \(size(of: path)) bytes, more than the \(limit) such a file can hold")
        }
        var bytes: [UInt8] = []
        do {
            try forEachChunk(of: path) { chunk in
                guard bytes.count + chunk.count <= limit else { throw ArchiveFileProblem("it inflates past the \(limit) bytes it may hold") }
                bytes.append(contentsOf: chunk)
            }
        } catch let problem as ArchiveFileProblem {
            throw problem
        } catch {
            throw ArchiveFileProblem("it is damaged or cut short (\(error))")
        }
        return bytes
    }

    /// Copies a file out of the archive (an archive inside the archive, opened in its turn) into
    /// a scratch file only the runner can read.
    /// - Throws: ``ArchiveFileProblem`` for a damaged file, or one past `limit` bytes.
    func copy(_ path: String, into file: borrowing ScratchFile, limit: Int) throws(ArchiveFileProblem) {
        let descriptor = file.descriptor
        var written = 0
        do {
            try forEachChunk(of: path) { chunk in
                written += chunk.count
                guard written <= limit else { throw ArchiveFileProblem("it inflates past the \(limit) bytes it may hold") }
                try chunk.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
                    var offset = 0
                    while offset < bytes.count, let start = bytes.baseAddress {
                        let count = write(descriptor, start + offset, bytes.count - offset)
                        if count < 0, errno == EINTR { continue }
                        guard count > 0 else { throw ArchiveFileProblem("writing it out failed: \(String(cString: strerror(errno)))") }
                        offset += count
                    }
                }
            }
        } catch let problem as ArchiveFileProblem {
            throw problem
        } catch {
            throw ArchiveFileProblem("it is damaged or cut short (\(error))")
        }
    }

    private func forEachChunk(of path: String, _ body: (Data) throws -> Void) throws {
        switch storage {
        case .zip(let archive, let entries):
            guard let entry = entries[path] else { throw ArchiveFileProblem("the archive does not hold it") }
            _ = try archive.extract(entry, bufferSize: 1 << 16, skipCRC32: false) { try body($0) }
        case .folder(let folder, _):
            try folder.forEachChunk(of: path) { try body(Data($0)) }
        }
    }

    /// The paths of a zip's entries, from its central directory (nothing inflated, nothing
    /// checked): what tells an account archive from another zip.
    static func paths(ofZip file: String) -> [String]? {
        guard let archive = try? Archive(url: URL(fileURLWithPath: file), accessMode: .read) else { return nil }
        return archive.map { normalized($0.path) }
    }

    /// `./a//b` → `a/b`; Windows' `\` as `/`.
    private static func normalized(_ path: String) -> String {
        path.split(whereSeparator: { $0 == "/" || $0 == "\\" }).filter { $0 != "." }.joined(separator: "/")
    }

    /// A folder's files, relative to it and at most three folders down, its symbolic links left
    /// alone.
    private static func folderPaths(_ root: String) throws -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: root) else {
            throw IngestError.unreadable(file: root, reason: "the folder cannot be listed")
        }
        var paths: [String] = []
        while let path = walker.nextObject() as? String {
            let type = walker.fileAttributes?[.type] as? FileAttributeType
            // An archive's files lie at most three folders down (Garmin's `DI_CONNECT/…/…`); an
            // `activities.csv` given from a large folder does not walk all of it.
            if type == .typeDirectory, walker.level >= 3 {
                walker.skipDescendants()
                continue
            }
            if type == .typeSymbolicLink {
                walker.skipDescendants()
                continue
            }
            if type == .typeRegular { paths.append(normalized(path)) }
        }
        return paths.sorted()
    }
}

/// Why one file inside an archive could not be read: damaged, cut short or too large.
struct ArchiveFileProblem: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
