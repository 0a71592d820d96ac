import StrideEvents

/// A projection: a name, a version, and a pure step that folds events into rows.
///
/// State is a set of rows under keys, so that catching up after one event touches one or
/// two rows, not the whole state. Keys encode to bytes that sort like the keys; rows encode
/// deterministically, so the same events always give byte-identical state (and the same
/// digest).
public protocol Projection: Sendable {
    /// A row's key.
    associatedtype Key: RowKey
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
    /// Writes a key's bytes (those of ``encode(key:)``): a requirement with a default, for
    /// projections with many rows to write their keys without an array each.
    func encode(key: Key, into writer: inout BinaryWriter)
    /// A key from its bytes.
    func decodeKey(_ bytes: UnsafeRawBufferPointer) throws -> Key
    /// Writes a row's bytes.
    func encode(row: Row, into writer: inout BinaryWriter)
    /// A row from its bytes.
    func decodeRow(_ bytes: UnsafeRawBufferPointer) throws -> Row

    /// Whether the store keeps snapshots of its rows (every 50,000 events by default), so
    /// that its state as recorded at a past sequence folds a few events, not the whole log:
    /// for a projection whose state is small. False by default.
    var keepsSnapshots: Bool { get }

    /// Whether its fold reads sample events: a replay for projections that do not may skip
    /// them by their type, undecoded. True by default.
    var foldsSamples: Bool { get }

    /// A run of this projection whose rows not yet seen are loaded through `load`. A
    /// requirement (with a default) so that each projection's module compiles the run for
    /// its own keys and rows: an engine holds projections as `any Projection`, and a run made
    /// through the protocol extension alone ran unspecialized, copying every row and event
    /// through value witnesses.
    func makeRun(load: @escaping ([UInt8]) throws -> [UInt8]?) -> RunningProjection
}

extension Projection {
    public var keepsSnapshots: Bool { false }

    public var foldsSamples: Bool { true }

    public func encode(key: Key, into writer: inout BinaryWriter) {
        writer.write(raw: encode(key: key))
    }

    /// A row's bytes.
    public func encodedRow(_ row: Row) -> [UInt8] {
        var writer = BinaryWriter(capacity: 256)
        encode(row: row, into: &writer)
        return writer.bytes
    }

    /// A run of this projection whose rows not yet seen are loaded through `load`.
    @inlinable
    public func makeRun(load: @escaping ([UInt8]) throws -> [UInt8]?) -> RunningProjection {
        let run = ProjectionRun(projection: self, load: load)
        return RunningProjection(
            name: name, version: version, apply: { run.apply($0) }, loadFailure: { run.rows.loadFailure },
            encodedChanges: { run.encodedChanges() }, encodedRows: { run.encodedRows() })
    }
}

/// Rows in stored form: key bytes and row bytes, in key-byte order.
public typealias EncodedRows = [(key: [UInt8], row: [UInt8])]
