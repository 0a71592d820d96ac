import Foundation
import Hummingbird
import StrideEvents

/// A request's body written to a private file in the ledger's `uploads` folder (mode 0600),
/// so that the ingest reads it as it reads any file. A body past its limit, or arriving too
/// slowly, is refused and its file removed: nothing is left behind.
struct Upload {
    /// The file's path.
    let path: String
    /// The bytes written.
    let bytes: Int
    /// The SHA-256 of the body, in hexadecimal, taken as it streamed in.
    let bodyDigest: String

    /// The folder uploads go to, created (mode 0700) when missing.
    static func folder(of ledgerPath: String) throws -> String {
        let folder = ledgerPath + "/uploads"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return folder
    }

    /// Removes what a server stopped mid-upload left behind.
    static func removeStale(in folder: String) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            try? FileManager.default.removeItem(atPath: folder + "/" + name)
        }
    }

    /// Writes the body to a new file in `folder`.
    /// - Throws: ``APIError``: 413 past `limit` bytes, 408 slower than `minimumRate` bytes a
    ///   second once `grace` seconds have passed; the file is removed then.
    static func save(_ request: Request, into folder: String, limit: Int, minimumRate: Int, grace: Int) async throws -> Upload {
        let path = folder + "/" + UUID().uuidString
        let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw APIError(.internalServerError, "cannot write the upload to \(folder): \(String(cString: strerror(errno))); check the ledger folder")
        }
        var written = 0
        var digest = SHA256Stream()
        let began = ContinuousClock.now
        do {
            defer { close(descriptor) }
            for try await chunk in request.body {
                written += chunk.readableBytes
                ServerMetrics.uploadBytes?.increment(by: Int64(chunk.readableBytes))
                guard written <= limit else {
                    throw APIError(.contentTooLarge, "the body is larger than \(limit) bytes, the most this route takes (see `stride serve --help`)")
                }
                try chunk.withUnsafeReadableBytes { bytes in
                    digest.add(bytes)
                    try writeAll(bytes, to: descriptor)
                }
                let seconds = (ContinuousClock.now - began).components.seconds
                if seconds >= grace, seconds > 0, written / Int(seconds) < minimumRate {
                    throw APIError(
                        .requestTimeout, "the body arrived slower than \(minimumRate) bytes a second; send it again on a better connection")
                }
            }
        } catch {
            unlink(path)
            throw error
        }
        return Upload(path: path, bytes: written, bodyDigest: digest.hex)
    }

    private static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) throws {
        var offset = 0
        while offset < bytes.count {
            let result = write(descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
            if result < 0 {
                if errno == EINTR { continue }
                throw APIError(
                    .init(code: 507, reasonPhrase: "Insufficient Storage"),
                    "the upload could not be written: \(String(cString: strerror(errno))); free disk space and send it again")
            }
            offset += result
        }
    }

    /// Removes the file.
    func remove() {
        unlink(path)
    }
}
