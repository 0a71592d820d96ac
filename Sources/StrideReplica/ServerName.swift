import Foundation
import StrideLedger

/// The name a server goes by in the table (`stride_runners.writer`): the host's name and a
/// random part, kept in the runners' folder (`.stride-server`) so that the server keeps it
/// across restarts and `stride runners promote`, run beside it, claims runners for it.
public enum ServerName {
    static let fileName = ".stride-server"

    /// The folder's server name, made at its first use.
    /// - Throws: when the file cannot be written.
    public static func of(_ folder: RunnersFolder) throws -> String {
        let path = folder.path + "/" + fileName
        if let text = try? String(contentsOfFile: path, encoding: .utf8) {
            let name = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if !name.isEmpty { return name }
        }
        let host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "stride"
        let name = "\(host)-\(UUID().uuidString.prefix(8).lowercased())"
        guard FileManager.default.createFile(atPath: path, contents: Data((name + "\n").utf8), attributes: [.posixPermissions: 0o600]) else {
            throw ReplicaError.refused("the server's name could not be written to \(path)")
        }
        return name
    }
}
