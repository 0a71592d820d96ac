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
}
