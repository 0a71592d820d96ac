import StrideEvents

/// A projection: a name, a version, and a pure step that folds events into rows.
///
/// State is a set of rows under keys, so that catching up after one event touches one or
/// two rows, not the whole state. Keys encode to bytes that sort like the keys; rows encode
/// deterministically, so the same events always give byte-identical state (and the same
/// digest).
public protocol Projection: Sendable {
    /// A row's key.
    associatedtype Key: Hashable & Sendable
    /// A row.
    associatedtype Row: Sendable

    /// The projection's name, as `stride rebuild NAME` takes it.
    var name: String { get }
    /// The version of its rules and encoding; a change rebuilds it from sequence 1.
    var version: UInt32 { get }

    /// Folds one event into the rows. Pure: no clock, no I/O, the same result every time.
    func apply(_ event: ProjectionEvent, to rows: inout ProjectionRows<Key, Row>)

    /// A key's bytes; byte order must follow key order.
    func encode(key: Key) -> [UInt8]
    /// A key from its bytes.
    func decodeKey(_ bytes: UnsafeRawBufferPointer) throws -> Key
    /// Writes a row's bytes.
    func encode(row: Row, into writer: inout BinaryWriter)
    /// A row from its bytes.
    func decodeRow(_ bytes: UnsafeRawBufferPointer) throws -> Row
}

extension Projection {
    /// A row's bytes.
    public func encodedRow(_ row: Row) -> [UInt8] {
        var writer = BinaryWriter(capacity: 256)
        encode(row: row, into: &writer)
        return writer.bytes
    }

    /// A run of this projection whose rows not yet seen are loaded through `load`.
    public func makeRun(load: @escaping ([UInt8]) throws -> [UInt8]?) -> any ProjectionRunning {
        ProjectionRun(projection: self, load: load)
    }
}

/// Rows in stored form: key bytes and row bytes, in key-byte order.
public typealias EncodedRows = [(key: [UInt8], row: [UInt8])]

/// A projection being run over events, its type erased so an engine can run several.
public protocol ProjectionRunning: AnyObject {
    /// The projection's name.
    var name: String { get }
    /// The projection's version.
    var version: UInt32 { get }
    /// Folds an event in.
    func apply(_ event: ProjectionEvent)
    /// The first failure to load or decode a stored row, if any (the run is then invalid).
    var loadFailure: (any Error)? { get }
    /// The rows changed so far, encoded: a nil row is a deleted one. Sorted by key bytes.
    func encodedChanges() -> [(key: [UInt8], row: [UInt8]?)]
    /// Every row the run holds, encoded and sorted (all of them, after a run from sequence 1).
    func encodedRows() -> EncodedRows
}

/// A typed run of one projection.
final class ProjectionRun<P: Projection>: ProjectionRunning {
    let projection: P
    private var rows: ProjectionRows<P.Key, P.Row>

    init(projection: P, load: @escaping ([UInt8]) throws -> [UInt8]?) {
        self.projection = projection
        rows = ProjectionRows { [projection] key in
            try load(projection.encode(key: key)).map { bytes in try bytes.withUnsafeBytes { try projection.decodeRow($0) } }
        }
    }

    var name: String { projection.name }
    var version: UInt32 { projection.version }
    var loadFailure: (any Error)? { rows.loadFailure }

    func apply(_ event: ProjectionEvent) {
        projection.apply(event, to: &rows)
    }

    func encodedChanges() -> [(key: [UInt8], row: [UInt8]?)] {
        var keys: [[UInt8]] = []
        var encoded: [[UInt8]?] = []
        rows.forEachSlot { key, row, changed in
            guard changed else { return }
            keys.append(projection.encode(key: key))
            encoded.append(row.map(projection.encodedRow))
        }
        return Self.keyOrder(keys).map { (keys[$0], encoded[$0]) }
    }

    func encodedRows() -> EncodedRows {
        var keys: [[UInt8]] = []
        var encoded: [[UInt8]] = []
        rows.forEachSlot { key, row, _ in
            guard let row else { return }
            keys.append(projection.encode(key: key))
            encoded.append(projection.encodedRow(row))
        }
        return Self.keyOrder(keys).map { (keys[$0], encoded[$0]) }
    }

    /// The positions of `keys` in key-byte order. Positions are sorted rather than the rows
    /// themselves: moving a row while sorting retains and releases its arrays, and a rebuild
    /// sorts hundreds of thousands.
    private static func keyOrder(_ keys: [[UInt8]]) -> [Int] {
        keys.withUnsafeBufferPointer { keys in
            Array(keys.indices).sorted { keys[$0].sortsBefore(keys[$1]) }
        }
    }
}
