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

    /// A run of this projection whose rows not yet seen are loaded through `load`. A
    /// requirement (with a default) so that each projection's module compiles the run for
    /// its own keys and rows: an engine holds projections as `any Projection`, and a run made
    /// through the protocol extension alone ran unspecialized, copying every row and event
    /// through value witnesses.
    func makeRun(load: @escaping ([UInt8]) throws -> [UInt8]?) -> RunningProjection
}

extension Projection {
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

/// A projection being run over events, its type erased so an engine can run several: the
/// typed run's steps as closures made where the projection's type is known (so each is
/// compiled for that projection's keys and rows).
public final class RunningProjection {
    /// The projection's name.
    public let name: String
    /// The projection's version.
    public let version: UInt32
    private let applyStep: (ProjectionEvent) -> Void
    private let loadFailureStep: () -> (any Error)?
    private let encodedChangesStep: () -> [(key: [UInt8], row: [UInt8]?)]
    private let encodedRowsStep: () -> EncodedRows

    /// Wraps a typed run's steps.
    public init(
        name: String, version: UInt32, apply: @escaping (ProjectionEvent) -> Void, loadFailure: @escaping () -> (any Error)?,
        encodedChanges: @escaping () -> [(key: [UInt8], row: [UInt8]?)], encodedRows: @escaping () -> EncodedRows
    ) {
        self.name = name
        self.version = version
        applyStep = apply
        loadFailureStep = loadFailure
        encodedChangesStep = encodedChanges
        encodedRowsStep = encodedRows
    }

    /// Folds an event in.
    public func apply(_ event: ProjectionEvent) { applyStep(event) }
    /// The first failure to load or decode a stored row, if any (the run is then invalid).
    public var loadFailure: (any Error)? { loadFailureStep() }
    /// The rows changed so far, encoded: a nil row is a deleted one. Sorted by key bytes.
    public func encodedChanges() -> [(key: [UInt8], row: [UInt8]?)] { encodedChangesStep() }
    /// Every row the run holds, encoded and sorted (all of them, after a run from sequence 1).
    public func encodedRows() -> EncodedRows { encodedRowsStep() }
}

/// A typed run of one projection. Inlinable, so that it is specialized for each projection
/// (see ``Projection/makeRun(load:)``).
@usableFromInline
final class ProjectionRun<P: Projection> {
    @usableFromInline let projection: P
    @usableFromInline var rows: ProjectionRows<P.Key, P.Row>

    @inlinable
    init(projection: P, load: @escaping ([UInt8]) throws -> [UInt8]?) {
        self.projection = projection
        rows = ProjectionRows { [projection] key in
            try load(projection.encode(key: key)).map { bytes in try bytes.withUnsafeBytes { try projection.decodeRow($0) } }
        }
    }

    @inlinable var name: String { projection.name }
    @inlinable var version: UInt32 { projection.version }
    @inlinable var loadFailure: (any Error)? { rows.loadFailure }

    @inlinable
    func apply(_ event: ProjectionEvent) {
        projection.apply(event, to: &rows)
    }

    @inlinable
    func encodedChanges() -> [(key: [UInt8], row: [UInt8]?)] {
        var keys: [[UInt8]] = []
        var encoded: [[UInt8]?] = []
        rows.forEachSlot { key, row, changed in
            guard changed else { return }
            keys.append(projection.encode(key: key))
            if let row { encoded.append(projection.encodedRow(row)) } else { encoded.append(nil) }
        }
        return Self.keyOrder(keys).map { (Self.take(&keys[$0], leaving: []), Self.take(&encoded[$0], leaving: nil)) }
    }

    @inlinable
    func encodedRows() -> EncodedRows {
        var keys: [[UInt8]] = []
        var encoded: [[UInt8]] = []
        rows.forEachSlot { key, row, _ in
            guard let row else { return }
            keys.append(projection.encode(key: key))
            encoded.append(projection.encodedRow(row))
        }
        return Self.keyOrder(keys).map { (Self.take(&keys[$0], leaving: []), Self.take(&encoded[$0], leaving: [])) }
    }

    /// The value in `slot`, moved out (leaving `empty`) rather than copied and released.
    @inlinable
    static func take<Value>(_ slot: inout Value, leaving empty: Value) -> Value {
        var value = empty
        swap(&value, &slot)
        return value
    }

    /// The positions of `keys` in key-byte order. Positions are sorted rather than the rows
    /// themselves: moving a row while sorting retains and releases its arrays, and a rebuild
    /// sorts hundreds of thousands. The keys are compared as slices of one buffer holding
    /// them all: comparing two arrays retained both, which was most of the sort's time.
    @usableFromInline
    static func keyOrder(_ keys: [[UInt8]]) -> [Int] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(keys.reduce(0) { $0 + $1.count })
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(keys.count)
        for key in keys {
            ranges.append(bytes.count..<bytes.count + key.count)
            bytes += key
        }
        var order = Array(keys.indices)
        bytes.withUnsafeBytes { bytes in
            ranges.withUnsafeBufferPointer { ranges in
                order.sort { left, right in
                    UnsafeRawBufferPointer(rebasing: bytes[ranges[left]]).sortsBefore(UnsafeRawBufferPointer(rebasing: bytes[ranges[right]]))
                }
            }
        }
        return order
    }
}
