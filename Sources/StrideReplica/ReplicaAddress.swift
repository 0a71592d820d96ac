import Foundation
import NIOSSL
import PostgresNIO

/// Where the copy of the runners' logs lives: a PostgreSQL address as libpq writes it,
/// `postgresql://USER:PASSWORD@HOST:PORT/DATABASE`, or over a Unix socket
/// `postgresql://USER@/DATABASE?host=/run/postgresql` (an empty host and the socket's folder).
///
/// What is left out takes libpq's defaults: the user is the system user, the database is named
/// after the user, the host is Debian's socket folder `/var/run/postgresql`, the port 5432, and
/// a password missing from the address is read from `PGPASSWORD`. `sslmode` is `disable`,
/// `prefer` (the default over TCP) or `require` (the server's certificate checked against the
/// system's authorities and the host's name).
public struct ReplicaAddress: Sendable, CustomStringConvertible {
    /// How the connection is secured.
    public enum Security: String, Sendable {
        case disable, prefer, require
    }

    public var user: String
    public var password: String?
    public var database: String
    /// A host name or address; nil over a Unix socket.
    public var host: String?
    public var port: Int
    /// The folder holding the server's socket, when `host` is nil.
    public var socketFolder: String
    public var security: Security

    /// The address with its password hidden: what messages and logs show.
    public var description: String {
        let credentials = user + (password == nil ? "" : ":***")
        if let host { return "postgresql://\(credentials)@\(host):\(port)/\(database)" }
        return "postgresql://\(credentials)@/\(database)?host=\(socketFolder)"
    }

    /// Reads an address.
    /// - Throws: ``ReplicaError/badAddress(_:problem:)`` saying what is wrong with it.
    public init(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let shown = Self.hidingPassword(text)
        guard text.hasPrefix("postgresql://") || text.hasPrefix("postgres://"), let parts = URLComponents(string: text) else {
            throw ReplicaError.badAddress(
                shown, problem: "it is not a postgresql:// address, such as postgresql://stride@/stride?host=/run/postgresql")
        }
        let query = Dictionary((parts.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
        let known: Set = ["host", "port", "sslmode", "user", "password", "dbname"]
        if let unknown = query.keys.sorted().first(where: { !known.contains($0) }) {
            throw ReplicaError.badAddress(
                shown, problem: "Stride does not know the parameter \(unknown) (it knows \(known.sorted().joined(separator: ", ")))")
        }
        let systemUser = environment["USER"] ?? "postgres"
        user = parts.user?.removingPercentEncoding ?? query["user"] ?? systemUser
        password = parts.password?.removingPercentEncoding ?? query["password"] ?? environment["PGPASSWORD"]
        let path = parts.path.hasPrefix("/") ? String(parts.path.dropFirst()) : parts.path
        database = path.isEmpty ? (query["dbname"] ?? user) : (path.removingPercentEncoding ?? path)
        let portText = parts.port.map(String.init) ?? query["port"] ?? "5432"
        guard let port = Int(portText), (1...65_535).contains(port) else {
            throw ReplicaError.badAddress(shown, problem: "the port \(portText) is not from 1 to 65535")
        }
        self.port = port
        let hostText = (parts.host?.isEmpty == false ? parts.host : nil) ?? query["host"]
        if let hostText, !hostText.hasPrefix("/") {
            host = hostText
            socketFolder = "/var/run/postgresql"
        } else {
            host = nil
            socketFolder = hostText ?? "/var/run/postgresql"
        }
        guard let security = Security(rawValue: query["sslmode"] ?? (host == nil ? "disable" : "prefer")) else {
            throw ReplicaError.badAddress(shown, problem: "sslmode must be disable, prefer or require")
        }
        if host == nil, security == .require {
            throw ReplicaError.badAddress(shown, problem: "sslmode=require needs a host name, not a socket folder")
        }
        self.security = security
    }

    /// The socket file of the server at this address (PostgreSQL names it by its port).
    var socketPath: String { "\(socketFolder)/.s.PGSQL.\(port)" }

    /// The connection's configuration.
    /// - Throws: when TLS cannot be set up.
    func configuration() throws -> PostgresConnection.Configuration {
        guard let host else {
            return PostgresConnection.Configuration(unixSocketPath: socketPath, username: user, password: password, database: database)
        }
        let tls: PostgresConnection.Configuration.TLS
        switch security {
        case .disable: tls = .disable
        case .prefer: tls = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
        case .require: tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        }
        var configuration = PostgresConnection.Configuration(
            host: host, port: port, username: user, password: password, database: database, tls: tls)
        configuration.options.connectTimeout = .seconds(5)
        return configuration
    }

    /// `text` with whatever follows `user:` up to `@` replaced by `***`.
    static func hidingPassword(_ text: String) -> String {
        guard let scheme = text.range(of: "://"), let at = text[scheme.upperBound...].firstIndex(of: "@") else { return text }
        let credentials = text[scheme.upperBound..<at]
        guard let colon = credentials.firstIndex(of: ":") else { return text }
        return String(text[..<colon]) + ":***" + String(text[at...])
    }
}
