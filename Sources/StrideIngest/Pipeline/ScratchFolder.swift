import Foundation
import Glibc

/// Where an ingest keeps the files it makes while it reads (a zip inside an archive, copied
/// out to be opened in its turn): the ledger's own `tmp` folder (mode 0700), so that what a
/// killed ingest leaves lies beside the ledger it belongs to, and goes when the ledger next
/// opens (``removeLeftovers()``), never in the machine's `/tmp` for good.
///
/// Each file is locked (`flock`) for as long as its ingest holds it: another process opening
/// the same ledger meanwhile removes only files no running ingest holds.
public struct ScratchFolder: Sendable, Hashable {
    /// The folder.
    public let path: String

    /// A scratch folder at `path` (made when first needed).
    public init(path: String) {
        self.path = path
    }

    /// The machine's temporary folder: for reads that have no ledger (a test, a fuzzer). Files
    /// left there are nobody's to remove.
    public static var machine: ScratchFolder { ScratchFolder(path: NSTemporaryDirectory()) }

    /// The prefix of every scratch file's name.
    static let prefix = "stride-scratch-"

    /// Removes the files that no running ingest holds: those a killed one left. Best effort:
    /// a file that cannot be removed stays for the next time.
    public func removeLeftovers() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return }
        for name in names where name.hasPrefix(Self.prefix) {
            let file = path + "/" + name
            let descriptor = open(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            guard descriptor >= 0 else {
                // Not a file of ours to lock (a link, a folder): nothing an ingest holds.
                try? FileManager.default.removeItem(atPath: file)
                continue
            }
            defer { close(descriptor) }
            // Held: an ingest is reading it now.
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { continue }
            var opened = stat()
            var named = stat()
            // Still the file the name gives (not one made under the same name meanwhile).
            if fstat(descriptor, &opened) == 0, lstat(file, &named) == 0, opened.st_ino == named.st_ino, opened.st_dev == named.st_dev {
                unlink(file)
            }
        }
    }

    /// A new file only the runner can read, held until its owner goes.
    /// - Throws: ``IngestError/unreadable(file:reason:)`` when the folder or the file cannot be made.
    func makeFile() throws -> ScratchFile {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw IngestError.unreadable(file: path, reason: "no scratch folder can be made there: \(error.localizedDescription)")
        }
        while true {
            var template = Array((path + "/" + Self.prefix + "XXXXXX").utf8CString)
            let descriptor = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
            guard descriptor >= 0 else {
                throw IngestError.unreadable(file: path, reason: "no scratch file can be made there: \(String(cString: strerror(errno)))")
            }
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            let made = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            var locked: Int32
            repeat { locked = flock(descriptor, LOCK_EX) } while locked != 0 && errno == EINTR
            guard locked == 0 else {
                let reason = String(cString: strerror(errno))
                unlink(made)
                close(descriptor)
                throw IngestError.unreadable(file: made, reason: "the scratch file cannot be locked: \(reason)")
            }
            // A cleaner that took it first removed it: then another is made.
            var status = stat()
            guard fstat(descriptor, &status) == 0, status.st_nlink > 0 else {
                close(descriptor)
                continue
            }
            return ScratchFile(path: made, descriptor: descriptor)
        }
    }
}

/// A scratch file (``ScratchFolder/makeFile()``): open, locked, and removed when its owner
/// goes, on every path.
struct ScratchFile: ~Copyable {
    /// Where it is.
    let path: String
    /// It, open to write (and locked).
    let descriptor: Int32

    deinit {
        unlink(path)
        close(descriptor)
    }
}
