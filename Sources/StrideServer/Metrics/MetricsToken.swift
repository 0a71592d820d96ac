import Foundation

/// The token `GET /metrics` takes, read from a file (`stride serve --metrics-token-file`) so
/// that it never appears in the process list.
public enum MetricsToken {
    /// The fewest characters a metrics token may have.
    public static let shortest = 16

    /// Why a token file was refused.
    public struct FileError: Error, CustomStringConvertible {
        /// What went wrong and what to do.
        public let description: String
    }

    /// Reads the token from `path`: its text, surrounding white space removed.
    /// - Throws: ``FileError`` when the file cannot be read, is readable or writable by its
    ///   group or by others, or holds fewer than ``shortest`` characters.
    public static func read(fromFile path: String) throws -> String {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw FileError(description: "cannot read the metrics token file \(path): \(String(cString: strerror(errno)))")
        }
        guard status.st_mode & 0o077 == 0 else {
            throw FileError(
                description:
                    "the metrics token file \(path) is open to its group or others (mode \(String(status.st_mode & 0o777, radix: 8))); make it private: chmod 600 \(path)"
            )
        }
        guard let text = FileManager.default.contents(atPath: path).map({ String(decoding: $0, as: UTF8.self) }) else {
            throw FileError(description: "cannot read the metrics token file \(path); check that this user may read it")
        }
        let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard token.count >= shortest, !token.contains(where: \.isWhitespace) else {
            throw FileError(
                description:
                    "the metrics token file \(path) must hold one token of at least \(shortest) characters, without spaces; make one with: (umask 077; openssl rand -hex 32 > \(path))"
            )
        }
        return token
    }
}
