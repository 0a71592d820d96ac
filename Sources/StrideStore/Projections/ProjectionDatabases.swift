import Foundation
import StrideEvents
import StrideProjection

/// Where a projection stands: the version its rows were built with and the last sequence
/// folded into them.
public struct ProjectionCheckpoint: Hashable, Sendable {
    /// The projection's version when its rows were written.
    public var version: UInt32
    /// The last sequence folded in (0: none).
    public var sequence: UInt64
}

/// The named LMDB databases of projections, opened once per name.
final class ProjectionDatabases: @unchecked Sendable {
    private let lock = NSLock()
    private var databases: [String: Database] = [:]

    func database(named name: String, in environment: Environment) throws -> Database {
        try databases(named: [name], in: environment)[0]
    }

    /// The databases of several projections, those not open yet opened in one transaction
    /// (a new ledger then commits once for all its projections, not once each).
    func databases(named names: [String], in environment: Environment) throws -> [Database] {
        let known = lock.withLock { names.map { databases[$0] } }
        let missing = names.indices.filter { known[$0] == nil }
        guard !missing.isEmpty else { return known.compactMap { $0 } }
        let opened = try environment.openDatabases(missing.map { ("projection:" + names[$0], []) })
        return lock.withLock {
            for (index, database) in zip(missing, opened) { databases[names[index]] = database }
            return names.compactMap { databases[$0] }
        }
    }
}

extension LMDBEventStore {
    /// The database of a projection's rows.
    func rowsDatabase(_ name: String) throws -> Database {
        try projectionDatabases.database(named: name, in: environment)
    }

    /// The databases of these projections' rows, in their order.
    func rowsDatabases(_ projections: [any Projection]) throws -> [Database] {
        try projectionDatabases.databases(named: projections.map(\.name), in: environment)
    }

    func checkpoint(of name: String, in transaction: borrowing Transaction) throws -> ProjectionCheckpoint? {
        try transaction.bytes(in: projectionMetaDatabase, forKey: Array(name.utf8)).flatMap { bytes in
            guard bytes.count == 12 else { return nil }
            return bytes.withUnsafeBytes {
                ProjectionCheckpoint(
                    version: UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self)),
                    sequence: UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 4, as: UInt64.self)))
            }
        }
    }

    func write(_ checkpoint: ProjectionCheckpoint, of name: String, in transaction: borrowing Transaction) throws {
        var writer = BinaryWriter(capacity: 12)
        writer.write(fixed: checkpoint.version)
        writer.write(fixed: checkpoint.sequence)
        try transaction.put(writer.bytes, forKey: Array(name.utf8), in: projectionMetaDatabase)
    }

    /// Every projection's checkpoint.
    public func projectionCheckpoints() throws -> [String: ProjectionCheckpoint] {
        try environment.read { transaction in
            try transaction.withCursor(projectionMetaDatabase) { cursor in
                var result: [String: ProjectionCheckpoint] = [:]
                var entry = try cursor.first()
                while let current = entry {
                    let name = String(decoding: current.key, as: UTF8.self)
                    if current.value.count == 12 {
                        result[name] = ProjectionCheckpoint(
                            version: UInt32(littleEndian: current.value.loadUnaligned(as: UInt32.self)),
                            sequence: UInt64(littleEndian: current.value.loadUnaligned(fromByteOffset: 4, as: UInt64.self)))
                    }
                    entry = try cursor.next()
                }
                return result
            }
        }
    }
}
