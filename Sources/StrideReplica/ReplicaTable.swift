import Foundation
import Logging
import NIOCore
import PostgresNIO
import StrideEvents

/// The copy of the runners' logs in PostgreSQL, over one connection: two tables, made when
/// missing and checked when present.
///
/// - `stride_runners`: one row per runner — the server that writes its log (`writer`, since
///   `writer_since`) and the last sequence and chain hash copied. An append locks this row,
///   so two servers never append to one runner's log at once.
/// - `stride_events`: one row per event, keyed by (runner, sequence): the envelope exactly as
///   the ledger stores it, its chain hash, when it was recorded and when it was copied.
final class ReplicaTable: Sendable {
    let address: ReplicaAddress
    private let connection: PostgresConnection
    private let logger: Logger

    /// The tables' columns and types, as `information_schema` names them.
    static let shapes: [(table: String, columns: [String])] = [
        ("stride_runners", ["runner text", "writer text", "writer_since timestamp with time zone", "last_sequence bigint", "last_hash bytea"]),
        (
            "stride_events",
            [
                "runner text", "sequence bigint", "envelope bytea", "chain_hash bytea", "recorded_at timestamp with time zone",
                "copied_at timestamp with time zone",
            ]
        ),
    ]

    private init(address: ReplicaAddress, connection: PostgresConnection, logger: Logger) {
        self.address = address
        self.connection = connection
        self.logger = logger
    }

    /// Connects, and makes the tables when they are missing.
    /// - Throws: ``ReplicaError``: unreachable, refused credentials, no such database, or a
    ///   table of Stride's name with other columns.
    static func open(_ address: ReplicaAddress, logger: Logger) async throws(ReplicaError) -> ReplicaTable {
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(configuration: try address.configuration(), id: 1, logger: logger)
        } catch {
            throw ReplicaError.from(error, address: address)
        }
        let table = ReplicaTable(address: address, connection: connection, logger: logger)
        do {
            try await table.prepare()
        } catch {
            try? await connection.close()
            throw error
        }
        return table
    }

    func close() async {
        try? await connection.close()
    }

    /// Whether the connection is gone (the server stopped or restarted).
    var isClosed: Bool { connection.isClosed }

    private func prepare() async throws(ReplicaError) {
        var found = try await columns()
        if found.isEmpty || Self.shapes.contains(where: { found[$0.table] == nil }) {
            // Two servers starting at once may both create: the loser's error is the winner's table.
            try? await run(
                """
                CREATE TABLE IF NOT EXISTS stride_runners (
                    runner text PRIMARY KEY, writer text NOT NULL, writer_since timestamptz NOT NULL DEFAULT now(),
                    last_sequence bigint NOT NULL DEFAULT 0, last_hash bytea)
                """)
            try? await run(
                """
                CREATE TABLE IF NOT EXISTS stride_events (
                    runner text NOT NULL, sequence bigint NOT NULL, envelope bytea NOT NULL, chain_hash bytea NOT NULL,
                    recorded_at timestamptz NOT NULL, copied_at timestamptz NOT NULL DEFAULT clock_timestamp(),
                    PRIMARY KEY (runner, sequence))
                """)
            found = try await columns()
        }
        for shape in Self.shapes {
            guard let columns = found[shape.table] else {
                throw ReplicaError.refused("the table \(shape.table) could not be made; give the user \(address.user) the right to create tables")
            }
            guard columns == shape.columns else { throw ReplicaError.tableShape(table: shape.table, found: columns, expected: shape.columns) }
        }
    }

    /// The columns of Stride's tables that exist, by table.
    private func columns() async throws(ReplicaError) -> [String: [String]] {
        var found: [String: [String]] = [:]
        try await rows(
            """
            SELECT table_name::text, column_name::text, data_type::text FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name IN ('stride_runners', 'stride_events')
            ORDER BY table_name, ordinal_position
            """, as: (String, String, String).self
        ) { table, column, type in found[table, default: []].append("\(column) \(type)") }
        return found
    }

    /// One runner's row.
    struct RunnerRow: Sendable, Hashable {
        var runner: String
        var writer: String
        var writerSince: Date
        var lastSequence: UInt64
        var lastHash: ChainHash?
    }

    /// Every runner the table holds.
    func runners() async throws(ReplicaError) -> [RunnerRow] {
        try await runnerRows("SELECT runner, writer, writer_since, last_sequence, last_hash FROM stride_runners ORDER BY runner")
    }

    /// One runner's row, if the table holds their log.
    func runner(_ name: String) async throws(ReplicaError) -> RunnerRow? {
        try await runnerRows("SELECT runner, writer, writer_since, last_sequence, last_hash FROM stride_runners WHERE runner = \(name)").first
    }

    private func runnerRows(_ query: PostgresQuery) async throws(ReplicaError) -> [RunnerRow] {
        var result: [RunnerRow] = []
        try await rows(query, as: (String, String, Date, Int64, ByteBuffer?).self) { runner, writer, since, last, hash in
            result.append(
                RunnerRow(runner: runner, writer: writer, writerSince: since, lastSequence: UInt64(last), lastHash: hash.flatMap(Self.hash)))
        }
        return result
    }

    /// Appends `events` (sequences `after + 1` onwards) to `runner`'s log, in one transaction,
    /// as the server `writer`: only if the table names that server as the runner's writer (or
    /// names none yet: it becomes the writer) and its last sequence is `after`.
    /// - Returns: nil when appended; else what the table holds (another writer, or another
    ///   last sequence), and nothing was written.
    func append(_ events: [CopiedEvent], runner: String, after: UInt64, as writer: String) async throws(ReplicaError) -> RunnerRow? {
        guard let last = events.last else { return nil }
        let logger = logger
        do {
            return try await connection.withTransaction(logger: logger) { connection -> RunnerRow? in
                try await connection.query(
                    "INSERT INTO stride_runners (runner, writer) VALUES (\(runner), \(writer)) ON CONFLICT (runner) DO NOTHING", logger: logger)
                var row: RunnerRow?
                for try await (name, owner, since, sequence, hash) in try await connection.query(
                    "SELECT runner, writer, writer_since, last_sequence, last_hash FROM stride_runners WHERE runner = \(runner) FOR UPDATE",
                    logger: logger
                ).decode((String, String, Date, Int64, ByteBuffer?).self) {
                    row = RunnerRow(
                        runner: name, writer: owner, writerSince: since, lastSequence: UInt64(sequence), lastHash: hash.flatMap(Self.hash))
                }
                guard let row, row.writer == writer, row.lastSequence == after else { return row }
                // Rows of at most 1,000 events: 6,000 parameters of the protocol's 65,535.
                for start in stride(from: 0, to: events.count, by: 1_000) {
                    let part = events[start..<min(start + 1_000, events.count)]
                    var binds = PostgresBindings(capacity: part.count * 4 + 1)
                    binds.append(runner)
                    var sql = "INSERT INTO stride_events (runner, sequence, envelope, chain_hash, recorded_at) VALUES "
                    for (index, event) in part.enumerated() {
                        binds.append(Int64(event.sequence))
                        binds.append(ByteBuffer(bytes: event.bytes))
                        binds.append(event.chainHash.withUnsafeBytes { ByteBuffer(bytes: $0) })
                        binds.append(Date(timeIntervalSince1970: Double(event.recordedAt.millisecondsSince1970) / 1_000))
                        let first = 2 + index * 4
                        sql += (index == 0 ? "" : ", ") + "($1, $\(first), $\(first + 1), $\(first + 2), $\(first + 3))"
                    }
                    try await connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger)
                }
                let hash = last.chainHash.withUnsafeBytes { ByteBuffer(bytes: $0) }
                try await connection.query(
                    "UPDATE stride_runners SET last_sequence = \(Int64(last.sequence)), last_hash = \(hash) WHERE runner = \(runner)",
                    logger: logger)
                return nil
            }
        } catch {
            throw ReplicaError.from(error, address: address)
        }
    }

    /// Names `writer` as the runner's writer, only if the table's last sequence of the runner
    /// is still `last` (nothing was copied meanwhile). Returns whether it did.
    func promote(_ runner: String, to writer: String, expectingLast last: UInt64) async throws(ReplicaError) -> Bool {
        var changed = false
        try await rows(
            """
            INSERT INTO stride_runners AS r (runner, writer, last_sequence) VALUES (\(runner), \(writer), 0)
            ON CONFLICT (runner) DO UPDATE SET writer = excluded.writer, writer_since = now()
            WHERE r.last_sequence = \(Int64(last)) RETURNING runner
            """, as: String.self
        ) { _ in changed = true }
        return changed
    }

    /// Up to `limit` events of the runner's log after sequence `after`, in order.
    func events(of runner: String, after: UInt64, limit: Int) async throws(ReplicaError) -> [StoredEvent] {
        var events: [StoredEvent] = []
        events.reserveCapacity(limit)
        try await rows(
            "SELECT sequence, envelope FROM stride_events WHERE runner = \(runner) AND sequence > \(Int64(after)) ORDER BY sequence LIMIT \(limit)",
            as: (Int64, ByteBuffer).self
        ) { sequence, envelope in events.append(StoredEvent(sequence: UInt64(sequence), bytes: Array(buffer: envelope))) }
        return events
    }

    /// The chain hash the table holds for the runner's event `sequence`.
    func hash(of runner: String, at sequence: UInt64) async throws(ReplicaError) -> ChainHash? {
        var hash: ChainHash?
        try await rows(
            "SELECT chain_hash FROM stride_events WHERE runner = \(runner) AND sequence = \(Int64(sequence))", as: ByteBuffer.self
        ) { hash = Self.hash($0) }
        return hash
    }

    /// Runs a statement that answers no rows.
    func run(_ query: PostgresQuery) async throws(ReplicaError) {
        do {
            try await connection.query(query, logger: logger)
        } catch {
            throw ReplicaError.from(error, address: address)
        }
    }

    /// Runs a query and hands each row, decoded, to `visit`.
    func rows<each Column: PostgresDecodable>(
        _ query: PostgresQuery, as types: (repeat each Column).Type, _ visit: (repeat each Column) throws -> Void
    ) async throws(ReplicaError) {
        do {
            for try await row in try await connection.query(query, logger: logger).decode((repeat each Column).self) {
                try visit(repeat each row)
            }
        } catch {
            throw ReplicaError.from(error, address: address)
        }
    }

    private static func hash(_ buffer: ByteBuffer) -> ChainHash? {
        buffer.withUnsafeReadableBytes { ChainHash(bytes: $0) }
    }
}

/// An event as the copy holds it.
struct CopiedEvent: Sendable {
    var sequence: UInt64
    /// The envelope, as the ledger stores it.
    var bytes: [UInt8]
    var chainHash: ChainHash
    var recordedAt: Timestamp

    /// Reads a stored event's hash and time from its envelope.
    init(_ stored: StoredEvent) throws {
        let envelope = try stored.bytes.withUnsafeBytes { try Envelope(parsing: $0) }
        sequence = stored.sequence
        bytes = stored.bytes
        chainHash = envelope.chainHash
        recordedAt = envelope.recordedAt
    }
}
