import Glibc

/// Writes a file that appears whole or not at all: bytes go to a hidden temporary file
/// (mode 0600: health data) beside the target, which is synced and renamed over nothing
/// on ``commit()``. A writer dropped without committing removes its temporary file.
public final class PrivateFileWriter {
    /// The file that ``commit()`` creates.
    public let path: String
    private let temporaryPath: String
    private var descriptor: Int32
    private var buffer: [UInt8] = []
    private var isFinished = false

    /// Starts writing `path`, which must not exist yet.
    /// - Throws: ``LedgerError/fileExists(path:)`` or ``LedgerError/unwritable(path:reason:)``.
    public init(path: String) throws {
        self.path = path
        if access(path, F_OK) == 0 { throw LedgerError.fileExists(path: path) }
        temporaryPath = PartialFiles.path(for: path)
        PartialFiles.removeStale(of: path)
        descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw LedgerError.unwritable(path: path, reason: String(cString: strerror(errno)))
        }
        buffer.reserveCapacity(1 << 20)
    }

    deinit {
        if !isFinished {
            close(descriptor)
            unlink(temporaryPath)
        }
    }

    /// Appends text.
    public func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 20 { try flush() }
    }

    private func flush() throws {
        var offset = 0
        while offset < buffer.count {
            let written = buffer[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw LedgerError.unwritable(path: path, reason: String(cString: strerror(errno)))
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes, syncs and moves the file into place.
    /// - Throws: ``LedgerError/unwritable(path:reason:)``; the target is then not created.
    public func commit() throws {
        try flush()
        guard fsync(descriptor) == 0 else { throw LedgerError.unwritable(path: path, reason: String(cString: strerror(errno))) }
        close(descriptor)
        isFinished = true
        // link() refuses an existing target, unlike rename(): a file made meanwhile is kept.
        guard link(temporaryPath, path) == 0 else {
            let reason = errno == EEXIST ? "it appeared while writing" : String(cString: strerror(errno))
            unlink(temporaryPath)
            throw LedgerError.unwritable(path: path, reason: reason)
        }
        unlink(temporaryPath)
    }
}
