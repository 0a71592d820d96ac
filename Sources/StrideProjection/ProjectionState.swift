import StrideEvents

/// Where a projection's rows are read from, in stored form: LMDB for the stored state, memory
/// for a replay. Each call reads one consistent snapshot.
public protocol ProjectionRowSource: Sendable {
    /// The row bytes under a key's bytes, if there is a row.
    /// - Throws: a storage failure.
    func row(forKey key: [UInt8]) throws -> [UInt8]?

    /// The rows whose key bytes lie in `lower..<upper` (no upper bound when nil), in key-byte
    /// order.
    /// - Throws: a storage failure.
    func rows(from lower: [UInt8], before upper: [UInt8]?) throws -> EncodedRows

    /// The greatest key bytes before `upper`, if any: one step of a cursor, so that "the
    /// latest row before" costs the same on a decade of rows as on a week's.
    /// - Throws: a storage failure.
    func lastKey(before upper: [UInt8]) throws -> [UInt8]?

    /// The rows in `lower..<upper` whose key bytes `keeping` accepts: the others are neither
    /// copied nor decoded (a day's step rows among its heart rates).
    /// - Throws: a storage failure.
    func rows(from lower: [UInt8], before upper: [UInt8]?, keeping: (UnsafeRawBufferPointer) -> Bool) throws -> EncodedRows

    /// The rows in `lower..<upper` with only the first `bytes` bytes of each (the whole row
    /// when shorter): what a row begins with, read without copying the rest (a day's rows'
    /// last sequences, say, without their facts).
    /// - Throws: a storage failure.
    func rowHeads(from lower: [UInt8], before upper: [UInt8]?, bytes: Int) throws -> EncodedRows

    /// The greatest key bytes before `upper` whose row `accepts` (given the key's and the
    /// row's bytes), walking back from `upper` without copying the rows it passes.
    /// - Throws: a storage failure, or what `accepts` throws.
    func lastKey(
        before upper: [UInt8], where accepts: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool
    ) throws -> [UInt8]?
}

extension ProjectionRowSource {
    public func rowHeads(from lower: [UInt8], before upper: [UInt8]?, bytes: Int) throws -> EncodedRows {
        try rows(from: lower, before: upper).map { ($0.key, Array($0.row.prefix(bytes))) }
    }

    public func lastKey(
        before upper: [UInt8], where accepts: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool
    ) throws -> [UInt8]? {
        var bound = upper
        while let key = try lastKey(before: bound) {
            if let row = try row(forKey: key), try key.withUnsafeBytes({ key in try row.withUnsafeBytes { try accepts(key, $0) } }) {
                return key
            }
            bound = key
        }
        return nil
    }

    public func rows(from lower: [UInt8], before upper: [UInt8]?, keeping: (UnsafeRawBufferPointer) -> Bool) throws -> EncodedRows {
        try rows(from: lower, before: upper).filter { row in row.key.withUnsafeBytes(keeping) }
    }
}

/// A projection's state as it stands, read through the projection's own keys and rows: the
/// one way commands, the server and replays read what a projection holds. Each projection's
/// module adds its queries (the shoes, a day's record…) in an extension constrained to it, so
/// no key layout leaves the module that defines it.
///
/// The ledger hands out the stored state only after catching the projection up, and a replay
/// hands out the state it computed in memory; both read through the same queries.
public struct ProjectionState<P: Projection>: Sendable {
    /// The projection.
    public let projection: P
    private let source: any ProjectionRowSource

    /// Where the rows are read from.
    public var rowSource: any ProjectionRowSource { source }

    /// The state of `projection` as `source` holds it.
    public init(_ projection: P, source: any ProjectionRowSource) {
        self.projection = projection
        self.source = source
    }

    /// The row under a key, if there is one.
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func row(_ key: P.Key) throws -> P.Row? {
        try source.row(forKey: projection.encode(key: key)).map { bytes in
            try bytes.withUnsafeBytes { try projection.decodeRow($0) }
        }
    }

    /// The rows from `lower` through `upper` (both included), in key order.
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func rows(from lower: P.Key, through upper: P.Key) throws -> [(key: P.Key, row: P.Row)] {
        // Every key after `upper` in byte order is at or after `upper` followed by a zero byte.
        try decoded(source.rows(from: projection.encode(key: lower), before: projection.encode(key: upper) + [0]))
    }

    /// The rows from `lower` (included) up to `upper` (excluded), in key order.
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func rows(from lower: P.Key, before upper: P.Key) throws -> [(key: P.Key, row: P.Row)] {
        try decoded(source.rows(from: projection.encode(key: lower), before: projection.encode(key: upper)))
    }

    /// The rows from `lower` up to `upper` (excluded) whose keys `keeping` accepts; the other
    /// rows are not decoded.
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func rows(from lower: P.Key, before upper: P.Key, keeping: (P.Key) -> Bool) throws -> [(key: P.Key, row: P.Row)] {
        let kept = try source.rows(from: projection.encode(key: lower), before: projection.encode(key: upper)) { bytes in
            (try? projection.decodeKey(bytes)).map(keeping) ?? true
        }
        return try decoded(kept)
    }

    /// The greatest key before `upper`, if any (its row is not read).
    /// - Throws: a storage failure, or ``DecodingFailure`` for a key that cannot be read.
    public func lastKey(before upper: P.Key) throws -> P.Key? {
        try source.lastKey(before: projection.encode(key: upper)).map { bytes in try bytes.withUnsafeBytes { try projection.decodeKey($0) } }
    }

    /// The greatest key before `upper` that `accepts`, walking back from `upper` in one read
    /// and decoding only the keys it passes, not their rows.
    /// - Throws: a storage failure, ``DecodingFailure`` for a key that cannot be read, or what
    ///   `accepts` throws.
    public func lastKey(before upper: P.Key, where accepts: (P.Key) throws -> Bool) throws -> P.Key? {
        try source.lastKey(before: projection.encode(key: upper)) { key, _ in try accepts(try projection.decodeKey(key)) }
            .map { bytes in try bytes.withUnsafeBytes { try projection.decodeKey($0) } }
    }

    /// The rows from `lower` up to (not including) `upper`, each as its key and the first
    /// `bytes` bytes of its stored form: for a query that reads what a row begins with and
    /// decodes nothing else.
    /// - Throws: a storage failure, or ``DecodingFailure`` for a key that cannot be read.
    public func rowHeads(from lower: P.Key, before upper: P.Key, bytes: Int) throws -> [(key: P.Key, head: [UInt8])] {
        try source.rowHeads(from: projection.encode(key: lower), before: projection.encode(key: upper), bytes: bytes).map { entry in
            (try entry.key.withUnsafeBytes { try projection.decodeKey($0) }, entry.row)
        }
    }

    /// Every row, in key order.
    /// - Throws: a storage failure, or ``DecodingFailure`` for a row that cannot be read.
    public func allRows() throws -> [(key: P.Key, row: P.Row)] {
        try decoded(source.rows(from: [], before: nil))
    }

    private func decoded(_ rows: EncodedRows) throws -> [(key: P.Key, row: P.Row)] {
        try rows.map { entry in
            (
                try entry.key.withUnsafeBytes { try projection.decodeKey($0) },
                try entry.row.withUnsafeBytes { try projection.decodeRow($0) }
            )
        }
    }
}

/// Rows held in memory, sorted by key bytes: what a replay computed.
public struct InMemoryRows: ProjectionRowSource {
    private let rows: EncodedRows

    /// Rows in key-byte order (as ``RunningProjection/encodedRows()`` gives them).
    public init(_ rows: EncodedRows) {
        self.rows = rows
    }

    public func row(forKey key: [UInt8]) throws -> [UInt8]? {
        let index = firstIndex(atOrAfter: key)
        return index < rows.count && rows[index].key == key ? rows[index].row : nil
    }

    public func rows(from lower: [UInt8], before upper: [UInt8]?) throws -> EncodedRows {
        let start = firstIndex(atOrAfter: lower)
        let end = upper.map(firstIndex(atOrAfter:)) ?? rows.count
        return start < end ? Array(rows[start..<end]) : []
    }

    public func lastKey(before upper: [UInt8]) throws -> [UInt8]? {
        let index = firstIndex(atOrAfter: upper)
        return index > 0 ? rows[index - 1].key : nil
    }

    /// The index of the first row whose key is not before `key` (binary search).
    private func firstIndex(atOrAfter key: [UInt8]) -> Int {
        var low = 0
        var high = rows.count
        while low < high {
            let middle = (low + high) / 2
            if rows[middle].key.sortsBefore(key) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

extension Array where Element == RunningProjection {
    /// The state the run of `projection` holds, for the projection's typed queries: a replay's
    /// results, read as the stored state is.
    /// - Precondition: one of the runs folds `projection` (they are told apart by name).
    public func state<P: Projection>(of projection: P) -> ProjectionState<P> {
        guard let run = first(where: { $0.name == projection.name }) else {
            preconditionFailure("no run of the projection \(projection.name) among \(map(\.name))")
        }
        return ProjectionState(projection, source: InMemoryRows(run.encodedRows()))
    }
}
