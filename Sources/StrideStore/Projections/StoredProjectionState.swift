import StrideEvents
import StrideProjection

/// Projection rows read inside the appending transaction, for reactions.
struct StoredProjectionState: ProjectionStateReader {
    let reader: TransactionReader
    /// The databases of the projections this append maintains (opened before it began).
    let databases: [String: Database]

    func row<P: Projection>(_ key: P.Key, of projection: P) throws -> P.Row? {
        guard let database = databases[projection.name] else {
            throw ProjectionFailure(name: projection.name, problem: "a reaction read it, but this append does not maintain it")
        }
        return try reader.bytes(in: database, forKey: projection.encode(key: key)).map { bytes in
            try bytes.withUnsafeBytes { try projection.decodeRow($0) }
        }
    }

    func rows<P: Projection>(from lower: P.Key, before upper: P.Key, of projection: P) throws -> [(key: P.Key, row: P.Row)] {
        guard let database = databases[projection.name] else {
            throw ProjectionFailure(name: projection.name, problem: "a reaction read it, but this append does not maintain it")
        }
        return try reader.rows(in: database, from: projection.encode(key: lower), before: projection.encode(key: upper)).map { entry in
            (try entry.key.withUnsafeBytes { try projection.decodeKey($0) }, try entry.row.withUnsafeBytes { try projection.decodeRow($0) })
        }
    }
}
