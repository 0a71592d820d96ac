import Glibc
import StrideLedger

/// Writes the report whole or not at all: into a hidden partial file beside it (mode 0600),
/// synced, then moved into place — refusing an existing file unless replacing.
enum ReportFile {
    /// - Throws: `LedgerError.fileExists` when the file exists and `replacing` is false, or
    ///   `LedgerError.unwritable`.
    static func write(_ text: String, to path: String, replacing: Bool) throws {
        guard replacing else {
            // The ledger's own writer: a partial renamed by link(), which refuses a file
            // that appeared meanwhile.
            let writer = try PrivateFileWriter(path: path)
            try writer.write(text)
            try writer.commit()
            return
        }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let partial = folder + "." + name + ".partial-\(getpid())"
        unlink(partial)
        let descriptor = open(partial, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure(path) }
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                let error = failure(path)
                close(descriptor)
                unlink(partial)
                throw error
            }
            offset += written
        }
        guard fsync(descriptor) == 0, close(descriptor) == 0 else {
            let error = failure(path)
            unlink(partial)
            throw error
        }
        guard rename(partial, path) == 0 else {
            let error = failure(path)
            unlink(partial)
            throw error
        }
    }

    private static func failure(_ path: String) -> LedgerError {
        LedgerError.unwritable(path: path, reason: String(cString: strerror(errno)))
    }
}
