import Glibc
import StrideEvents

/// An archive's folder, as a runner unpacked it, opened once: its files are opened relative to
/// it, one folder at a time, so that a name in the archive's index reaches only a regular file
/// inside it.
///
/// A path that climbs out (`..`) or starts at the root is refused before anything is opened;
/// every component is opened without following a symbolic link (`O_NOFOLLOW`), and the file
/// without blocking (`O_NONBLOCK`: a FIFO would wait for a writer forever), then checked on the
/// open descriptor (`fstat`), never checked first and opened after: nothing can be swapped in
/// between. A FIFO, a socket, a device or a folder is refused the same way.
final class ArchiveFolder {
    /// The folder as given.
    let path: String
    private let descriptor: Int32

    /// Opens the folder the runner named (following a symbolic link there: the runner chose it).
    /// - Throws: ``IngestError/unreadable(file:reason:)``.
    init(_ path: String) throws {
        self.path = path
        descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw IngestError.unreadable(file: path, reason: String(cString: strerror(errno))) }
    }

    deinit { close(descriptor) }

    /// Opens a regular file of the folder to read; the caller closes it.
    /// - Throws: ``ArchiveFileProblem`` naming why it is not read.
    func openFile(_ relative: String) throws(ArchiveFileProblem) -> Int32 {
        let components = relative.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard !relative.hasPrefix("/"), !components.contains(".."), !components.contains(where: \.isEmpty) else {
            throw ArchiveFileProblem("it lies outside the archive's folder, where Stride never reads")
        }
        var folder = descriptor
        defer { if folder != descriptor { close(folder) } }
        for (index, component) in components.enumerated() {
            let isLast = index == components.count - 1
            let flags = isLast ? O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC : O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
            let opened = openat(folder, component, flags)
            guard opened >= 0 else { throw refusal(component, in: folder, isLast: isLast, error: errno) }
            if folder != descriptor { close(folder) }
            folder = opened
        }
        let file = folder
        folder = descriptor
        var status = stat()
        guard fstat(file, &status) == 0 else {
            let reason = String(cString: strerror(errno))
            close(file)
            throw ArchiveFileProblem("it cannot be read: \(reason)")
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            close(file)
            throw ArchiveFileProblem("it is \(FileKind(mode: status.st_mode)), not a file")
        }
        return file
    }

    /// Why `component` of `folder` could not be opened: a symbolic link says so.
    private func refusal(_ component: String, in folder: Int32, isLast: Bool, error: Int32) -> ArchiveFileProblem {
        var status = stat()
        if fstatat(folder, component, &status, AT_SYMLINK_NOFOLLOW) == 0 {
            if status.st_mode & S_IFMT == S_IFLNK {
                return ArchiveFileProblem(
                    isLast
                        ? "it is a symbolic link, which Stride never follows out of an archive's folder"
                        : "the folder \(component.shownInMessage) on its way is a symbolic link, which Stride never follows")
            }
            if !isLast { return ArchiveFileProblem("\(component.shownInMessage) on its way is \(FileKind(mode: status.st_mode)), not a folder") }
        } else if error == ENOENT {
            return ArchiveFileProblem("the archive does not hold it")
        }
        return ArchiveFileProblem("it cannot be read: \(String(cString: strerror(error)))")
    }

    /// The size of a regular file of the folder, in bytes; 0 for one that cannot be opened.
    func size(of relative: String) -> UInt64 {
        guard let file = try? openFile(relative) else { return 0 }
        defer { close(file) }
        var status = stat()
        return fstat(file, &status) == 0 ? UInt64(status.st_size) : 0
    }

    /// Calls `body` with each chunk of a regular file of the folder, in order.
    /// - Throws: ``ArchiveFileProblem`` for a file not read, or what `body` throws.
    func forEachChunk(of relative: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let file = try openFile(relative)
        defer { close(file) }
        try FileChunks.forEach(inOpen: file, named: path + "/" + relative, body)
    }
}
