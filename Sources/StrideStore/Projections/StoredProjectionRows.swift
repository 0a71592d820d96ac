import StrideEvents
import StrideProjection

/// A projection's rows as LMDB stores them; each read is one snapshot.
struct StoredProjectionRows: ProjectionRowSource {
    let store: LMDBEventStore
    let name: String

    func row(forKey key: [UInt8]) throws -> [UInt8]? {
        try store.storedRow(of: name, key: key)
    }

    func rows(from lower: [UInt8], before upper: [UInt8]?) throws -> EncodedRows {
        try store.storedRows(of: name, from: lower, before: upper)
    }

    func rows(from lower: [UInt8], before upper: [UInt8]?, keeping: (UnsafeRawBufferPointer) -> Bool) throws -> EncodedRows {
        try store.storedRows(of: name, from: lower, before: upper, keeping: keeping)
    }

    func lastKey(before upper: [UInt8]) throws -> [UInt8]? {
        try store.storedKey(of: name, before: upper)
    }

    func rowHeads(from lower: [UInt8], before upper: [UInt8]?, bytes: Int) throws -> EncodedRows {
        try store.storedRows(of: name, from: lower, before: upper, headBytes: bytes)
    }

    func lastKey(before upper: [UInt8], where accepts: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool) throws -> [UInt8]? {
        try store.storedKey(of: name, before: upper, where: accepts)
    }
}

extension LMDBEventStore {
    /// A projection's stored state, for its typed queries, once `projections` (which should
    /// hold it; it is added when missing) have folded every committed event: a read never
    /// shows a figure that misses an event already in the log. Inside a ``view(_:)`` nothing
    /// is caught up: the view's opener did that, and appenders fold as they append.
    /// - Throws: what ``catchUp(_:roundSize:progress:)`` throws.
    public func caughtUpState<P: Projection>(of projection: P, with projections: [any Projection] = []) throws -> ProjectionState<P> {
        if !isInView {
            let all = projections.contains { $0.name == projection.name } ? projections : projections + [projection]
            try catchUp(all)
        }
        return ProjectionState(projection, source: StoredProjectionRows(store: self, name: projection.name))
    }
}
