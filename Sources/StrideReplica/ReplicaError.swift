import Foundation
import PostgresNIO

/// Why the copy in PostgreSQL could not be reached, written or read: each says what to do.
public enum ReplicaError: Error, Sendable, CustomStringConvertible {
    /// The address cannot be read.
    case badAddress(String, problem: String)
    /// No server answers there (stopped, or the wrong host, port or socket folder).
    case unreachable(ReplicaAddress, reason: String)
    /// The server refused the user or the password.
    case refusedCredentials(ReplicaAddress, reason: String)
    /// The server has no database of that name.
    case noDatabase(ReplicaAddress)
    /// A table of Stride's name has other columns than Stride's.
    case tableShape(table: String, found: [String], expected: [String])
    /// The server answered with an error.
    case server(String)
    /// Stride will not do what was asked, and says why (a restore onto a ledger, a promotion of
    /// a copy behind the table…).
    case refused(String)
    /// Another server writes this runner's log: this one was cut off (``Fence``).
    case fenced(Fence)
    /// The table holds no log for that runner.
    case noSuchRunner(String, ReplicaAddress)
    /// What the table holds does not continue the chain.
    case brokenCopy(runner: String, sequence: UInt64, problem: String)

    public var description: String {
        switch self {
        case .badAddress(let text, let problem):
            "the replica address \(text) cannot be used: \(problem)"
        case .unreachable(let address, let reason):
            "PostgreSQL at \(address) does not answer (\(reason)); start it, or check the host, port or socket folder in the address"
        case .refusedCredentials(let address, let reason):
            "PostgreSQL at \(address) refused the user \(address.user) (\(reason)); check the user and password in the address (or PGPASSWORD)"
        case .noDatabase(let address):
            "PostgreSQL at \(address) has no database \(address.database); create it (createdb \(address.database)) or name another in the address"
        case .tableShape(let table, let found, let expected):
            "the table \(table) in that database is not Stride's: it has the columns (\(found.joined(separator: ", "))), Stride's has (\(expected.joined(separator: ", "))); give Stride a database of its own, or rename that table"
        case .server(let message):
            "PostgreSQL refused: \(message)"
        case .refused(let message):
            message
        case .fenced(let fence):
            fence.description
        case .noSuchRunner(let runner, let address):
            "PostgreSQL at \(address) holds no log of the runner \(runner); check the name (a runner's log is there once a server with --replica has copied it)"
        case .brokenCopy(let runner, let sequence, let problem):
            "the copy of \(runner)'s log breaks at event \(sequence): \(problem); the ledger was not written — restore from a backup instead"
        }
    }

    /// The error postgres-nio threw, as one of these (its own description hides everything).
    static func from(_ error: any Error, address: ReplicaAddress) -> ReplicaError {
        if let error = error as? ReplicaError { return error }
        if let transaction = error as? PostgresTransactionError {
            if let inner = transaction.closureError ?? transaction.beginError ?? transaction.commitError {
                return from(inner, address: address)
            }
        }
        if address.host == nil, !FileManager.default.fileExists(atPath: address.socketPath) {
            return .unreachable(address, reason: "no server's socket at \(address.socketPath)")
        }
        guard let error = error as? PSQLError else { return .unreachable(address, reason: "\(error)") }
        if let info = error.serverInfo {
            let message = info[.message] ?? "an error"
            switch info[.sqlState] {
            case "28P01", "28000": return .refusedCredentials(address, reason: message)
            case "3D000": return .noDatabase(address)
            // Shutting down, starting up, or a connection lost: the server is away, not refusing.
            case let state? where state.hasPrefix("57P") || state.hasPrefix("08"): return .unreachable(address, reason: message)
            default: return .server("\(message) (\(info[.sqlState] ?? "?"))")
            }
        }
        switch error.code {
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown:
            let underlying = error.underlying.map { "\($0)" } ?? "\(error.code)"
            return .unreachable(address, reason: underlying)
        case .authMechanismRequiresPassword:
            return .refusedCredentials(address, reason: "it asks for a password and the address has none")
        default:
            return .server("\(error.code)")
        }
    }

}

/// Why a server may not write a runner's log: the table says another writes it.
public struct Fence: Sendable, Hashable, CustomStringConvertible {
    public var runner: String
    /// The server the table names as the runner's writer.
    public var writer: String
    /// This server.
    public var me: String
    /// The table's last sequence of the runner, and this ledger's.
    public var tableLast: UInt64
    public var ledgerLast: UInt64

    public var description: String {
        "the log of \(runner) is written by the server \(writer), not this one (\(me)): this server was cut off and will not write \(runner)'s ledger; "
            + (ledgerLast > tableLast
                ? "its last \(ledgerLast - tableLast) event(s) after \(tableLast) were never copied and are kept only here — "
                : "")
            + "route \(runner) to \(writer), or follow it here (`stride serve --follow`), or make this server the writer with `stride runners promote \(runner)`"
    }
}
